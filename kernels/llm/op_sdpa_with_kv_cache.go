package llm

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

// llama::sdpa_with_kv_cache.out(Tensor query, Tensor key, Tensor value, Tensor(a!) key_cache,
// Tensor(b!) value_cache, SymInt start_pos, SymInt seq_len, Tensor? attn_mask=None,
// float drpout_p=0.0, bool is_causal=False, float? scale=None, *, Tensor(c!) out): the older
// fused form — key and value ([batch, seq, kv_heads, head_dim]) are written into the caches at
// start_pos, then custom_sdpa runs over the caches. seq_len only bounds the positions (the
// copies take key's and value's own length, which must fit too). Every argument is checked
// before a cache is written; the official kernel writes the caches before it checks the
// attention arguments.
func sdpaWithKVCacheKernel(threads int) executor.KernelFunc {
	return func(_ *executor.KernelContext, args []*executor.EValue) error {
		if err := unbox.Count(args, 13); err != nil {
			return err
		}
		var ts [5]*executor.Tensor
		for i, name := range []string{"query", "key", "value", "key_cache", "value_cache"} {
			t, err := unbox.TensorArg(args, i, name)
			if err != nil {
				return err
			}
			ts[i] = t
		}
		q, k, v, kc, vc := ts[0], ts[1], ts[2], ts[3], ts[4]
		startPos, err := unbox.IntArg(args, 5, "start_pos")
		if err != nil {
			return err
		}
		seqLen, err := unbox.IntArg(args, 6, "seq_len")
		if err != nil {
			return err
		}
		for _, c := range []struct {
			t    *executor.Tensor
			i    int
			name string
		}{{kc, 3, "key_cache"}, {vc, 4, "value_cache"}} {
			if err := contiguous4D(c.t, c.i, c.name); err != nil {
				return err
			}
			n := int64(c.t.Size(1))
			if startPos < 0 || startPos >= n || seqLen < 0 || startPos+seqLen > n {
				return unbox.ArgError(5, "start_pos", "%d with seq_len %d does not fit %s's %d positions", startPos, seqLen, c.name, n)
			}
		}
		for _, p := range []struct {
			value, cache *executor.Tensor
			vi, ci       int
		}{{k, kc, 1, 3}, {v, vc, 2, 4}} {
			if err := checkCacheUpdate(p.value, p.cache, p.vi, p.ci); err != nil {
				return err
			}
			if startPos+int64(p.value.Size(1)) > int64(p.cache.Size(1)) {
				return unbox.ArgError(p.vi, "key", "%d positions at start_pos %d overflow the cache's %d", p.value.Size(1), startPos, p.cache.Size(1))
			}
		}
		if err := contiguous4D(q, 0, "query"); err != nil {
			return err
		}
		a, out, err := sdpaArgs(args, 7, q, kc, vc, startPos)
		if err != nil {
			return err
		}
		if err := a.prepare(out); err != nil {
			return err
		}
		at := func(_, s int) int { return int(startPos) + s }
		copyLines(k, kc, at)
		copyLines(v, vc, at)
		// The caches changed after sdpaArgs took their data; the slices alias them, so the
		// attention reads the new positions.
		a.run(threads)
		return nil
	}
}
