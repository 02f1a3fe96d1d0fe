package llm

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// SentencePieceTokenizer is a SentencePiece model (tokenizer.model), BPE (as Llama 2's) or
// unigram (as T5's, Gemma's), applied as libsentencepiece, which the runner's SPTokenizer wraps,
// applies it: the text normalized (spNormalizer: user-defined symbols, the precompiled character
// map when the model has one, whitespace, a dummy prefix, spaces as "▁"); then segmented — BPE:
// split into characters, the adjacent pair whose joined piece has the highest score merged first
// (leftmost on ties) until none joins; unigram: the Viterbi path of highest total score over the
// pieces (libsentencepiece's EncodeOptimized, its float32 sums and tie order); a symbol that is no
// piece becomes its bytes' <0xXX> tokens (byte fallback) or the unknown token, a run of unknown
// symbols one unknown token. Decoding is the runner's (control tokens as a space, "▁" as a
// space, <0x0A> as a newline). Safe for concurrent use.
type SentencePieceTokenizer struct {
	pieces      []spPiece
	byPiece     map[string]int // normal, user-defined and unused pieces: what merges may produce
	byteID      [256]int       // <0xXX> pieces, -1 when missing
	rank        map[int]int    // id → position of its score among the mergeable pieces, highest first
	unk         int
	bos, eos    int
	byteFallbck bool
	unigram     bool
	norm        spNormalizer
	// unigram: the longest piece in bytes, and the lowest and highest score of a normal piece
	// (the unknown token scores the lowest less 10; a user-defined one length × the highest
	// less 0.1, the highest starting at FLT_MIN, as libsentencepiece's).
	maxPiece           int
	minScore, maxScore float32
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
	t := &SentencePieceTokenizer{byPiece: map[string]int{}, unk: 0, bos: 1, eos: 2,
		norm: spNormalizer{dummyPrefix: true, removeExtra: true, escapeSpace: true, userDefined: map[string]bool{}}}
	modelType := 1 // UNIGRAM, the proto's default
	var charsmap []byte
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
					charsmap = b
				case f == 3 && w == 0:
					t.norm.dummyPrefix = v != 0
				case f == 4 && w == 0:
					t.norm.removeExtra = v != 0
				case f == 5 && w == 0:
					t.norm.escapeSpace = v != 0
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
	if modelType != 1 && modelType != 2 {
		return nil, bad("model type %d (etgo reads unigram and BPE models, types 1 and 2)", modelType)
	}
	t.unigram = modelType == 1
	if len(charsmap) > 0 {
		if err := t.norm.setCharsmap(charsmap); err != nil {
			return nil, bad("%v", err)
		}
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
	t.minScore, t.maxScore = math.MaxFloat32, 0x1p-126 // FLT_MAX, FLT_MIN
	for id, p := range t.pieces {
		if p.typ == spNormal {
			t.minScore, t.maxScore = min(t.minScore, p.score), max(t.maxScore, p.score)
		}
		switch p.typ {
		case spNormal, spUserDefined, spUnused:
			if _, dup := t.byPiece[p.text]; !dup {
				t.byPiece[p.text] = id
			}
			t.maxPiece = max(t.maxPiece, len(p.text))
			if p.typ == spUserDefined {
				t.norm.userDefined[p.text] = true
				t.norm.maxUser = max(t.norm.maxUser, len(p.text))
			}
			mergeable = append(mergeable, scored{id, p.score})
		case spUnknown:
			t.unk = id
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

// Encode implements Tokenizer: bos BOS tokens, the text, eos EOS tokens.
func (t *SentencePieceTokenizer) Encode(text string, bos, eos int) ([]int, error) {
	if k := strings.IndexByte(text, 0); k >= 0 {
		text = text[:k] // the runner passes the text on as a C string
	}
	var ids []int
	for i := 0; i < bos; i++ {
		ids = append(ids, t.bos)
	}
	s := t.norm.normalize(text)
	var segs []symbol
	if t.unigram {
		segs = t.viterbi(s)
	} else {
		segs = t.bpe(s)
	}
	// PopulateSentencePieceText: an unknown piece is its bytes' tokens with byte fallback, else
	// one unknown token for a whole run of them.
	prevUnk := false
	for _, sym := range segs {
		unk := sym.id < 0 || sym.id == t.unk
		switch {
		case unk && t.byteFallbck:
			for k := sym.start; k < sym.end; k++ {
				if b := t.byteID[s[k]]; b >= 0 {
					ids = append(ids, b)
				} else {
					ids = append(ids, t.unk)
				}
			}
		case unk && prevUnk:
		case unk:
			ids = append(ids, t.unk)
		default:
			ids = append(ids, sym.id)
		}
		prevUnk = unk
	}
	for i := 0; i < eos; i++ {
		ids = append(ids, t.eos)
	}
	return ids, nil
}

// bpe is bpe_model.cc's Encode: characters, merged by score.
func (t *SentencePieceTokenizer) bpe(s string) []symbol {
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
	return mergeSymbols(syms, func(a, b symbol) (int, int, bool) {
		id, ok := t.byPiece[s[a.start:b.end]]
		if !ok {
			return 0, 0, false
		}
		return t.rank[id], id, true
	})
}

// utf8Len is libsentencepiece's OneCharLen: a character's length from its lead byte alone.
func utf8Len(b byte) int {
	return int("\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x02\x02\x03\x04"[b>>4])
}

// viterbi is unigram_model.cc's EncodeOptimized: for each character position, in order, every
// piece starting there (shorter first) offers the best path to its end its score plus the best
// path's to its start, replacing the end's best only when strictly higher; a position no
// one-character piece starts at offers the unknown token for its character. Sums are float32
// (a user-defined piece's score is float64, the sum compared in float64 then stored as float32),
// as in libsentencepiece, so ties fall the same way.
func (t *SentencePieceTokenizer) viterbi(s string) []symbol {
	if s == "" {
		return nil
	}
	type node struct {
		id    int
		score float32
		start int
	}
	best := make([]node, len(s)+1)
	for i := range best {
		best[i] = node{id: -1, start: -1}
	}
	unkScore := float32(t.minScore - 10)
	for start := 0; start < len(s); {
		here := best[start].score
		single := false
		mblen := min(utf8Len(s[start]), len(s)-start)
		for end := start + 1; end <= min(len(s), start+t.maxPiece); end++ {
			id, ok := t.byPiece[s[start:end]]
			if !ok || t.pieces[id].typ == spUnused {
				continue
			}
			length := end - start
			var cand float64
			if t.pieces[id].typ == spUserDefined {
				cand = (float64(float32(float32(length)*t.maxScore)) - 0.1) + float64(here)
			} else {
				cand = float64(float32(t.pieces[id].score + here))
			}
			if n := &best[end]; n.start == -1 || cand > float64(n.score) {
				*n = node{id: id, score: float32(cand), start: start}
			}
			if length == mblen {
				single = true
			}
		}
		if !single {
			cand := float32(unkScore + here)
			if n := &best[start+mblen]; n.start == -1 || cand > n.score {
				*n = node{id: t.unk, score: cand, start: start}
			}
		}
		start += mblen
	}
	var out []symbol
	for end := len(s); end > 0; {
		n := best[end]
		if n.start < 0 {
			// Unreachable: every character position gets a piece or the unknown token, and
			// the last one ends at len(s); kept so a corrupt model cannot loop.
			out = append(out, symbol{id: t.unk, start: 0, end: end})
			break
		}
		out = append(out, symbol{id: n.id, start: n.start, end: end})
		end = n.start
	}
	slices.Reverse(out)
	return out
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
