// Package llm runs the decoder programs ExecuTorch's export_llm flow writes, as its LLM runner
// (extension/llm/runner) does: a Generator reads the program's metadata methods
// (get_max_seq_len, get_eos_ids, use_kv_cache, ...), prefills the prompt, then decodes one token
// per forward call, its KV cache kept in an etgo.Session; a Sampler picks tokens exactly as the
// runner's (greedy, temperature, top-p, top-k, seeded xorshift); tokenizers read the files the
// runner reads (a Hugging Face tokenizer.json, a tiktoken file, Mistral's tekken.json, a
// SentencePiece BPE or unigram model, a llama2c tokenizer.bin).
//
//	m, _ := etgo.Load("model.pte", etgo.WithThreads(2))
//	tok, _ := llm.LoadTokenizer("tokenizer.json")
//	g, _ := llm.NewGenerator(m, tok)
//	res, _ := g.Generate(ctx, "Once upon a time", llm.Config{MaxNewTokens: 64,
//		OnToken: func(id int, piece string) error { fmt.Print(piece); return nil }})
//	fmt.Println(res.Stats.DecodeTokensPerSecond())
//
// What follows the runner, on purpose: the first token (the prefill's) is always greedy; a
// temperature above 1 is refused; a Generate leaves the last sampled token out of the cache, so
// the next prompt starts at Pos(); an EOS token is emitted before generation stops.
//
// Bounds: prompts and generations are held to the context length before any call, token ids to
// the model's vocabulary, and the custom kernels refuse any position outside the cache; no input
// makes the package panic. A Generator is for one goroutine; Tokenizers and Modules are shared.
package llm
