package llm_test

import (
	"context"
	"os"
	"testing"

	"github.com/etgo/etgo"
	"github.com/etgo/etgo/llm"
)

// BenchmarkDecode times one decode step of a realistic model (ETGO_LLM_BENCH=path/model.pte,
// e.g. the stories110M-sized export of generate_llm_fixtures.py --bench; skipped without it).
// ETGO_LLM_THREADS sets the threads.
func BenchmarkDecode(b *testing.B) {
	path := os.Getenv("ETGO_LLM_BENCH")
	if path == "" {
		b.Skip("ETGO_LLM_BENCH is not set")
	}
	threads := 1
	if os.Getenv("ETGO_LLM_THREADS") == "2" {
		threads = 2
	}
	m, err := etgo.Load(path, etgo.WithThreads(threads))
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	tok, err := llm.LoadTokenizer("../testdata/llm/tokenizer.json")
	if err != nil {
		b.Fatal(err)
	}
	g, err := llm.NewGenerator(m, tok)
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if g.Pos() > g.Metadata().MaxContextLen-20 || i == 0 {
			b.StopTimer()
			g.Reset()
			if _, err := g.Prefill(ctx, "Once upon a time", 0, 0); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		if _, err := g.Generate(ctx, "", llm.Config{MaxNewTokens: 2, IgnoreEOS: true}); err != nil {
			b.Fatal(err)
		}
		if _, err := g.Prefill(ctx, "a", 0, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPrefill times a prefill of 52 tokens (see BenchmarkDecode).
func BenchmarkPrefill(b *testing.B) {
	path := os.Getenv("ETGO_LLM_BENCH")
	if path == "" {
		b.Skip("ETGO_LLM_BENCH is not set")
	}
	threads := 1
	if os.Getenv("ETGO_LLM_THREADS") == "2" {
		threads = 2
	}
	m, err := etgo.Load(path, etgo.WithThreads(threads))
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	tok, err := llm.LoadTokenizer("../testdata/llm/tokenizer.json")
	if err != nil {
		b.Fatal(err)
	}
	g, err := llm.NewGenerator(m, tok)
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	prompt := "Once upon a time there was a little robot who lived in a small town. The robot liked to read books"
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g.Reset()
		if _, err := g.Prefill(ctx, prompt, 0, 0); err != nil {
			b.Fatal(err)
		}
	}
}
