package llm_test

import (
	"encoding/hex"
	"errors"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/etgo/etgo/llm"
)

type tokCases struct {
	VocabSize int `json:"vocab_size"`
	BOS       int `json:"bos"`
	EOS       int `json:"eos"`
	Cases     []struct {
		Text      string    `json:"text"`
		IDs       []int     `json:"ids"`
		IDsBOS    []int     `json:"ids_bos"`
		IDsBOSEOS []int     `json:"ids_bos_eos"`
		Pieces    []*string `json:"pieces"`
		Raw       []*string `json:"pieces_after_bos"`
		First     []*string `json:"pieces_first"`
		Decoded   string    `json:"decoded"`
		PieceHex  []string  `json:"piece_hex"`
	} `json:"cases"`
}

// TestTokenizers holds each tokenizer form the runner reads to the official C++ tokenizers
// (pytorch_tokenizers) on the same strings: ids with and without BOS/EOS, each token's piece, and
// the decoding of the whole sequence; and vocabulary size, BOS and EOS.
func TestTokenizers(t *testing.T) {
	for _, c := range []struct{ file, cases string }{
		{"tokenizer.json", "tokenizer_cases.json"},
		{"tokenizers/llama3_style.json", "tokenizers/llama3_style_cases.json"},
		{"tokenizers/tokenizer.tiktoken", "tokenizers/tiktoken_cases.json"},
		{"tokenizers/llama2c.bin", "tokenizers/llama2c_cases.json"},
		{"tokenizers/sentencepiece.model", "tokenizers/sentencepiece_cases.json"},
		{"tokenizers/unigram_nfkc.model", "tokenizers/unigram_nfkc_cases.json"},
		{"tokenizers/unigram_bytes.model", "tokenizers/unigram_bytes_cases.json"},
		{"tokenizers/tekken.json", "tokenizers/tekken_cases.json"},
	} {
		t.Run(c.file, func(t *testing.T) {
			tok, err := llm.LoadTokenizer(fixture(t, c.file))
			if err != nil {
				t.Fatal(err)
			}
			var want tokCases
			readJSON(t, fixture(t, c.cases), &want)
			if tok.VocabSize() != want.VocabSize || tok.BOS() != want.BOS || tok.EOS() != want.EOS {
				t.Errorf("vocab %d bos %d eos %d, want %d %d %d", tok.VocabSize(), tok.BOS(), tok.EOS(), want.VocabSize, want.BOS, want.EOS)
			}
			for _, tc := range want.Cases {
				check := func(bos, eos int, want []int) {
					if want == nil {
						return
					}
					got, err := tok.Encode(tc.Text, bos, eos)
					if err != nil {
						t.Errorf("%q: %v", tc.Text, err)
						return
					}
					if !slices.Equal(got, want) {
						t.Errorf("Encode(%q, %d, %d) = %v, want %v", tc.Text, bos, eos, got, want)
					}
				}
				check(0, 0, tc.IDs)
				check(1, 0, tc.IDsBOS)
				check(1, 1, tc.IDsBOSEOS)
				var all strings.Builder
				for k, id := range tc.IDs {
					p, err := tok.Decode(id, id)
					if err != nil {
						t.Fatal(err)
					}
					all.WriteString(p)
					if k < len(tc.Pieces) && tc.Pieces[k] != nil && p != *tc.Pieces[k] {
						t.Errorf("%q token %d (%d): piece %q, want %q", tc.Text, k, id, p, *tc.Pieces[k])
					}
				}
				for k, h := range tc.PieceHex {
					if k >= len(tc.IDs) {
						break
					}
					if p, _ := tok.Decode(-1, tc.IDs[k]); hex.EncodeToString([]byte(p)) != h {
						t.Errorf("%q token %d (%d): bytes %x, want %s", tc.Text, k, tc.IDs[k], p, h)
					}
				}
				for k, id := range tc.IDs {
					// The binding's decode(token) gives a token's text with its space (not
					// after BOS).
					if k < len(tc.First) && tc.First[k] != nil {
						if p, _ := tok.Decode(-1, id); p != *tc.First[k] {
							t.Errorf("%q token %d (%d): %q, want %q", tc.Text, k, id, p, *tc.First[k])
						}
					}
					if k < len(tc.Raw) && tc.Raw[k] != nil {
						if p, _ := tok.Decode(-1, id); p != *tc.Raw[k] {
							t.Errorf("%q token %d (%d): %q, want %q", tc.Text, k, id, p, *tc.Raw[k])
						}
					}
				}
				if tc.Decoded != "" && all.String() != tc.Decoded {
					t.Errorf("%q decodes to %q, want %q", tc.Text, all.String(), tc.Decoded)
				}
			}
		})
	}
}

// TestTokenizerRefusals: files that are not tokenizers, and tokenizer.json components the runner
// does not read, fail at load with ErrTokenizer, naming the problem.
func TestTokenizerRefusals(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]string{
		"not json or tiktoken": "hello world\n",
		"unigram model":        `{"model": {"type": "Unigram", "vocab": []}}`,
		"metaspace":            `{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}, "pre_tokenizer": {"type": "Metaspace"}}`,
		"bad regex":            `{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}, "pre_tokenizer": {"type": "Split", "pattern": {"Regex": "("}}}`,
		"negative id":          `{"model": {"type": "BPE", "vocab": {"a": -4}, "merges": []}}`,
		"huge id":              `{"model": {"type": "BPE", "vocab": {"a": 99999999999}, "merges": []}}`,
		"tiktoken bad base64":  "!!!! 0\n",
		"tiktoken no rank":     "YQ==\n",
		"llama2c truncated":    "\x90\x01\x00\x00\x01\x00\x00\x00\x02\x00\x00\x00\x05\x00\x00\x00\x00\x00\x00\x00\xff\xff\xff\x7f",
	}
	for name, body := range cases {
		t.Run(name, func(t *testing.T) {
			p := dir + "/" + strings.ReplaceAll(name, " ", "_")
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := llm.LoadTokenizer(p); err == nil || !strings.Contains(err.Error(), "tokenizer") {
				t.Errorf("LoadTokenizer: %v", err)
			}
		})
	}
	tok, err := llm.LoadTokenizer(fixture(t, "tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []int{-1, 320, math.MaxInt32} {
		if _, err := tok.Decode(0, id); err == nil {
			t.Errorf("Decode(%d) did not fail", id)
		}
	}
}

// FuzzEncode: any text encodes without panicking, and decodes back to itself when the tokenizer
// can represent every byte (the byte-level fixture can).
func FuzzEncode(f *testing.F) {
	for _, s := range []string{"", "Once upon a time", "東京🙂", "\xff\xfe", "<|begin_of_text|>x<|end", "a\n\n \t b"} {
		f.Add(s)
	}
	toks := map[string]llm.Tokenizer{}
	for _, name := range []string{"tokenizer.json", "tokenizers/llama3_style.json", "tokenizers/tokenizer.tiktoken", "tokenizers/llama2c.bin", "tokenizers/sentencepiece.model",
		"tokenizers/unigram_nfkc.model", "tokenizers/unigram_bytes.model", "tokenizers/tekken.json"} {
		tok, err := llm.LoadTokenizer("../testdata/llm/" + name)
		if err != nil {
			f.Fatal(err)
		}
		toks[name] = tok
	}
	f.Fuzz(func(t *testing.T, s string) {
		for name, tok := range toks {
			ids, err := tok.Encode(s, 1, 1)
			if err != nil {
				continue
			}
			if name != "tokenizer.json" {
				continue
			}
			var b strings.Builder
			for _, id := range ids {
				p, err := tok.Decode(id, id)
				if err != nil {
					t.Fatalf("%s: decode %d: %v", name, id, err)
				}
				b.WriteString(p)
			}
			if b.String() != s {
				t.Fatalf("%s: %q round-trips to %q", name, s, b.String())
			}
		}
	})
}

// FuzzParseTokenizer: any bytes given to the SentencePiece and tekken readers load or fail with
// ErrTokenizer, never panic, and what loads encodes a few texts without panicking. The seeds are
// the committed models (the unigram one with its NFKC table among them).
func FuzzParseTokenizer(f *testing.F) {
	for _, name := range []string{"tokenizers/sentencepiece.model", "tokenizers/unigram_bytes.model",
		"tokenizers/unigram_nfkc.model", "tokenizers/tekken.json"} {
		b, err := os.ReadFile("../testdata/llm/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"config": {"pattern": "\\s+(?!\\S)|\\S+", "num_vocab_tokens": 1, "default_vocab_size": 3, "default_num_special_tokens": 2, "version": "v7"}, "vocab": [{"rank": 0, "token_bytes": "YQ=="}], "special_tokens": [{"rank": 0, "token_str": "<s>"}, {"rank": 1, "token_str": "</s>"}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var toks []llm.Tokenizer
		if sp, err := llm.ParseSentencePiece(b); err == nil {
			toks = append(toks, sp)
		} else if !errors.Is(err, llm.ErrTokenizer) {
			t.Fatalf("sentencepiece: %v is not ErrTokenizer", err)
		}
		if tk, err := llm.ParseTekken(b); err == nil {
			toks = append(toks, tk)
		} else if !errors.Is(err, llm.ErrTokenizer) {
			t.Fatalf("tekken: %v is not ErrTokenizer", err)
		}
		for _, tok := range toks {
			for _, s := range []string{"", "Once upon a time", "  Ｃａｆé \xff<s>x</s>"} {
				ids, err := tok.Encode(s, 1, 1)
				if err != nil {
					continue
				}
				for _, id := range ids {
					_, _ = tok.Decode(id, id)
				}
			}
		}
	})
}
