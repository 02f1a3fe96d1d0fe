package llm

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Tokenizer turns text into token ids and ids back into text, as the tokenizers ExecuTorch's LLM
// runner loads do (pytorch/tokenizers: HFTokenizer, Tiktoken).
type Tokenizer interface {
	// Encode returns the ids of text. bos and eos ask for the BOS and EOS tokens around it: the
	// tiktoken tokenizer adds that many, a Hugging Face one adds its post-processor's special
	// tokens when either is positive (and nothing without a post-processor), as the runner's do.
	Encode(text string, bos, eos int) ([]int, error)
	// Decode returns the bytes token cur stands for, following prev (the runner streams each
	// generated token this way). The bytes may hold part of a UTF-8 character.
	Decode(prev, cur int) (string, error)
	// VocabSize is the number of ids, regular and special.
	VocabSize() int
	// BOS and EOS are the begin- and end-of-text ids.
	BOS() int
	EOS() int
}

// ErrTokenizer is wrapped by every tokenizer load, encode and decode failure.
var ErrTokenizer = errors.New("llm: tokenizer")

// maxTokenizerFile bounds what LoadTokenizer reads: real vocabularies (Llama 3's 128K tiktoken
// file, a 150K-entry tokenizer.json) are a few MB to tens of MB.
const maxTokenizerFile = 256 << 20

// LoadTokenizer opens a tokenizer the way the runner's load_tokenizer does: Mistral's tekken.json
// (a file whose name ends so), a Hugging Face tokenizer.json (or a directory holding one, whose tokenizer_config.json and
// special_tokens_map.json then name BOS and EOS), else a tiktoken BPE file (base64 token, rank
// per line, with Llama 3's special tokens and pattern), else a SentencePiece model (BPE or
// unigram, with its normalization table), else a llama2c tokenizer.bin.
func LoadTokenizer(path string) (Tokenizer, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrTokenizer, err)
	}
	dir := ""
	file := path
	if st.IsDir() {
		dir, file = path, filepath.Join(path, "tokenizer.json")
	}
	data, err := readBounded(file)
	if err != nil {
		return nil, err
	}
	if isTekkenPath(file) {
		// The runner tries tekken first for such a name and falls through to the other
		// formats when it does not load.
		if t, err := ParseTekken(data); err == nil {
			return t, nil
		}
	}
	if t, herr := ParseHFTokenizer(data); herr == nil {
		if dir != "" {
			t.configSpecials(dir)
		}
		return t, nil
	} else if strings.HasPrefix(strings.TrimSpace(string(data)), "{") {
		return nil, herr // JSON, but not a tokenizer the runner reads: say why
	}
	t, terr := ParseTiktoken(data)
	if terr == nil {
		return t, nil
	}
	sp, serr := ParseSentencePiece(data)
	if serr == nil {
		return sp, nil
	}
	l, lerr := ParseLlama2c(data)
	if lerr == nil {
		return l, nil
	}
	return nil, fmt.Errorf("%w: %s is neither a Hugging Face tokenizer.json, a tiktoken file (%v), a SentencePiece model (%v) nor a llama2c tokenizer.bin (%v)",
		ErrTokenizer, path, terr, serr, lerr)
}

func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrTokenizer, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrTokenizer, err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%w: %s is not a regular file", ErrTokenizer, path)
	}
	if st.Size() > maxTokenizerFile {
		return nil, fmt.Errorf("%w: %s is %d bytes, over the %d a tokenizer may have", ErrTokenizer, path, st.Size(), maxTokenizerFile)
	}
	data := make([]byte, st.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrTokenizer, path, err)
	}
	return data, nil
}
