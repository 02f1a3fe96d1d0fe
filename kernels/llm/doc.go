// Package llm holds the kernels of ExecuTorch's LLM custom operators (extension/llm/custom_ops):
// the attention and KV-cache operators that the official export_llm flow emits when a model is
// exported with use_kv_cache and use_sdpa_with_kv_cache — llama::custom_sdpa.out,
// llama::update_cache.out, llama::update_cache_with_indices.out and llama::sdpa_with_kv_cache.out.
//
// Layouts are the official ones: queries [batch, seq, heads, head_dim] and caches
// [batch, max_seq, kv_heads, head_dim], contiguous ("sequence at dim 1"). A cache is a mutable
// buffer of the program, so a kernel writes it in place and the Method keeps it across Execute
// calls, exactly as the official runtime does.
//
// Error model: the official kernels abort the process (ET_CHECK) on several bad shapes and read
// or write out of bounds on others (a negative start_pos, a key cache shorter than the value
// cache); here every such call returns an error wrapping runtime.ErrInvalidArgument naming the
// argument, before anything is written. Numerics follow the official flash-attention kernel
// (op_sdpa_impl.h): the same blocks, the same online softmax, the same order of scaling, masking
// and -inf filling, so NaN and ±Inf come out where the official kernel's do.
//
// Kernels run on the calling goroutine unless Register is given more than one thread: attention
// then splits its (batch, head, query block) items over that many goroutines, as the official
// kernel splits them over its thread pool.
package llm
