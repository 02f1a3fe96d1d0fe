package main

import (
	"io"

	"github.com/etgo/etgo/llm"
)

func init() {
	commands["generate"] = command{
		summary: "generate text with an LLM program (export_llm's .pte) as ExecuTorch's LLM runner does; speeds on stderr",
		usage: "generate MODEL.pte --tokenizer T --prompt TEXT [--max-new-tokens N] [--temperature t] [--top-p p] [--top-k k]\n" +
			"                [--seed s] [--bos N] [--echo] [--ignore-eos] [--threads N] [--warmup]",
		run: runGenerate,
	}
}

// runGenerate parses the flags; package llm does the rest.
func runGenerate(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("generate", stderr)
	tok := fs.String("tokenizer", "", "tokenizer.json (or its directory) or a tiktoken file")
	prompt := fs.String("prompt", "", "the prompt")
	maxNew := fs.Int("max-new-tokens", 0, "tokens to generate at most (0: as many as the context holds)")
	temp := fs.Float64("temperature", 0.8, "0 for greedy; up to 1 (the runner's default 0.8)")
	topP := fs.Float64("top-p", llm.DefaultTopP, "nucleus sampling threshold")
	topK := fs.Int("top-k", 0, "sample among the k most likely tokens (0: off)")
	seed := fs.Uint64("seed", 0, "sampler seed (0: from the clock)")
	bos := fs.Int("bos", 0, "BOS tokens before the prompt (through the tokenizer)")
	echo := fs.Bool("echo", false, "print the prompt first")
	ignoreEOS := fs.Bool("ignore-eos", false, "keep generating past EOS")
	threads := fs.Int("threads", 1, "goroutines for XNNPACK delegates and attention")
	warmup := fs.Bool("warmup", false, "run the prompt once first, so one-time costs stay out of the speeds")
	model, err := parseFileAndFlags(fs, args)
	if err != nil {
		return err
	}
	if *tok == "" || *prompt == "" {
		return errUsage
	}
	ctx, stop := interruptible()
	defer stop()
	_, err = llm.Run(ctx, llm.RunOptions{
		Model: model, Tokenizer: *tok, Prompt: *prompt, Threads: *threads, Warmup: *warmup, Out: stdout, Log: stderr,
		Config: llm.Config{MaxNewTokens: *maxNew, Temperature: float32(*temp), TopP: float32(*topP), TopK: *topK,
			Seed: *seed, NumBOS: *bos, Echo: *echo, IgnoreEOS: *ignoreEOS},
	})
	return err
}
