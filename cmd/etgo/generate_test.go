package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/etgo/etgo/internal/testutil"
)

// TestGenerate: etgo generate, greedy, prints what the official runner printed for the same
// model, tokenizer and prompt, and its speeds on stderr; bad invocations are usage errors.
func TestGenerate(t *testing.T) {
	model := testutil.Testdata(t, "llm", "llama3_2", "model.pte")
	tok := testutil.Testdata(t, "llm", "tokenizer.json")
	var want struct {
		Prompt string `json:"prompt"`
		Max    int    `json:"max_new_tokens"`
		Stdout string `json:"runner_stdout_hex"`
	}
	b, err := os.ReadFile(testutil.Testdata(t, "llm", "llama3_2", "generate.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"generate", model, "--tokenizer", tok, "--prompt", want.Prompt, "--temperature", "0",
		"--max-new-tokens", "12", "--threads", "2"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if got := hex.EncodeToString(stdout.Bytes()); got != want.Stdout {
		t.Errorf("printed %s, the runner printed %s", got, want.Stdout)
	}
	for _, s := range []string{"prefill: 12 tokens", "decode: 11 tokens", "tokens/s"} {
		if !strings.Contains(stderr.String(), s) {
			t.Errorf("stderr %q lacks %q", stderr.String(), s)
		}
	}
	for _, args := range [][]string{
		{"generate", model, "--prompt", "x"},
		{"generate", model, "--tokenizer", tok},
		{"generate", "--tokenizer", tok, "--prompt", "x"},
	} {
		if code := run(args, &stdout, &stderr); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if code := run([]string{"generate", model, "--tokenizer", tok, "--prompt", "x", "--temperature", "2"}, &stdout, &stderr); code != 1 {
		t.Errorf("temperature 2: exit %d, want 1", code)
	}
}
