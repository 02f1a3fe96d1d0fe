package llm

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
	"golang.org/x/text/unicode/norm"
)

// HFTokenizer is a Hugging Face tokenizer.json with a BPE model, read and applied as the
// runner's HFTokenizer (pytorch/tokenizers) does: added tokens split the text first; the rest is
// normalized (NFC, Replace, Prepend, Sequence), pre-tokenized (Split, ByteLevel, Digits,
// Sequence) and merged by the BPE merges (lowest rank first, leftmost on ties), a whole piece in
// the vocabulary taking its id directly; decoding runs the decoders (ByteLevel, Replace,
// ByteFallback, Fuse, Sequence). Components the runner does not read are refused at load, by
// name. Safe for concurrent use.
type HFTokenizer struct {
	vocab    map[string]int // regular tokens
	idToTok  map[int]string // regular and added tokens
	special  map[string]int // added tokens
	specials []string       // added tokens, longest first, for splitting
	merges   map[[2]int]merge
	norm     func(string) (string, error)
	pre      preTokenizer
	decoders []func([]string) []string
	post     *template

	byteFallback bool
	unk          int
	hasUnk       bool
	bos, eos     int
	vocabSize    int
}

type merge struct{ rank, id int }

type preTokenizer func(string) ([]string, error)

// template is a TemplateProcessing post-processor's single-sequence template: special token ids
// and the place of the sequence.
type template struct {
	items []templateItem
}

type templateItem struct {
	ids []int // nil: the sequence
}

type hfJSON struct {
	AddedTokens []struct {
		ID      int    `json:"id"`
		Content string `json:"content"`
	} `json:"added_tokens"`
	Normalizer    json.RawMessage `json:"normalizer"`
	PreTokenizer  json.RawMessage `json:"pre_tokenizer"`
	PostProcessor json.RawMessage `json:"post_processor"`
	Decoder       json.RawMessage `json:"decoder"`
	Model         struct {
		Type         string            `json:"type"`
		Vocab        map[string]int    `json:"vocab"`
		Merges       []json.RawMessage `json:"merges"`
		ByteFallback bool              `json:"byte_fallback"`
		UnkToken     *string           `json:"unk_token"`
	} `json:"model"`
}

// maxVocab bounds ids read from a file, so an id cannot make a table of arbitrary size.
const maxVocab = 1 << 24

func hfErr(format string, a ...any) error {
	return fmt.Errorf("%w: tokenizer.json: %s", ErrTokenizer, fmt.Sprintf(format, a...))
}

// ParseHFTokenizer reads a tokenizer.json.
func ParseHFTokenizer(data []byte) (*HFTokenizer, error) {
	var j hfJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, hfErr("%v", err)
	}
	if j.Model.Type != "" && j.Model.Type != "BPE" {
		return nil, hfErr("model type %q (the runner reads BPE models only)", j.Model.Type)
	}
	if j.Model.Vocab == nil {
		return nil, hfErr("no model.vocab")
	}
	t := &HFTokenizer{vocab: map[string]int{}, idToTok: map[int]string{}, special: map[string]int{}, byteFallback: j.Model.ByteFallback}
	for _, a := range j.AddedTokens {
		if a.ID < 0 || a.ID >= maxVocab || a.Content == "" {
			return nil, hfErr("added token %q has id %d", a.Content, a.ID)
		}
		t.special[a.Content] = a.ID
		t.idToTok[a.ID] = a.Content
	}
	specialIDs := map[int]bool{}
	for _, id := range t.special {
		specialIDs[id] = true
	}
	for tok, id := range j.Model.Vocab {
		if id < 0 || id >= maxVocab {
			return nil, hfErr("token %q has id %d", tok, id)
		}
		if specialIDs[id] {
			continue // an added token's id: the added token wins, as in the runner
		}
		t.vocab[tok] = id
		t.idToTok[id] = tok
	}
	t.vocabSize = len(t.vocab) + len(t.special)
	t.specials = sortedLongestFirst(t.special)
	t.merges = map[[2]int]merge{}
	for rank, raw := range j.Model.Merges {
		var a, b string
		var s string
		var pair []string
		if json.Unmarshal(raw, &s) == nil {
			if strings.HasPrefix(s, "#version") {
				continue
			}
			var ok bool
			if a, b, ok = strings.Cut(s, " "); !ok {
				continue
			}
		} else if json.Unmarshal(raw, &pair) == nil && len(pair) == 2 {
			a, b = pair[0], pair[1]
		} else {
			return nil, hfErr("merge %d is neither \"a b\" nor [a, b]", rank)
		}
		ia, oka := t.vocab[a]
		ib, okb := t.vocab[b]
		im, okm := t.vocab[a+b]
		if a == "" || b == "" || !oka || !okb || !okm {
			continue // the runner skips merges whose parts or result are not tokens
		}
		if _, dup := t.merges[[2]int{ia, ib}]; !dup {
			t.merges[[2]int{ia, ib}] = merge{rank: rank, id: im}
		}
	}
	var err error
	if t.norm, err = parseNormalizer(j.Normalizer); err != nil {
		return nil, err
	}
	if t.pre, err = parsePreTokenizer(j.PreTokenizer); err != nil {
		return nil, err
	}
	if t.decoders, err = parseDecoder(j.Decoder); err != nil {
		return nil, err
	}
	if t.post, err = parsePostProcessor(j.PostProcessor); err != nil {
		return nil, err
	}
	// The unknown token: the model's unk_token, else a conventional name among the added tokens
	// (an explicit null means none).
	if j.Model.UnkToken != nil {
		if id, ok := t.special[*j.Model.UnkToken]; ok {
			t.unk, t.hasUnk = id, true
		}
	} else {
		for _, name := range []string{"<unk>", "[UNK]", "<|endoftext|>"} {
			if id, ok := t.special[name]; ok {
				t.unk, t.hasUnk = id, true
				break
			}
		}
	}
	t.guessSpecials()
	return t, nil
}

// guessSpecials picks BOS and EOS from the added tokens' names as the runner does for a lone
// tokenizer.json: the only one naming "bos" or "begin", the only one naming "eos" or "end", each
// standing in for the other when one is missing.
func (t *HFTokenizer) guessSpecials() {
	var bos, eos []string
	for s := range t.special {
		if strings.Contains(s, "bos") || strings.Contains(s, "begin") {
			bos = append(bos, s)
		}
		if strings.Contains(s, "eos") || strings.Contains(s, "end") {
			eos = append(eos, s)
		}
	}
	hasBos, hasEos := len(bos) == 1, len(eos) == 1
	if hasBos {
		t.bos = t.special[bos[0]]
	}
	if hasEos {
		t.eos = t.special[eos[0]]
	}
	switch {
	case hasBos && !hasEos:
		t.eos = t.bos
	case !hasBos && hasEos:
		t.bos = t.eos
	}
}

// configSpecials reads BOS and EOS from a model directory's special_tokens_map.json, then
// tokenizer_config.json, as the runner does for a directory.
func (t *HFTokenizer) configSpecials(dir string) {
	var bos, eos string
	read := func(name string) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || len(b) > maxTokenizerFile {
			return
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(b, &m) != nil {
			return
		}
		tok := func(raw json.RawMessage) string {
			var s string
			if json.Unmarshal(raw, &s) == nil {
				return s
			}
			var o struct {
				Content string `json:"content"`
			}
			_ = json.Unmarshal(raw, &o)
			return o.Content
		}
		if r, ok := m["bos_token"]; ok && bos == "" {
			bos = tok(r)
		}
		if r, ok := m["eos_token"]; ok && eos == "" {
			eos = tok(r)
		}
	}
	read("special_tokens_map.json")
	if bos == "" || eos == "" {
		read("tokenizer_config.json")
	}
	if id, ok := t.special[bos]; ok {
		t.bos = id
	}
	if id, ok := t.special[eos]; ok {
		t.eos = id
	}
}

func (t *HFTokenizer) VocabSize() int { return t.vocabSize }
func (t *HFTokenizer) BOS() int       { return t.bos }
func (t *HFTokenizer) EOS() int       { return t.eos }

// Encode implements Tokenizer.
func (t *HFTokenizer) Encode(text string, bos, eos int) ([]int, error) {
	var ids []int
	for len(text) > 0 {
		at, special := nextSpecial(t.specials, text)
		if err := t.encodeOrdinary(text[:at], &ids); err != nil {
			return nil, err
		}
		if special == "" {
			break
		}
		ids = append(ids, t.special[special])
		text = text[at+len(special):]
	}
	if t.post != nil {
		ids = t.post.apply(ids, bos > 0 || eos > 0)
	}
	return ids, nil
}

// nextSpecial finds the first of specials (longest first) in text, the longest at that place:
// its offset and text, or len(text) and "".
func nextSpecial(specials []string, text string) (int, string) {
	best, bestTok := len(text), ""
	for _, s := range specials {
		if i := strings.Index(text[:min(len(text), best+len(s))], s); i >= 0 && i < best {
			best, bestTok = i, s
		}
	}
	return best, bestTok
}

func sortedLongestFirst(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for s := range m {
		out = append(out, s)
	}
	sort.Slice(out, func(a, b int) bool {
		if len(out[a]) != len(out[b]) {
			return len(out[a]) > len(out[b])
		}
		return out[a] < out[b]
	})
	return out
}

func (t *HFTokenizer) encodeOrdinary(text string, ids *[]int) error {
	if text == "" {
		return nil
	}
	if t.norm != nil {
		var err error
		if text, err = t.norm(text); err != nil {
			return err
		}
	}
	pieces := []string{text}
	if t.pre != nil {
		var err error
		if pieces, err = t.pre(text); err != nil {
			return err
		}
	}
	for _, p := range pieces {
		if id, ok := t.vocab[p]; ok {
			*ids = append(*ids, id)
			continue
		}
		if err := t.bpe(p, ids); err != nil {
			return err
		}
	}
	return nil
}

// bpe merges one piece: its characters (byte-fallback tokens for those outside the vocabulary,
// when the model has them), then the merges, lowest rank first.
func (t *HFTokenizer) bpe(piece string, ids *[]int) error {
	if piece == "" {
		return nil
	}
	var syms []symbol
	add := func(id, start, end int) { syms = append(syms, symbol{id: id, start: start, end: end}) }
	for i := 0; i < len(piece); {
		_, n := utf8.DecodeRuneInString(piece[i:])
		ch := piece[i : i+n]
		start := i
		i += n
		if id, ok := t.vocab[ch]; ok {
			add(id, start, i)
			continue
		}
		if t.byteFallback {
			for k := 0; k < len(ch); k++ {
				if id, ok := t.vocab[fmt.Sprintf("<0x%02X>", ch[k])]; ok {
					add(id, start+k, start+k+1)
				} else if t.hasUnk {
					add(t.unk, start+k, start+k+1)
				} else {
					return fmt.Errorf("%w: byte 0x%02X has no token", ErrTokenizer, ch[k])
				}
			}
			continue
		}
		if t.hasUnk {
			add(t.unk, start, i)
			continue
		}
		return fmt.Errorf("%w: %q has no token (and the tokenizer no unknown token)", ErrTokenizer, ch)
	}
	for _, s := range mergeSymbols(syms, func(a, b symbol) (int, int, bool) {
		m, ok := t.merges[[2]int{a.id, b.id}]
		return m.rank, m.id, ok
	}) {
		*ids = append(*ids, s.id)
	}
	return nil
}

// Decode implements Tokenizer: the token's text through the decoders.
func (t *HFTokenizer) Decode(_, cur int) (string, error) {
	tok, ok := t.idToTok[cur]
	if !ok {
		return "", fmt.Errorf("%w: unknown token id %d", ErrTokenizer, cur)
	}
	pieces := []string{tok}
	for _, d := range t.decoders {
		pieces = d(pieces)
	}
	return strings.Join(pieces, ""), nil
}

// DecodeAll decodes a sequence of ids (the decoders see them together).
func (t *HFTokenizer) DecodeAll(ids []int) (string, error) {
	pieces := make([]string, 0, len(ids))
	for _, id := range ids {
		tok, ok := t.idToTok[id]
		if !ok {
			return "", fmt.Errorf("%w: unknown token id %d", ErrTokenizer, id)
		}
		pieces = append(pieces, tok)
	}
	for _, d := range t.decoders {
		pieces = d(pieces)
	}
	return strings.Join(pieces, ""), nil
}

// ---- components ----

type component struct {
	Type          string            `json:"type"`
	Pattern       *patternJSON      `json:"pattern"`
	Content       *string           `json:"content"`
	Prepend       *string           `json:"prepend"`
	Normalizers   []json.RawMessage `json:"normalizers"`
	Pretokenizers []json.RawMessage `json:"pretokenizers"`
	Decoders      []json.RawMessage `json:"decoders"`
	Processors    []json.RawMessage `json:"processors"`
	Behavior      string            `json:"behavior"`
	Invert        bool              `json:"invert"`
	AddPrefix     *bool             `json:"add_prefix_space"`
	UseRegex      *bool             `json:"use_regex"`
	Individual    bool              `json:"individual_digits"`
	Single        json.RawMessage   `json:"single"`
	SpecialTokens map[string]struct {
		IDs []int `json:"ids"`
	} `json:"special_tokens"`
}

type patternJSON struct {
	Regex  *string `json:"Regex"`
	String *string `json:"String"`
}

func parseComponent(raw json.RawMessage, what string) (*component, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var c component
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, hfErr("%s: %v", what, err)
	}
	return &c, nil
}

// compile compiles a tokenizer.json regex (Oniguruma/PCRE syntax: lookaheads, \p{L}) with a
// backtracking engine; a literal String pattern is escaped.
func compile(p *patternJSON, what string) (*regexp2.Regexp, bool, error) {
	if p == nil || (p.Regex == nil && p.String == nil) {
		return nil, false, hfErr("%s has no pattern", what)
	}
	expr, literal := "", false
	if p.Regex != nil {
		expr = *p.Regex
	} else {
		expr, literal = regexp2.Escape(*p.String), true
	}
	if expr == "" {
		return nil, literal, hfErr("%s has an empty pattern", what)
	}
	re, err := regexp2.Compile(expr)
	if err != nil {
		return nil, literal, hfErr("%s pattern %q: %v", what, expr, err)
	}
	return re, literal, nil
}

// findAll returns the byte ranges of re's matches in s.
func findAll(re *regexp2.Regexp, s string) ([][2]int, error) {
	idx, err := re.FindAllStringIndex(s, -1)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrTokenizer, err)
	}
	out := make([][2]int, 0, len(idx))
	for _, m := range idx {
		if len(m) == 2 && m[0] >= 0 && m[0] <= m[1] && m[1] <= len(s) {
			out = append(out, [2]int{m[0], m[1]})
		}
	}
	return out, nil
}

func parseNormalizer(raw json.RawMessage) (func(string) (string, error), error) {
	c, err := parseComponent(raw, "normalizer")
	if c == nil || err != nil {
		return nil, err
	}
	switch c.Type {
	case "NFC":
		return func(s string) (string, error) { return norm.NFC.String(s), nil }, nil
	case "Prepend":
		if c.Prepend == nil {
			return nil, hfErr("Prepend normalizer without prepend")
		}
		p := *c.Prepend
		return func(s string) (string, error) {
			if s == "" {
				return s, nil
			}
			return p + s, nil
		}, nil
	case "Replace":
		re, _, err := compile(c.Pattern, "Replace normalizer")
		if err != nil {
			return nil, err
		}
		if c.Content == nil {
			return nil, hfErr("Replace normalizer without content")
		}
		content := *c.Content
		return func(s string) (string, error) {
			ms, err := findAll(re, s)
			if err != nil {
				return "", err
			}
			var b strings.Builder
			last := 0
			for _, m := range ms {
				b.WriteString(s[last:m[0]])
				b.WriteString(content)
				last = m[1]
			}
			b.WriteString(s[last:])
			return b.String(), nil
		}, nil
	case "Sequence":
		if len(c.Normalizers) == 0 {
			return nil, hfErr("Sequence normalizer without normalizers")
		}
		var fs []func(string) (string, error)
		for _, r := range c.Normalizers {
			f, err := parseNormalizer(r)
			if err != nil {
				return nil, err
			}
			if f != nil {
				fs = append(fs, f)
			}
		}
		return func(s string) (string, error) {
			for _, f := range fs {
				var err error
				if s, err = f(s); err != nil {
					return "", err
				}
			}
			return s, nil
		}, nil
	}
	return nil, hfErr("normalizer type %q (the runner reads NFC, Prepend, Replace and Sequence)", c.Type)
}

// GPT-2's pre-tokenization pattern, which a ByteLevel pre-tokenizer splits with (use_regex).
const gpt2Pattern = `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`

var gpt2Regexp = regexp2.MustCompile(gpt2Pattern)

func parsePreTokenizer(raw json.RawMessage) (preTokenizer, error) {
	c, err := parseComponent(raw, "pre_tokenizer")
	if c == nil || err != nil {
		return nil, err
	}
	switch c.Type {
	case "Split":
		re, literal, err := compile(c.Pattern, "Split pre-tokenizer")
		if err != nil {
			return nil, err
		}
		behavior := c.Behavior
		if behavior == "" {
			behavior = "Removed"
		}
		if behavior != "Isolated" && behavior != "Removed" && behavior != "MergedWithPrevious" {
			return nil, hfErr("Split behavior %q (the runner reads Isolated, Removed and MergedWithPrevious)", behavior)
		}
		if literal && c.Invert {
			return nil, hfErr("Split with a String pattern and invert")
		}
		return func(s string) ([]string, error) {
			ms, err := findAll(re, s)
			if err != nil {
				return nil, err
			}
			return splitPieces(s, ms, literal, behavior), nil
		}, nil
	case "ByteLevel":
		prefix := c.AddPrefix == nil || *c.AddPrefix
		useRegex := c.UseRegex == nil || *c.UseRegex
		return func(s string) ([]string, error) {
			if prefix && s != "" && s[0] != ' ' {
				s = " " + s
			}
			if !useRegex {
				return []string{byteEncode(s)}, nil
			}
			ms, err := findAll(gpt2Regexp, s)
			if err != nil {
				return nil, err
			}
			out := make([]string, 0, len(ms))
			for _, m := range ms {
				out = append(out, byteEncode(s[m[0]:m[1]]))
			}
			return out, nil
		}, nil
	case "Digits":
		individual := c.Individual
		return func(s string) ([]string, error) { return splitDigits(s, individual), nil }, nil
	case "Sequence":
		if len(c.Pretokenizers) == 0 {
			return nil, hfErr("Sequence pre-tokenizer without pretokenizers")
		}
		var ps []preTokenizer
		for _, r := range c.Pretokenizers {
			p, err := parsePreTokenizer(r)
			if err != nil {
				return nil, err
			}
			if p != nil {
				ps = append(ps, p)
			}
		}
		return func(s string) ([]string, error) {
			pieces := []string{s}
			for _, p := range ps {
				var next []string
				for _, piece := range pieces {
					sub, err := p(piece)
					if err != nil {
						return nil, err
					}
					next = append(next, sub...)
				}
				pieces = next
			}
			return pieces, nil
		}, nil
	}
	return nil, hfErr("pre_tokenizer type %q (the runner reads Split, ByteLevel, Digits and Sequence)", c.Type)
}

// splitPieces is the runner's RegexPreTokenizer: a regex pattern keeps its matches; a literal
// delimiter splits the text around them as behavior says.
func splitPieces(s string, ms [][2]int, literal bool, behavior string) []string {
	var out []string
	if !literal {
		for _, m := range ms {
			out = append(out, s[m[0]:m[1]])
		}
		return out
	}
	if len(ms) == 0 {
		return []string{s}
	}
	last := 0
	for _, m := range ms {
		switch behavior {
		case "MergedWithPrevious":
			out = append(out, s[last:m[1]])
		case "Isolated":
			if m[0] > last {
				out = append(out, s[last:m[0]])
			}
			out = append(out, s[m[0]:m[1]])
		default: // Removed
			if m[0] > last {
				out = append(out, s[last:m[0]])
			}
		}
		last = m[1]
	}
	if last < len(s) {
		out = append(out, s[last:])
	}
	return out
}

// splitDigits isolates runs of ASCII digits (each digit alone when individual).
func splitDigits(s string, individual bool) []string {
	var out []string
	start := 0
	isDigit := func(c byte) bool { return c >= '0' && c <= '9' }
	for i := 0; i < len(s); {
		if !isDigit(s[i]) {
			i++
			continue
		}
		if i > start {
			out = append(out, s[start:i])
		}
		j := i + 1
		if !individual {
			for j < len(s) && isDigit(s[j]) {
				j++
			}
		}
		out = append(out, s[i:j])
		start, i = j, j
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

func parseDecoder(raw json.RawMessage) ([]func([]string) []string, error) {
	c, err := parseComponent(raw, "decoder")
	if c == nil || err != nil {
		return nil, err
	}
	switch c.Type {
	case "ByteLevel":
		return []func([]string) []string{func(toks []string) []string {
			var b strings.Builder
			for _, tok := range toks {
				s, _ := byteDecode(tok)
				b.WriteString(s)
			}
			return []string{b.String()}
		}}, nil
	case "Replace":
		// The runner replaces a String pattern only (a Regex one becomes a no-op).
		from, to := "", ""
		if c.Pattern != nil && c.Pattern.String != nil {
			from = *c.Pattern.String
		}
		if c.Content != nil {
			to = *c.Content
		}
		return []func([]string) []string{func(toks []string) []string {
			if from == "" {
				return toks
			}
			out := make([]string, len(toks))
			for i, tok := range toks {
				out[i] = strings.ReplaceAll(tok, from, to)
			}
			return out
		}}, nil
	case "ByteFallback":
		return []func([]string) []string{func(toks []string) []string {
			out := make([]string, len(toks))
			for i, tok := range toks {
				out[i] = tok
				if len(tok) >= 5 && strings.HasPrefix(tok, "<0x") && strings.HasSuffix(tok, ">") {
					if v, err := strconv.ParseUint(tok[3:len(tok)-1], 16, 64); err == nil && v <= 255 {
						out[i] = string([]byte{byte(v)})
					}
				}
			}
			return out
		}}, nil
	case "Fuse":
		return nil, nil // joining happens when the pieces are concatenated
	case "Sequence":
		var ds []func([]string) []string
		for _, r := range c.Decoders {
			d, err := parseDecoder(r)
			if err != nil {
				return nil, err
			}
			ds = append(ds, d...)
		}
		return ds, nil
	}
	return nil, hfErr("decoder type %q (the runner reads ByteLevel, Replace, ByteFallback, Fuse and Sequence)", c.Type)
}

func parsePostProcessor(raw json.RawMessage) (*template, error) {
	c, err := parseComponent(raw, "post_processor")
	if c == nil || err != nil {
		return nil, err
	}
	switch c.Type {
	case "ByteLevel":
		return nil, nil // changes offsets only
	case "Sequence":
		var last *template
		for _, r := range c.Processors {
			p, err := parsePostProcessor(r)
			if err != nil {
				return nil, err
			}
			if p != nil {
				if last != nil {
					return nil, hfErr("post_processor Sequence of several TemplateProcessing")
				}
				last = p
			}
		}
		return last, nil
	case "TemplateProcessing":
		var items []json.RawMessage
		if len(c.Single) > 0 {
			var s string
			if json.Unmarshal(c.Single, &s) == nil {
				for _, f := range strings.Fields(s) {
					b, _ := json.Marshal(f)
					items = append(items, b)
				}
			} else if err := json.Unmarshal(c.Single, &items); err != nil {
				return nil, hfErr("TemplateProcessing single: %v", err)
			}
		}
		t := &template{}
		for _, it := range items {
			var s string
			var o struct {
				Sequence     *struct{ ID string } `json:"Sequence"`
				SpecialToken *struct{ ID string } `json:"SpecialToken"`
			}
			id, seq := "", false
			if json.Unmarshal(it, &s) == nil {
				if strings.HasPrefix(s, "$") {
					seq = strings.HasPrefix(s, "$A") || s == "$" || strings.HasPrefix(s, "$0") || strings.HasPrefix(s, "$a")
					if !seq {
						continue // $B: no second sequence here
					}
				} else {
					id = s
				}
			} else if json.Unmarshal(it, &o) == nil {
				switch {
				case o.Sequence != nil:
					if o.Sequence.ID == "B" {
						continue
					}
					seq = true
				case o.SpecialToken != nil:
					id = o.SpecialToken.ID
				}
			}
			if seq {
				t.items = append(t.items, templateItem{})
				continue
			}
			st, ok := c.SpecialTokens[id]
			if !ok {
				continue // the runner logs and skips a special token it has no ids for
			}
			for _, x := range st.IDs {
				if x < 0 || x >= maxVocab {
					return nil, hfErr("TemplateProcessing token %q has id %d", id, x)
				}
			}
			t.items = append(t.items, templateItem{ids: append([]int{}, st.IDs...)})
		}
		return t, nil
	}
	return nil, hfErr("post_processor type %q (the runner reads TemplateProcessing, ByteLevel and Sequence)", c.Type)
}

// apply lays ids out by the template; special tokens only when add says so.
func (t *template) apply(ids []int, add bool) []int {
	out := make([]int, 0, len(ids)+2)
	for _, it := range t.items {
		if it.ids == nil {
			out = append(out, ids...)
		} else if add {
			out = append(out, it.ids...)
		}
	}
	return out
}
