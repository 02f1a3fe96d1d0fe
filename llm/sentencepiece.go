package llm

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode/utf8"
)

// SentencePieceTokenizer is a SentencePiece BPE model (tokenizer.model, as Llama 2's), applied
// as libsentencepiece, which the runner's SPTokenizer wraps, applies it: the text with a dummy
// prefix and spaces as "▁", split into characters, then the adjacent pair whose joined piece has
// the highest score merged first (leftmost on ties) until none joins; a symbol that is no piece
// becomes its bytes' <0xXX> tokens (byte fallback) or the unknown token. Decoding is the runner's
// (control tokens as a space, "▁" as a space, <0x0A> as a newline). Models with a precompiled
// normalization table (NFKC) or a unigram model are refused at load: their rules are not
// implemented. Safe for concurrent use.
type SentencePieceTokenizer struct {
	pieces      []spPiece
	byPiece     map[string]int // normal, user-defined and unused pieces: what merges may produce
	byteID      [256]int       // <0xXX> pieces, -1 when missing
	rank        map[int]int    // id → position of its score among the mergeable pieces, highest first
	unk         int
	bos, eos    int
	dummyPrefix bool
	removeExtra bool
	escapeSpace bool
	byteFallbck bool
}

type spPiece struct {
	text  string
	score float32
	typ   int
}

// SentencePiece piece types.
const (
	spNormal      = 1
	spUnknown     = 2
	spControl     = 3
	spUserDefined = 4
	spUnused      = 5
	spByte        = 6
)

// ParseSentencePiece reads a SentencePiece model (a ModelProto).
func ParseSentencePiece(data []byte) (*SentencePieceTokenizer, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: sentencepiece: %s", ErrTokenizer, fmt.Sprintf(format, a...))
	}
	t := &SentencePieceTokenizer{byPiece: map[string]int{}, unk: 0, bos: 1, eos: 2, dummyPrefix: true, removeExtra: true, escapeSpace: true}
	modelType := 1 // UNIGRAM, the proto's default
	charsmap := false
	err := protoFields(data, func(field int, wire int, v uint64, b []byte) error {
		switch field {
		case 1: // pieces
			if wire != 2 {
				return bad("piece field of wire type %d", wire)
			}
			p := spPiece{typ: spNormal}
			if err := protoFields(b, func(f, w int, v uint64, b []byte) error {
				switch {
				case f == 1 && w == 2:
					p.text = string(b)
				case f == 2 && w == 5:
					p.score = math.Float32frombits(uint32(v))
				case f == 3 && w == 0:
					p.typ = int(v)
				}
				return nil
			}); err != nil {
				return err
			}
			if len(t.pieces) >= maxVocab {
				return bad("more than %d pieces", maxVocab)
			}
			t.pieces = append(t.pieces, p)
		case 2: // trainer_spec
			return protoFields(b, func(f, w int, v uint64, b []byte) error {
				if w != 0 {
					return nil
				}
				switch f {
				case 3:
					modelType = int(v)
				case 24:
					if v != 0 {
						return bad("treat_whitespace_as_suffix is not supported")
					}
				case 35:
					t.byteFallbck = v != 0
				case 40:
					t.unk = int(int32(v))
				case 41:
					t.bos = int(int32(v))
				case 42:
					t.eos = int(int32(v))
				}
				return nil
			})
		case 3: // normalizer_spec
			return protoFields(b, func(f, w int, v uint64, b []byte) error {
				switch {
				case f == 2 && w == 2:
					charsmap = len(b) > 0
				case f == 3 && w == 0:
					t.dummyPrefix = v != 0
				case f == 4 && w == 0:
					t.removeExtra = v != 0
				case f == 5 && w == 0:
					t.escapeSpace = v != 0
				}
				return nil
			})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(t.pieces) == 0 {
		return nil, bad("no pieces")
	}
	if modelType != 2 {
		return nil, bad("model type %d (etgo reads BPE models, type 2)", modelType)
	}
	if charsmap {
		return nil, bad("the model normalizes with a precompiled table (NFKC), which etgo does not implement")
	}
	n := len(t.pieces)
	for _, id := range []int{t.unk, t.bos, t.eos} {
		if id < -1 || id >= n {
			return nil, bad("special id %d outside the %d pieces", id, n)
		}
	}
	for i := range t.byteID {
		t.byteID[i] = -1
	}
	type scored struct {
		id    int
		score float32
	}
	var mergeable []scored
	for id, p := range t.pieces {
		switch p.typ {
		case spNormal, spUserDefined, spUnused:
			if _, dup := t.byPiece[p.text]; !dup {
				t.byPiece[p.text] = id
			}
			mergeable = append(mergeable, scored{id, p.score})
		case spByte:
			if b, ok := hexByte(p.text); ok && len(p.text) == 6 {
				t.byteID[b] = id
			}
		}
	}
	// Ranks: a higher score merges first.
	sort.SliceStable(mergeable, func(a, b int) bool { return mergeable[a].score > mergeable[b].score })
	t.rank = make(map[int]int, len(mergeable))
	r := 0
	for k, s := range mergeable {
		if k > 0 && s.score != mergeable[k-1].score {
			r = k
		}
		t.rank[s.id] = r
	}
	return t, nil
}

func (t *SentencePieceTokenizer) VocabSize() int { return len(t.pieces) }
func (t *SentencePieceTokenizer) BOS() int       { return t.bos }
func (t *SentencePieceTokenizer) EOS() int       { return t.eos }

// normalize is SentencePiece's identity normalizer: whitespace trimmed and collapsed when
// remove_extra_whitespaces, a dummy-prefix space, spaces as "▁".
func (t *SentencePieceTokenizer) normalize(s string) string {
	if t.removeExtra {
		s = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == ' ' }), " ")
	}
	if s == "" {
		return ""
	}
	if t.dummyPrefix {
		s = " " + s
	}
	if t.escapeSpace {
		s = strings.ReplaceAll(s, " ", "▁")
	}
	return s
}

// Encode implements Tokenizer: bos BOS tokens, the text, eos EOS tokens.
func (t *SentencePieceTokenizer) Encode(text string, bos, eos int) ([]int, error) {
	if k := strings.IndexByte(text, 0); k >= 0 {
		text = text[:k] // the runner passes the text on as a C string
	}
	var ids []int
	for i := 0; i < bos; i++ {
		ids = append(ids, t.bos)
	}
	s := t.normalize(text)
	var syms []symbol
	for i := 0; i < len(s); {
		_, n := utf8.DecodeRuneInString(s[i:])
		id, ok := t.byPiece[s[i:i+n]]
		if !ok {
			id = -1
		}
		syms = append(syms, symbol{id: id, start: i, end: i + n})
		i += n
	}
	merged := mergeSymbols(syms, func(a, b symbol) (int, int, bool) {
		id, ok := t.byPiece[s[a.start:b.end]]
		if !ok {
			return 0, 0, false
		}
		return t.rank[id], id, true
	})
	for _, sym := range merged {
		if sym.id >= 0 {
			ids = append(ids, sym.id)
			continue
		}
		if t.byteFallbck {
			for k := sym.start; k < sym.end; k++ {
				if b := t.byteID[s[k]]; b >= 0 {
					ids = append(ids, b)
				} else {
					ids = append(ids, t.unk)
				}
			}
			continue
		}
		ids = append(ids, t.unk)
	}
	for i := 0; i < eos; i++ {
		ids = append(ids, t.eos)
	}
	return ids, nil
}

// Decode implements Tokenizer as the runner's SPTokenizer does.
func (t *SentencePieceTokenizer) Decode(prev, cur int) (string, error) {
	if cur < 0 || cur >= len(t.pieces) {
		return "", fmt.Errorf("%w: unknown token id %d", ErrTokenizer, cur)
	}
	p := t.pieces[cur]
	if p.typ == spControl {
		return " ", nil
	}
	s := strings.ReplaceAll(p.text, "▁", " ")
	if prev == t.bos && strings.HasPrefix(s, " ") {
		s = s[1:]
	}
	return strings.ReplaceAll(s, "<0x0A>", "\n"), nil
}

// protoFields walks the fields of one protobuf message: varints and fixed32/64 in v,
// length-delimited fields in b. Groups are refused; every length is bounded by the message.
func protoFields(data []byte, fn func(field, wire int, v uint64, b []byte) error) error {
	for len(data) > 0 {
		key, n := binary.Uvarint(data)
		if n <= 0 {
			return fmt.Errorf("%w: sentencepiece: bad field key", ErrTokenizer)
		}
		data = data[n:]
		field, wire := int(key>>3), int(key&7)
		var v uint64
		var b []byte
		switch wire {
		case 0:
			if v, n = binary.Uvarint(data); n <= 0 {
				return fmt.Errorf("%w: sentencepiece: bad varint in field %d", ErrTokenizer, field)
			}
			data = data[n:]
		case 1:
			if len(data) < 8 {
				return fmt.Errorf("%w: sentencepiece: field %d truncated", ErrTokenizer, field)
			}
			v, data = binary.LittleEndian.Uint64(data), data[8:]
		case 5:
			if len(data) < 4 {
				return fmt.Errorf("%w: sentencepiece: field %d truncated", ErrTokenizer, field)
			}
			v, data = uint64(binary.LittleEndian.Uint32(data)), data[4:]
		case 2:
			l, n := binary.Uvarint(data)
			if n <= 0 || l > uint64(len(data)-n) {
				return fmt.Errorf("%w: sentencepiece: field %d has a length past the message", ErrTokenizer, field)
			}
			b, data = data[n:n+int(l)], data[n+int(l):]
		default:
			return fmt.Errorf("%w: sentencepiece: wire type %d in field %d", ErrTokenizer, wire, field)
		}
		if err := fn(field, wire, v, b); err != nil {
			return err
		}
	}
	return nil
}
