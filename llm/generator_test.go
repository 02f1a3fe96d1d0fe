package llm_test

import (
	"context"
	"encoding/hex"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/etgo/etgo"
	"github.com/etgo/etgo/llm"
)

type generateFixture struct {
	Prompt       string   `json:"prompt"`
	PromptIDs    []int    `json:"prompt_ids"`
	MaxNewTokens int      `json:"max_new_tokens"`
	Greedy       []int    `json:"greedy_tokens"`
	RunnerStdout string   `json:"runner_stdout_hex"`
	PieceHex     []string `json:"piece_hex"`
	RunnerStats  struct {
		PromptTokens    int `json:"num_prompt_tokens"`
		GeneratedTokens int `json:"num_generated_tokens"`
	} `json:"runner_stats"`
}

// safePrintf is the runner's safe_printf: a one-byte piece that is neither printable nor space
// is not printed.
func safePrintf(p string) string {
	if len(p) == 1 && !(p[0] >= 0x20 && p[0] < 0x7f || strings.IndexByte(" \t\n\v\f\r", p[0]) >= 0) {
		return ""
	}
	return p
}

func load(t *testing.T, name string, opts ...etgo.Option) (*etgo.Module, llm.Tokenizer) {
	t.Helper()
	m, err := etgo.Load(fixture(t, name, "model.pte"), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	tok, err := llm.LoadTokenizer(fixture(t, "tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	return m, tok
}

// TestGreedyGeneration: the Generator, greedy, gives the official runner's tokens and text on
// every fixture model: the prompt's ids, each generated token (the official runtime's argmax at
// each step), what the runner printed, and its token counts.
func TestGreedyGeneration(t *testing.T) {
	for _, name := range fixtureModels {
		t.Run(name, func(t *testing.T) {
			m, tok := load(t, name)
			var want generateFixture
			readJSON(t, fixture(t, name, "generate.json"), &want)
			g, err := llm.NewGenerator(m, tok)
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			var printed strings.Builder
			var streamed []int
			res, err := g.Generate(context.Background(), want.Prompt, llm.Config{
				MaxNewTokens: want.MaxNewTokens,
				OnToken: func(id int, piece string) error {
					streamed = append(streamed, id)
					printed.WriteString(safePrintf(piece))
					return nil
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.PromptTokens, want.PromptIDs) {
				t.Errorf("prompt ids %v, want %v", res.PromptTokens, want.PromptIDs)
			}
			if !slices.Equal(res.Tokens, want.Greedy) || !slices.Equal(streamed, want.Greedy) {
				t.Errorf("tokens %v (streamed %v), want %v", res.Tokens, streamed, want.Greedy)
			}
			if res.EOS {
				printed.WriteString("\n") // the runner's newline on EOS
			}
			if got := hex.EncodeToString([]byte(printed.String() + "\n")); got != want.RunnerStdout {
				t.Errorf("printed %s, the runner printed %s", got, want.RunnerStdout)
			}
			for i, id := range res.Tokens {
				p, _ := tok.Decode(id, id)
				if i < len(want.PieceHex) && hex.EncodeToString([]byte(p)) != want.PieceHex[i] {
					t.Errorf("token %d piece %x, want %s", id, p, want.PieceHex[i])
				}
			}
			if res.Stats.PromptTokens != want.RunnerStats.PromptTokens || res.Stats.GeneratedTokens != want.RunnerStats.GeneratedTokens {
				t.Errorf("stats %+v, the runner counted %+v", res.Stats, want.RunnerStats)
			}
			if g.Pos() != len(want.PromptIDs)+want.RunnerStats.GeneratedTokens {
				t.Errorf("position %d after generating", g.Pos())
			}
			if res.Stats.PrefillTokensPerSecond() <= 0 || res.Stats.DecodeTokensPerSecond() <= 0 {
				t.Errorf("rates %v %v", res.Stats.PrefillTokensPerSecond(), res.Stats.DecodeTokensPerSecond())
			}
		})
	}
}

// TestGeneratorMetadata reads export_llm's metadata methods, the tokenizer's BOS and vocabulary.
func TestGeneratorMetadata(t *testing.T) {
	m, tok := load(t, "llama3_2")
	md, err := llm.ReadMetadata(m, tok)
	if err != nil {
		t.Fatal(err)
	}
	want := llm.Metadata{MaxSeqLen: 32, MaxContextLen: 32, VocabSize: 320, ModelVocabSize: 320, BOS: 0, EOS: []int{1},
		UseKVCache: true, UseSDPAWithKVCache: true, EnableDynamicShape: true}
	if md.MaxSeqLen != want.MaxSeqLen || md.MaxContextLen != want.MaxContextLen || md.VocabSize != want.VocabSize ||
		md.ModelVocabSize != want.ModelVocabSize || !slices.Equal(md.EOS, want.EOS) || md.UseKVCache != want.UseKVCache ||
		md.UseSDPAWithKVCache != want.UseSDPAWithKVCache || md.EnableDynamicShape != want.EnableDynamicShape {
		t.Errorf("metadata %+v, want %+v", md, want)
	}
	nosdpa, _ := load(t, "llama3_2_nosdpa")
	if md, err := llm.ReadMetadata(nosdpa, tok); err != nil || md.UseSDPAWithKVCache {
		t.Errorf("nosdpa metadata %+v %v", md, err)
	}
	// A program without the metadata methods is not one the runner drives.
	zoo, err := etgo.Load("../testdata/zoo/mlp/xnnpack.pte")
	if err != nil {
		t.Fatal(err)
	}
	defer zoo.Close()
	if _, err := llm.NewGenerator(zoo, tok); !errors.Is(err, llm.ErrModel) {
		t.Errorf("NewGenerator on an MLP: %v", err)
	}
}

// TestGenerateBounds: the context, temperatures, stop conditions, cancellation.
func TestGenerateBounds(t *testing.T) {
	m, tok := load(t, "llama3_2")
	var want generateFixture
	readJSON(t, fixture(t, "llama3_2", "generate.json"), &want)
	newGen := func() *llm.Generator {
		g, err := llm.NewGenerator(m, tok)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { g.Close() })
		return g
	}
	ctx := context.Background()
	g := newGen()
	long := strings.Repeat("Once upon a time ", 4) // 48 tokens, past the 32 of the context
	if _, err := g.Generate(ctx, long, llm.Config{}); !errors.Is(err, llm.ErrContextFull) {
		t.Errorf("a prompt past the context: %v", err)
	}
	for _, temp := range []float32{-0.1, 1.5} {
		if _, err := g.Generate(ctx, want.Prompt, llm.Config{Temperature: temp}); !errors.Is(err, llm.ErrConfig) {
			t.Errorf("temperature %v: %v", temp, err)
		}
	}
	if _, err := g.Generate(ctx, "", llm.Config{}); !errors.Is(err, llm.ErrConfig) {
		t.Errorf("an empty prompt without Prefill: %v", err)
	}
	// Without MaxNewTokens the context is the bound: 32 positions, 12 taken by the prompt.
	res, err := g.Generate(ctx, want.Prompt, llm.Config{IgnoreEOS: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tokens) != 32-len(want.PromptIDs) || g.Pos() != 31 {
		t.Errorf("%d tokens, position %d", len(res.Tokens), g.Pos())
	}
	if !slices.Equal(res.Tokens[:len(want.Greedy)], want.Greedy) {
		t.Errorf("tokens %v", res.Tokens)
	}
	// The cache is full: the next prompt does not fit until Reset.
	if _, err := g.Generate(ctx, "a", llm.Config{}); !errors.Is(err, llm.ErrContextFull) {
		t.Errorf("a full context: %v", err)
	}
	g.Reset()
	res, err = g.Generate(ctx, want.Prompt, llm.Config{MaxNewTokens: 4, StopTokens: []int{want.Greedy[2]}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Tokens, want.Greedy[:3]) {
		t.Errorf("a stop token: %v, want %v", res.Tokens, want.Greedy[:3])
	}
	// ErrStop from the callback ends cleanly; another error aborts; a cancelled context too.
	g.Reset()
	n := 0
	res, err = g.Generate(ctx, want.Prompt, llm.Config{OnToken: func(int, string) error {
		if n++; n == 2 {
			return llm.ErrStop
		}
		return nil
	}})
	if err != nil || len(res.Tokens) != 2 {
		t.Errorf("ErrStop: %d tokens, %v", len(res.Tokens), err)
	}
	g.Reset()
	boom := errors.New("boom")
	if _, err := g.Generate(ctx, want.Prompt, llm.Config{OnToken: func(int, string) error { return boom }}); !errors.Is(err, boom) {
		t.Errorf("a failing callback: %v", err)
	}
	g.Reset()
	cctx, cancel := context.WithCancel(ctx)
	res, err = g.Generate(cctx, want.Prompt, llm.Config{OnToken: func(int, string) error {
		cancel()
		return nil
	}})
	if !errors.Is(err, context.Canceled) || len(res.Tokens) != 1 {
		t.Errorf("cancelled: %d tokens, %v", len(res.Tokens), err)
	}
	// Prefill then an empty prompt continues from the prefilled text, as one Generate would.
	g.Reset()
	next, err := g.Prefill(ctx, want.Prompt, 0, 0)
	if err != nil || next != want.Greedy[0] {
		t.Fatalf("Prefill: %d, %v", next, err)
	}
	res, err = g.Generate(ctx, "", llm.Config{MaxNewTokens: 5})
	if err != nil || !slices.Equal(res.Tokens, want.Greedy[:5]) {
		t.Errorf("after Prefill: %v, %v", res.Tokens, err)
	}
}

// TestSampledGeneration: a seed fixes the sampled tokens; sampling stays in the vocabulary.
func TestSampledGeneration(t *testing.T) {
	m, tok := load(t, "qwen3")
	run := func(seed uint64) []int {
		g, err := llm.NewGenerator(m, tok)
		if err != nil {
			t.Fatal(err)
		}
		defer g.Close()
		res, err := g.Generate(context.Background(), "Once upon a time", llm.Config{MaxNewTokens: 10, Temperature: 0.9, Seed: seed, IgnoreEOS: true})
		if err != nil {
			t.Fatal(err)
		}
		return res.Tokens
	}
	a, b, c := run(42), run(42), run(7)
	if !slices.Equal(a, b) {
		t.Errorf("seed 42 gave %v then %v", a, b)
	}
	if slices.Equal(a, c) {
		t.Errorf("seeds 42 and 7 both gave %v", a)
	}
	for _, id := range a {
		if id < 0 || id >= 320 {
			t.Errorf("token %d", id)
		}
	}
}
