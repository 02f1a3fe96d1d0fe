package llm

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/etgo/etgo"
)

// RunOptions are what `etgo generate` asks for: a model, a tokenizer, a prompt and the
// generation's settings.
type RunOptions struct {
	Model, Tokenizer string
	Prompt           string
	Config           Config
	// Threads is how many goroutines XNNPACK delegates and attention may use (default 1).
	Threads int
	// Warmup runs the prompt once (and a few tokens) before the measured generation, as the
	// runner's warmup does, so one-time costs stay out of the reported speeds.
	Warmup bool
	// Out receives the generated text as it comes (bytes that are control characters on their
	// own are left out, as the runner's safe_printf does), Log the load and speed report.
	Out, Log io.Writer
}

// Run loads the model and tokenizer, generates, streams the text to Out and reports to Log the
// load time and the prefill and decode speeds, as the runner's report does.
func Run(ctx context.Context, o RunOptions) (*Result, error) {
	if o.Out == nil {
		o.Out = io.Discard
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	threads := max(o.Threads, 1)
	start := time.Now()
	m, err := etgo.Load(o.Model, etgo.WithThreads(threads))
	if err != nil {
		return nil, err
	}
	defer m.Close()
	tok, err := LoadTokenizer(o.Tokenizer)
	if err != nil {
		return nil, err
	}
	g, err := NewGenerator(m, tok)
	if err != nil {
		return nil, err
	}
	defer g.Close()
	if err := m.LoadMethod("forward"); err != nil && m.HasMethod("forward") {
		return nil, err
	}
	load := time.Since(start)
	if o.Warmup {
		if _, err := g.Generate(ctx, o.Prompt, Config{MaxNewTokens: 4, NumBOS: o.Config.NumBOS, NumEOS: o.Config.NumEOS, IgnoreEOS: true}); err != nil {
			return nil, fmt.Errorf("warmup: %w", err)
		}
		g.Reset()
	}
	cfg := o.Config
	user := cfg.OnToken
	cfg.OnToken = func(id int, piece string) error {
		if _, err := io.WriteString(o.Out, printable(piece)); err != nil {
			return err
		}
		if user != nil {
			return user(id, piece)
		}
		return nil
	}
	res, err := g.Generate(ctx, o.Prompt, cfg)
	if res != nil && res.EOS {
		fmt.Fprintln(o.Out) // text_token_generator.h prints one on EOS
	}
	fmt.Fprintln(o.Out)
	if res != nil {
		fmt.Fprint(o.Log, Report(res.Stats, load))
	}
	return res, err
}

// printable is the runner's safe_printf: a piece of one byte that is neither printable nor
// space is not printed.
func printable(piece string) string {
	if len(piece) == 1 {
		c := piece[0]
		if !(c >= 0x20 && c < 0x7f) && !strings.ContainsRune(" \t\n\v\f\r", rune(c)) {
			return ""
		}
	}
	return piece
}

// Report renders a generation's statistics as lines of text.
func Report(s Stats, load time.Duration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "load: %.3f s\n", load.Seconds())
	fmt.Fprintf(&b, "prefill: %d tokens in %.3f s, %.1f tokens/s\n", s.PromptTokens, s.Prefill.Seconds(), s.PrefillTokensPerSecond())
	fmt.Fprintf(&b, "decode: %d tokens in %.3f s, %.1f tokens/s\n", s.GeneratedTokens, s.Decode.Seconds(), s.DecodeTokensPerSecond())
	fmt.Fprintf(&b, "model: %.3f s, sampling: %.3f s\n", s.ModelTime.Seconds(), s.SamplingTime.Seconds())
	if s.PrefillCPU > 0 || s.DecodeCPU > 0 {
		fmt.Fprintf(&b, "cpu: prefill %.3f s, decode %.3f s\n", s.PrefillCPU.Seconds(), s.DecodeCPU.Seconds())
	}
	return b.String()
}
