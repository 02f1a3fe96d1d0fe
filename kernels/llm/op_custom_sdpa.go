package llm

import (
	"fmt"
	"math"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

// llama::custom_sdpa.out(Tensor query, Tensor key, Tensor value, SymInt start_pos,
// Tensor? attn_mask=None, float drpout_p=0.0, bool is_causal=False, float? scale=None, *,
// Tensor(a!) out): attention of the seq new queries at positions start_pos.. over a KV cache.
// query and out are [batch, seq, heads, head_dim]; key and value are the caches
// [batch, max_seq, kv_heads, head_dim] (grouped-query attention when kv_heads < heads: query head
// h reads kv head h / (heads / kv_heads)). Without a mask only the first start_pos+seq cache
// positions are read, and is_causal hides from the query at position p every key after p; a
// mask (float [seq, max_seq], added to the scaled scores) excludes is_causal and reads the whole
// cache. scale defaults to 1/sqrt(head_dim); dropout is ignored, as in the official kernel.
func customSDPAKernel(threads int) executor.KernelFunc {
	return func(_ *executor.KernelContext, args []*executor.EValue) error {
		if err := unbox.Count(args, 10); err != nil {
			return err
		}
		q, err := unbox.TensorArg(args, 0, "query")
		if err != nil {
			return err
		}
		k, err := unbox.TensorArg(args, 1, "key")
		if err != nil {
			return err
		}
		v, err := unbox.TensorArg(args, 2, "value")
		if err != nil {
			return err
		}
		startPos, err := unbox.IntArg(args, 3, "start_pos")
		if err != nil {
			return err
		}
		a, out, err := sdpaArgs(args, 4, q, k, v, startPos)
		if err != nil {
			return err
		}
		if err := a.prepare(out); err != nil {
			return err
		}
		a.run(threads)
		return nil
	}
}

// sdpaArgs reads attn_mask, is_causal, scale and out (at first, first+2, first+3, first+4:
// dropout at first+1 is read for its type only) and checks the call the way the official
// custom_sdpa_out_impl and cpu_flash_attention do, plus the bounds they leave unchecked.
func sdpaArgs(args []*executor.EValue, first int, q, k, v *executor.Tensor, startPos int64) (*attention, *executor.Tensor, error) {
	mask, err := unbox.OptTensorArg(args, first, "attn_mask")
	if err != nil {
		return nil, nil, err
	}
	if _, err := unbox.DoubleArg(args, first+1, "dropout_p"); err != nil {
		return nil, nil, err
	}
	causal, err := unbox.BoolArg(args, first+2, "is_causal")
	if err != nil {
		return nil, nil, err
	}
	scale, hasScale, err := unbox.OptDoubleArg(args, first+3, "scale")
	if err != nil {
		return nil, nil, err
	}
	out, err := unbox.TensorArg(args, first+4, "out")
	if err != nil {
		return nil, nil, err
	}
	if mask != nil && causal {
		return nil, nil, unbox.ArgError(first, "attn_mask", "attn_mask and is_causal cannot be set at the same time")
	}
	for i, t := range []*executor.Tensor{q, k, v} {
		if err := contiguous4D(t, i, [...]string{"query", "key", "value"}[i]); err != nil {
			return nil, nil, err
		}
	}
	if q.Size(3) != v.Size(3) || k.Size(3) != v.Size(3) {
		return nil, nil, unbox.ArgError(0, "query", "query, key and value must have one head size, got %d, %d and %d", q.Size(3), k.Size(3), v.Size(3))
	}
	if q.ScalarType() != executor.Float32 {
		// The official kernel also takes float16, bfloat16 (accumulating in float32) and int8
		// (the quantized cache, with its scales); etgo has only the float32 path.
		return nil, nil, fmt.Errorf("%w: llama::custom_sdpa on %s tensors (etgo computes attention in float32 only)", executor.ErrNotSupported, executor.DTypeName(q.ScalarType()))
	}
	if k.ScalarType() != q.ScalarType() || v.ScalarType() != q.ScalarType() || out.ScalarType() != q.ScalarType() {
		return nil, nil, unbox.ArgError(1, "key", "query, key, value and out must have one dtype, got %s, %s, %s and %s",
			executor.DTypeName(q.ScalarType()), executor.DTypeName(k.ScalarType()), executor.DTypeName(v.ScalarType()), executor.DTypeName(out.ScalarType()))
	}
	if out.ReadOnly() {
		return nil, nil, unbox.ArgError(first+4, "out", "is a constant of the program")
	}
	batch, qSize, heads, dim := q.Size(0), q.Size(1), q.Size(2), q.Size(3)
	kvCap, kvHeads := v.Size(1), k.Size(2)
	// The official kernel indexes key rows by value's length, key heads by key's count and every
	// cache by query's batch: mismatches it would read past are refused.
	if k.Size(0) != batch || v.Size(0) != batch {
		return nil, nil, unbox.ArgError(1, "key", "batch sizes differ: query %d, key %d, value %d", batch, k.Size(0), v.Size(0))
	}
	if k.Size(1) != kvCap || v.Size(2) != kvHeads {
		return nil, nil, unbox.ArgError(1, "key", "key %v and value %v caches differ in shape", k.Sizes(), v.Sizes())
	}
	if kvHeads == 0 || kvHeads > heads || heads%kvHeads != 0 {
		return nil, nil, unbox.ArgError(1, "key", "%d query heads cannot be grouped over %d key/value heads", heads, kvHeads)
	}
	if startPos < 0 || startPos > int64(kvCap) {
		return nil, nil, unbox.ArgError(3, "start_pos", "%d is outside the cache's %d positions", startPos, kvCap)
	}
	a := &attention{batch: batch, qSize: qSize, heads: heads, dim: dim, kvCap: kvCap, kvHeads: kvHeads,
		startPos: int(startPos), causal: causal, kvSize: kvCap}
	if mask == nil {
		// num_keys_for_causal_attention = start_pos + seq; it bounds the keys read.
		if n := int(startPos) + qSize; n > 0 {
			if n > kvCap {
				return nil, nil, unbox.ArgError(3, "start_pos", "%d plus %d queries is past the cache's %d positions", startPos, qSize, kvCap)
			}
			a.kvSize = n
		}
	} else {
		switch {
		case mask.Dim() != 2:
			return nil, nil, unbox.ArgError(first, "attn_mask", "must be a 2-D tensor, got sizes %v", mask.Sizes())
		case mask.ScalarType() != executor.Float32:
			return nil, nil, unbox.ArgError(first, "attn_mask", "must be a float32 tensor, got %s", executor.DTypeName(mask.ScalarType()))
		case !mask.IsContiguous():
			return nil, nil, unbox.ArgError(first, "attn_mask", "must be in contiguous dim order")
		}
		// An empty mask is no mask (has_attn_mask needs elements), but still reads the whole
		// cache, as the official kernel does.
		if mask.Numel() > 0 {
			if mask.Size(0) != qSize || mask.Size(1) != kvCap {
				return nil, nil, unbox.ArgError(first, "attn_mask", "sizes %v, the call needs [%d, %d] (queries × cache positions)", mask.Sizes(), qSize, kvCap)
			}
			a.mask, a.maskCols = executor.Data[float32](mask), mask.Size(1)
		}
	}
	a.scale = float32(1 / math.Sqrt(float64(dim)))
	if hasScale {
		a.scale = float32(scale)
	}
	a.q, a.k, a.v = executor.Data[float32](q), executor.Data[float32](k), executor.Data[float32](v)
	return a, out, nil
}

// prepare sizes out as the query and points the attention at it.
func (a *attention) prepare(out *executor.Tensor) error {
	if err := out.Resize([]int{a.batch, a.qSize, a.heads, a.dim}); err != nil {
		return unbox.ArgError(8, "out", "%v", err)
	}
	if !out.IsContiguous() {
		return unbox.ArgError(8, "out", "must be in contiguous dim order")
	}
	a.out = executor.Data[float32](out)
	return nil
}
