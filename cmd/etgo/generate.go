package main

import (
	"os"
	"runtime/pprof"

	"github.com/spf13/cobra"

	"github.com/etgo/etgo/llm"
)

func (a *app) generateCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "generate MODEL.pte",
		Short: "generate text with an LLM program (export_llm's .pte) as ExecuTorch's LLM runner does; speeds on stderr",
		Long: `Prefill the prompt and decode token by token as ExecuTorch's TextLLMRunner does, with the
program's metadata methods (get_max_seq_len, get_eos_ids, …) and the tokenizer formats the
runner reads (tokenizer.json, tiktoken, SentencePiece, llama2c tokenizer.bin). The text streams
to stdout; prefill and decode speeds go to stderr.`,
		Example:           `  etgo generate testdata/llm/llama3_2/model.pte --tokenizer testdata/llm/tokenizer.json --prompt "Once upon" --temperature 0`,
		Args:              fileArgs("MODEL.pte"),
		ValidArgsFunction: completeFiles("pte"),
	}
	fs := c.Flags()
	tok := fs.String("tokenizer", "", "the `TOKENIZER`: tokenizer.json (or its directory), a tiktoken, SentencePiece or tokenizer.bin file")
	prompt := fs.String("prompt", "", "the prompt `TEXT`")
	maxNew := fs.Int("max-new-tokens", 0, "generate at most `N` tokens (0: as many as the context holds)")
	temp := fs.Float64("temperature", 0.8, "`t`: 0 for greedy, up to 1 (the runner's default 0.8)")
	topP := fs.Float64("top-p", llm.DefaultTopP, "nucleus sampling threshold `p`")
	topK := fs.Int("top-k", 0, "sample among the `k` most likely tokens (0: off)")
	seed := fs.Uint64("seed", 0, "sampler seed `s` (0: from the clock)")
	bos := fs.Int("bos", 0, "`N` BOS tokens before the prompt (through the tokenizer)")
	echo := fs.Bool("echo", false, "print the prompt first")
	ignoreEOS := fs.Bool("ignore-eos", false, "keep generating past EOS")
	threads := fs.Int("threads", 1, "`N` goroutines for XNNPACK delegates and attention (at least 1)")
	warmup := fs.Bool("warmup", false, "run the prompt once first, so one-time costs stay out of the speeds")
	cpuProfile := fs.String("cpuprofile", "", "write a Go CPU profile of the whole run (load, prefill, decode) to `FILE` (go tool pprof)")
	_ = c.MarkFlagFilename("tokenizer")
	return a.command(c, func(_ *cobra.Command, args []string) error {
		switch {
		case *tok == "":
			return usageErrorf("give --tokenizer")
		case *prompt == "":
			return usageErrorf("give --prompt")
		}
		if err := atLeast("threads", *threads, 1); err != nil {
			return err
		}
		if err := atLeast("max-new-tokens", *maxNew, 0); err != nil {
			return err
		}
		if err := checkOutputs([]string{args[0], *tok}, output{"--cpuprofile " + *cpuProfile, *cpuProfile}); err != nil {
			return err
		}
		if *cpuProfile != "" {
			f, err := os.Create(*cpuProfile)
			if err != nil {
				return err
			}
			defer f.Close()
			if err := pprof.StartCPUProfile(f); err != nil {
				return err
			}
			defer pprof.StopCPUProfile()
		}
		ctx, stop := interruptible()
		defer stop()
		_, err := llm.Run(ctx, llm.RunOptions{
			Model: args[0], Tokenizer: *tok, Prompt: *prompt, Threads: *threads, Warmup: *warmup, Out: a.stdout, Log: a.stderr,
			Config: llm.Config{MaxNewTokens: *maxNew, Temperature: float32(*temp), TopP: float32(*topP), TopK: *topK,
				Seed: *seed, NumBOS: *bos, Echo: *echo, IgnoreEOS: *ignoreEOS},
		})
		return err
	})
}
