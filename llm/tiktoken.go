package llm

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"regexp"
	"strconv"

	"github.com/dlclark/regexp2/v2"
)

// TiktokenTokenizer is a tiktoken BPE file (one "base64(token) rank" line per token) read as the
// runner's Tiktoken does by default: Llama 3's pattern (the RE2 form, without the \s+(?!\S)
// lookahead) and its 256 special tokens, numbered after the file's tokens, <|begin_of_text|> the
// BOS and <|end_of_text|> the EOS. Safe for concurrent use.
type TiktokenTokenizer struct {
	ranks    map[string]int
	byID     map[int]string
	special  map[string]int
	specials []string // longest first
	re       *regexp.Regexp
	re2      *regexp2.Regexp // instead of re, for a pattern with lookarounds (tekken's)
	bos, eos int
}

// llama3Pattern is the runner's default tiktoken pattern (tiktoken.h _get_default_patern).
const llama3Pattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+`

var llama3Regexp = regexp.MustCompile(llama3Pattern)

// Llama3SpecialTokens are the runner's default tiktoken special tokens, in id order.
func Llama3SpecialTokens() []string {
	s := []string{"<|begin_of_text|>", "<|end_of_text|>", "<|reserved_special_token_0|>", "<|reserved_special_token_1|>",
		"<|finetune_right_pad_id|>", "<|step_id|>", "<|start_header_id|>", "<|end_header_id|>", "<|eom_id|>", "<|eot_id|>", "<|python_tag|>"}
	for n := 2; len(s) < 256; n++ {
		s = append(s, fmt.Sprintf("<|reserved_special_token_%d|>", n))
	}
	return s
}

// ParseTiktoken reads a tiktoken file with the runner's defaults.
func ParseTiktoken(data []byte) (*TiktokenTokenizer, error) {
	t := &TiktokenTokenizer{ranks: map[string]int{}, byID: map[int]string{}, special: map[string]int{}, re: llama3Regexp}
	for n, line := range bytes.Split(data, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		tok, rank, ok := bytes.Cut(line, []byte(" "))
		if !ok {
			return nil, fmt.Errorf("%w: tiktoken line %d has no rank", ErrTokenizer, n+1)
		}
		b, err := base64.StdEncoding.DecodeString(string(tok))
		if err != nil {
			return nil, fmt.Errorf("%w: tiktoken line %d: %v", ErrTokenizer, n+1, err)
		}
		r, err := strconv.Atoi(string(bytes.TrimSpace(rank)))
		if err != nil || r < 0 || r >= maxVocab {
			return nil, fmt.Errorf("%w: tiktoken line %d: bad rank %q", ErrTokenizer, n+1, rank)
		}
		if _, dup := t.ranks[string(b)]; dup {
			return nil, fmt.Errorf("%w: tiktoken line %d repeats a token", ErrTokenizer, n+1)
		}
		if _, dup := t.byID[r]; dup {
			return nil, fmt.Errorf("%w: tiktoken line %d repeats rank %d", ErrTokenizer, n+1, r)
		}
		t.ranks[string(b)] = r
		t.byID[r] = string(b)
	}
	if len(t.ranks) == 0 {
		return nil, fmt.Errorf("%w: no tiktoken lines", ErrTokenizer)
	}
	for i, s := range Llama3SpecialTokens() {
		id := len(t.ranks) + i
		t.special[s] = id
		t.byID[id] = s
	}
	t.specials = sortedLongestFirst(t.special)
	t.bos, t.eos = t.special["<|begin_of_text|>"], t.special["<|end_of_text|>"]
	return t, nil
}

func (t *TiktokenTokenizer) VocabSize() int { return len(t.ranks) + len(t.special) }
func (t *TiktokenTokenizer) BOS() int       { return t.bos }
func (t *TiktokenTokenizer) EOS() int       { return t.eos }

// Encode implements Tokenizer: special tokens split the text, the pattern splits the rest, each
// piece is its rank or its byte-pair merge; bos BOS tokens go before, eos EOS tokens after.
func (t *TiktokenTokenizer) Encode(text string, bos, eos int) ([]int, error) {
	var ids []int
	for i := 0; i < bos; i++ {
		ids = append(ids, t.bos)
	}
	for len(text) > 0 {
		at, special := nextSpecial(t.specials, text)
		matches, err := t.split(text[:at])
		if err != nil {
			return nil, err
		}
		for _, m := range matches {
			piece := text[m[0]:m[1]]
			if id, ok := t.ranks[piece]; ok {
				ids = append(ids, id)
				continue
			}
			pid, err := t.bytePairEncode(piece)
			if err != nil {
				return nil, err
			}
			ids = append(ids, pid...)
		}
		if special == "" {
			break
		}
		ids = append(ids, t.special[special])
		text = text[at+len(special):]
	}
	for i := 0; i < eos; i++ {
		ids = append(ids, t.eos)
	}
	return ids, nil
}

// split is the pattern's matches in s, as byte ranges.
func (t *TiktokenTokenizer) split(s string) ([][2]int, error) {
	if t.re2 != nil {
		return findAll(t.re2, s)
	}
	idx := t.re.FindAllStringIndex(s, -1)
	out := make([][2]int, len(idx))
	for i, m := range idx {
		out[i] = [2]int{m[0], m[1]}
	}
	return out, nil
}

// bytePairEncode is tiktoken's merge over bytes: repeatedly join the adjacent pair whose joined
// bytes have the lowest rank (leftmost on ties).
func (t *TiktokenTokenizer) bytePairEncode(piece string) ([]int, error) {
	if len(piece) == 1 {
		if id, ok := t.ranks[piece]; ok {
			return []int{id}, nil
		}
		return nil, fmt.Errorf("%w: byte %q has no token", ErrTokenizer, piece)
	}
	syms := make([]symbol, len(piece))
	for i := range syms {
		id, ok := t.ranks[piece[i:i+1]]
		if !ok {
			id = -1 // a byte with no rank of its own can still merge into one that has
		}
		syms[i] = symbol{id: id, start: i, end: i + 1}
	}
	merged := mergeSymbols(syms, func(a, b symbol) (int, int, bool) {
		r, ok := t.ranks[piece[a.start:b.end]]
		return r, r, ok
	})
	out := make([]int, 0, len(merged))
	for _, s := range merged {
		if s.id < 0 {
			return nil, fmt.Errorf("%w: %q has no token", ErrTokenizer, piece[s.start:s.end])
		}
		out = append(out, s.id)
	}
	return out, nil
}

// Decode implements Tokenizer: a token's bytes as they are.
func (t *TiktokenTokenizer) Decode(_, cur int) (string, error) {
	s, ok := t.byID[cur]
	if !ok {
		return "", fmt.Errorf("%w: unknown token id %d", ErrTokenizer, cur)
	}
	return s, nil
}
