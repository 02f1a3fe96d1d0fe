package llm

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

// llama::update_cache.out(Tensor value, Tensor(a!) cache, SymInt start_pos, *, Tensor(b!) out):
// cache[b, start_pos:start_pos+seq] = value[b] for every batch line b, in place. value is
// [batch, seq, heads, head_dim] and cache [batch, max_seq, heads, head_dim], both contiguous;
// the copy is of bytes, so any two dtypes of one element size go (as the official memcpy does).
// out is a placeholder the official kernel never writes, and neither does this one.
func updateCacheKernel(_ *executor.KernelContext, args []*executor.EValue) error {
	if err := unbox.Count(args, 5); err != nil {
		return err
	}
	value, cache, startPos, err := cacheArgs(args)
	if err != nil {
		return err
	}
	if _, err := unbox.TensorArg(args, 3, "out"); err != nil {
		return err
	}
	seq := value.Size(1)
	// The official check is start_pos < max_seq and start_pos + seq <= max_seq; a negative
	// start_pos, which it lets through to its memcpy, is refused too.
	if startPos < 0 || startPos >= int64(cache.Size(1)) || startPos+int64(seq) > int64(cache.Size(1)) {
		return unbox.ArgError(2, "start_pos", "%d with %d new positions does not fit the cache's %d positions", startPos, seq, cache.Size(1))
	}
	copyLines(value, cache, func(b, s int) int { return int(startPos) + s })
	return nil
}

// llama::update_cache_with_indices.out(Tensor value, Tensor(a!) cache, SymInt start_pos,
// Tensor indices, *, Tensor(b!) out): cache[b, indices[b, s]] = value[b, s] for every batch line b
// and position s; start_pos is not used. indices is int64 [batch, seq]; every index must lie in
// [0, max_seq) — all are checked before anything is written (the official kernel stops at the
// first bad one, with the earlier positions already copied).
func updateCacheWithIndicesKernel(_ *executor.KernelContext, args []*executor.EValue) error {
	if err := unbox.Count(args, 6); err != nil {
		return err
	}
	value, cache, _, err := cacheArgs(args)
	if err != nil {
		return err
	}
	indices, err := unbox.TensorArg(args, 3, "indices")
	if err != nil {
		return err
	}
	if _, err := unbox.TensorArg(args, 4, "out"); err != nil {
		return err
	}
	switch {
	case indices.Dim() != 2:
		return unbox.ArgError(3, "indices", "must be a 2-D tensor [batch, seq], got sizes %v", indices.Sizes())
	case indices.Size(0) != value.Size(0) || indices.Size(1) != value.Size(1):
		return unbox.ArgError(3, "indices", "sizes %v do not match value's batch and sequence %v", indices.Sizes(), value.Sizes()[:2])
	case indices.ScalarType() != executor.Int64:
		return unbox.ArgError(3, "indices", "must be int64, got %s", executor.DTypeName(indices.ScalarType()))
	case !indices.IsContiguous():
		return unbox.ArgError(3, "indices", "must be in contiguous dim order")
	}
	idx := executor.Data[int64](indices)
	for k, p := range idx {
		if p < 0 || p >= int64(cache.Size(1)) {
			return unbox.ArgError(3, "indices", "index %d (batch %d, position %d) is outside the cache's %d positions",
				p, k/value.Size(1), k%value.Size(1), cache.Size(1))
		}
	}
	seq := value.Size(1)
	copyLines(value, cache, func(b, s int) int { return int(idx[b*seq+s]) })
	return nil
}

// cacheArgs reads and checks the value, cache and start_pos arguments both updates share.
func cacheArgs(args []*executor.EValue) (value, cache *executor.Tensor, startPos int64, err error) {
	if value, err = unbox.TensorArg(args, 0, "value"); err != nil {
		return
	}
	if cache, err = unbox.TensorArg(args, 1, "cache"); err != nil {
		return
	}
	if startPos, err = unbox.IntArg(args, 2, "start_pos"); err != nil {
		return
	}
	if err = checkCacheUpdate(value, cache, 0, 1); err != nil {
		return
	}
	return value, cache, startPos, nil
}

// checkCacheUpdate holds value (argument vi) and cache (argument ci) to what a line copy
// assumes: 4-D, contiguous, the same batch, heads and head size, elements of one size, and a
// cache the kernel may write.
func checkCacheUpdate(value, cache *executor.Tensor, vi, ci int) error {
	if err := contiguous4D(cache, ci, "cache"); err != nil {
		return err
	}
	if err := contiguous4D(value, vi, "value"); err != nil {
		return err
	}
	if cache.ReadOnly() {
		return unbox.ArgError(ci, "cache", "is a constant of the program, which a kernel must not write")
	}
	for _, d := range []struct {
		dim  int
		what string
	}{{0, "batch size"}, {2, "number of heads"}, {3, "head size"}} {
		if value.Size(d.dim) != cache.Size(d.dim) {
			return unbox.ArgError(vi, "value", "%s %d differs from the cache's %d (sizes %v and %v)", d.what, value.Size(d.dim), cache.Size(d.dim), value.Sizes(), cache.Sizes())
		}
	}
	if executor.ElementSize(value.ScalarType()) != executor.ElementSize(cache.ScalarType()) {
		return unbox.ArgError(vi, "value", "%s elements do not have the size of the cache's %s", executor.DTypeName(value.ScalarType()), executor.DTypeName(cache.ScalarType()))
	}
	return nil
}

// copyLines copies value[b, s] (one position: heads × head_dim elements) to cache[b, at(b, s)].
func copyLines(value, cache *executor.Tensor, at func(b, s int) int) {
	es := executor.ElementSize(value.ScalarType())
	line := value.Size(2) * value.Size(3) * es
	src, dst := value.Bytes(), cache.Bytes()
	batch, seq, maxSeq := value.Size(0), value.Size(1), cache.Size(1)
	for b := 0; b < batch; b++ {
		for s := 0; s < seq; s++ {
			from := (b*seq + s) * line
			to := (b*maxSeq + at(b, s)) * line
			copy(dst[to:to+line], src[from:from+line])
		}
	}
}
