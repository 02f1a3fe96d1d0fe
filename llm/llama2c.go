package llm

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"strings"
)

// Llama2cTokenizer is the llama2c tokenizer.bin ExecuTorch's stories and Llama 2 examples use
// (a SentencePiece model converted by pytorch_tokenizers: vocabulary size, BOS, EOS and the
// longest token, then each token's score and bytes), read and applied as the runner's
// Llama2cTokenizer does: a dummy-prefix space, each character's token (or its bytes as tokens
// 3.., byte fallback), then the pair whose merged token scores highest, leftmost on ties, until
// none merges. Safe for concurrent use.
type Llama2cTokenizer struct {
	vocab    []string
	scores   []float32
	lookup   map[string]int // the first id of each string, as the runner's sorted lookup finds one
	rank     map[int]int    // id → position of its score among all, highest first
	bos, eos int
}

// ParseLlama2c reads a tokenizer.bin.
func ParseLlama2c(data []byte) (*Llama2cTokenizer, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: llama2c tokenizer: %s", ErrTokenizer, fmt.Sprintf(format, a...))
	}
	if len(data) < 16 {
		return nil, bad("%d bytes, shorter than its header", len(data))
	}
	le := binary.LittleEndian
	n := int32(le.Uint32(data[0:]))
	bos, eos := int32(le.Uint32(data[4:])), int32(le.Uint32(data[8:]))
	if n < 3 || n > maxVocab {
		return nil, bad("vocabulary size %d", n)
	}
	if bos < 0 || bos >= n || eos < 0 || eos >= n {
		return nil, bad("BOS %d or EOS %d outside the vocabulary of %d", bos, eos, n)
	}
	t := &Llama2cTokenizer{vocab: make([]string, n), scores: make([]float32, n), lookup: map[string]int{}, bos: int(bos), eos: int(eos)}
	off := 16
	for i := 0; i < int(n); i++ {
		if off+4 > len(data) {
			// The runner pads a vocabulary the file stops short of with <pad>.
			t.vocab[i], t.scores[i] = "<pad>", 0
			continue
		}
		t.scores[i] = math.Float32frombits(le.Uint32(data[off:]))
		if off+8 > len(data) {
			return nil, bad("token %d has no length", i)
		}
		l := int32(le.Uint32(data[off+4:]))
		off += 8
		if l < 0 || int(l) > len(data)-off {
			return nil, bad("token %d has length %d, past the end of the file", i, l)
		}
		s := string(data[off : off+int(l)])
		if k := strings.IndexByte(s, 0); k >= 0 {
			s = s[:k] // the runner's strings end at a NUL
		}
		t.vocab[i] = s
		off += int(l)
	}
	for i, s := range t.vocab {
		if _, ok := t.lookup[s]; !ok {
			t.lookup[s] = i
		}
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return t.scores[order[a]] > t.scores[order[b]] })
	t.rank = make(map[int]int, n)
	r := 0
	for k, id := range order {
		if k > 0 && t.scores[id] != t.scores[order[k-1]] {
			r = k
		}
		t.rank[id] = r
	}
	return t, nil
}

func (t *Llama2cTokenizer) VocabSize() int { return len(t.vocab) }
func (t *Llama2cTokenizer) BOS() int       { return t.bos }
func (t *Llama2cTokenizer) EOS() int       { return t.eos }

// Encode implements Tokenizer.
func (t *Llama2cTokenizer) Encode(text string, bos, eos int) ([]int, error) {
	if k := strings.IndexByte(text, 0); k >= 0 {
		text = text[:k] // the runner reads the text as a C string
	}
	if text == "" {
		return nil, fmt.Errorf("%w: llama2c: cannot encode empty text", ErrTokenizer)
	}
	var syms []symbol
	add := func(id int) { syms = append(syms, symbol{id: id}) }
	for i := 0; i < bos; i++ {
		add(t.bos)
	}
	space, ok := t.lookup[" "]
	if !ok {
		return nil, fmt.Errorf("%w: llama2c: the vocabulary has no \" \" token for the dummy prefix", ErrTokenizer)
	}
	add(space)
	// Characters as the runner cuts them: a lead byte and at most three continuation bytes.
	for i := 0; i < len(text); {
		j := i + 1
		for j < len(text) && text[j]&0xC0 == 0x80 && j-i < 4 {
			j++
		}
		ch := text[i:j]
		i = j
		if id, ok := t.lookup[ch]; ok {
			add(id)
			continue
		}
		for k := 0; k < len(ch); k++ {
			id := int(ch[k]) + 3 // byte fallback: <0x00>.. follow <unk>, <s>, </s>
			if id >= len(t.vocab) {
				return nil, fmt.Errorf("%w: llama2c: byte 0x%02X has no token", ErrTokenizer, ch[k])
			}
			add(id)
		}
	}
	merged := mergeSymbols(syms, func(a, b symbol) (int, int, bool) {
		id, ok := t.lookup[t.vocab[a.id]+t.vocab[b.id]]
		if !ok {
			return 0, 0, false
		}
		return t.rank[id], id, true
	})
	ids := make([]int, 0, len(merged)+eos)
	for _, s := range merged {
		ids = append(ids, s.id)
	}
	for i := 0; i < eos; i++ {
		ids = append(ids, t.eos)
	}
	return ids, nil
}

// Decode implements Tokenizer: after BOS a leading space is dropped (SentencePiece's decoder
// does), and a byte token <0xXX> is that byte.
func (t *Llama2cTokenizer) Decode(prev, cur int) (string, error) {
	if cur < 0 || cur >= len(t.vocab) {
		return "", fmt.Errorf("%w: unknown token id %d", ErrTokenizer, cur)
	}
	p := t.vocab[cur]
	if prev == t.bos && strings.HasPrefix(p, " ") {
		p = p[1:]
	}
	if b, ok := hexByte(p); ok {
		return string([]byte{b}), nil
	}
	return p, nil
}

// hexByte reads "<0x" and one or two hex digits, as the runner's sscanf("<0x%02hhX>") does.
func hexByte(p string) (byte, bool) {
	if !strings.HasPrefix(p, "<0x") {
		return 0, false
	}
	v, n := 0, 0
	for _, c := range p[3:] {
		var d int
		switch {
		case c >= '0' && c <= '9':
			d = int(c - '0')
		case c >= 'a' && c <= 'f':
			d = int(c-'a') + 10
		case c >= 'A' && c <= 'F':
			d = int(c-'A') + 10
		default:
			return byte(v), n > 0
		}
		if v, n = v*16+d, n+1; n == 2 {
			break
		}
	}
	return byte(v), n > 0
}
