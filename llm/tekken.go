package llm

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/dlclark/regexp2/v2"
)

// TekkenTokenizer is Mistral's tekken.json (Mistral NeMo, Ministral, Devstral) read as the
// runner's Tekken does (pytorch/tokenizers tekken.cpp, which follows mistral-common): a tiktoken
// vocabulary of base64 byte strings whose rank is their index, cut to default_vocab_size less
// the special tokens, every id offset by default_num_special_tokens; the special tokens take ids
// 0 to default_num_special_tokens-1 (the file's list, the rest filled as <SPECIAL_i>), <s> is BOS
// and </s> EOS. Encoding splits the text at any special token's string (which encodes as that
// token, as the runner's does; mistral-common's encode reads it as text), then the config's
// pattern, then byte-pair merges by rank. Decoding gives each token's bytes, a special token's
// string included. Safe for concurrent use.
type TekkenTokenizer struct {
	*TiktokenTokenizer
	// Version is the file's config.version ("v3", "v7", ...).
	Version string
}

type tekkenFile struct {
	Config *struct {
		Pattern                 *string `json:"pattern"`
		NumVocabTokens          *int64  `json:"num_vocab_tokens"`
		DefaultVocabSize        *int64  `json:"default_vocab_size"`
		DefaultNumSpecialTokens *int64  `json:"default_num_special_tokens"`
		Version                 *string `json:"version"`
	} `json:"config"`
	Vocab []struct {
		Rank       *int64  `json:"rank"`
		TokenBytes *string `json:"token_bytes"`
	} `json:"vocab"`
	SpecialTokens []struct {
		Rank     *int64  `json:"rank"`
		TokenStr *string `json:"token_str"`
	} `json:"special_tokens"`
}

// tekkenDefaultSpecials are the runner's special tokens for a file without a list (tekken.cpp
// _get_default_special_tokens: the older tekken versions), in rank order.
var tekkenDefaultSpecials = []string{"<unk>", "<s>", "</s>", "[INST]", "[/INST]", "[AVAILABLE_TOOLS]",
	"[/AVAILABLE_TOOLS]", "[TOOL_RESULTS]", "[/TOOL_RESULTS]", "[TOOL_CALLS]", "[IMG]", "<pad>", "[IMG_BREAK]",
	"[IMG_END]", "[PREFIX]", "[MIDDLE]", "[SUFFIX]", "[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]", "[TOOL_CONTENT]"}

// ParseTekken reads a tekken.json. What the runner would read wrongly or not at all is refused:
// a missing config field, a rank that is not its index, default_vocab_size below the special
// tokens or above what the file holds, a special token's rank outside the special range or
// repeated, no <s> or </s>.
func ParseTekken(data []byte) (*TekkenTokenizer, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: tekken: %s", ErrTokenizer, fmt.Sprintf(format, a...))
	}
	var f tekkenFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, bad("%v", err)
	}
	c := f.Config
	if c == nil || c.Pattern == nil || c.NumVocabTokens == nil || c.DefaultVocabSize == nil ||
		c.DefaultNumSpecialTokens == nil || c.Version == nil {
		return nil, bad("config needs pattern, num_vocab_tokens, default_vocab_size, default_num_special_tokens and version")
	}
	nSpecial := *c.DefaultNumSpecialTokens
	if nSpecial < 0 || nSpecial > maxVocab {
		return nil, bad("default_num_special_tokens %d outside [0, %d]", nSpecial, maxVocab)
	}
	if *c.DefaultVocabSize < nSpecial || *c.DefaultVocabSize-nSpecial > int64(len(f.Vocab)) || *c.DefaultVocabSize > maxVocab {
		return nil, bad("default_vocab_size %d does not cover the %d special tokens with at most the %d vocabulary entries",
			*c.DefaultVocabSize, nSpecial, len(f.Vocab))
	}
	t := &TiktokenTokenizer{ranks: map[string]int{}, byID: map[int]string{}, special: map[string]int{}}
	n := int(*c.DefaultVocabSize - nSpecial)
	for i, v := range f.Vocab[:n] {
		if v.Rank == nil || v.TokenBytes == nil {
			return nil, bad("vocab entry %d has no rank or token_bytes", i)
		}
		if *v.Rank != int64(i) {
			return nil, bad("vocab entry %d has rank %d", i, *v.Rank)
		}
		b, err := base64.StdEncoding.DecodeString(*v.TokenBytes)
		if err != nil {
			return nil, bad("vocab entry %d: %v", i, err)
		}
		id := i + int(nSpecial)
		// A repeated byte string keeps its last id for encoding, as the runner's token map
		// (built from the pairs in order) does; decoding keeps every id.
		t.ranks[string(b)] = id
		t.byID[id] = string(b)
	}
	specials := make([]string, nSpecial)
	if f.SpecialTokens != nil {
		for i, s := range f.SpecialTokens {
			if s.Rank == nil || s.TokenStr == nil {
				return nil, bad("special token %d has no rank or token_str", i)
			}
			if *s.Rank < 0 || *s.Rank >= nSpecial || specials[*s.Rank] != "" {
				return nil, bad("special token %q has rank %d, outside [0, %d) or taken", *s.TokenStr, *s.Rank, nSpecial)
			}
			specials[*s.Rank] = *s.TokenStr
		}
	} else {
		copy(specials, tekkenDefaultSpecials)
	}
	for i := range specials {
		if specials[i] == "" {
			specials[i] = fmt.Sprintf("<SPECIAL_%d>", i)
		}
		if _, dup := t.special[specials[i]]; dup {
			return nil, bad("special token %q repeated", specials[i])
		}
		t.special[specials[i]] = i
		t.byID[i] = specials[i]
	}
	bos, okB := t.special["<s>"]
	eos, okE := t.special["</s>"]
	if !okB || !okE {
		return nil, bad("no <s> or </s> among the special tokens")
	}
	t.bos, t.eos = bos, eos
	t.specials = sortedLongestFirst(t.special)
	if *c.Pattern == "" {
		return nil, bad("empty pattern")
	}
	// RE2 first, as the runner's create_regex; a pattern RE2 refuses (tekken's \s+(?!\S)) goes to
	// a backtracking engine, as the runner's PCRE2 fallback (Unicode classes in both).
	if re, err := regexp.Compile(*c.Pattern); err == nil {
		t.re = re
	} else if re2, err := regexp2.Compile(*c.Pattern); err == nil {
		t.re2 = re2
	} else {
		return nil, bad("pattern %q: %v", *c.Pattern, err)
	}
	return &TekkenTokenizer{TiktokenTokenizer: t, Version: *c.Version}, nil
}

// isTekkenPath is the runner's test before it tries a file as tekken (llm_runner_helper.cpp):
// the name ends in "tekken.json", so a Hugging Face tokenizer.json is never read as one.
func isTekkenPath(path string) bool { return strings.HasSuffix(path, "tekken.json") }
