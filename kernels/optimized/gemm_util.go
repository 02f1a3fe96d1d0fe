package optimized

import (
	"math"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/gemm"
)

// matmulF32 reports whether a [.., m, k] · b [.., k, n] (batch dims equal, none for mm) takes the
// packed-GEMM path: float32, contiguous, rank rank, out sized and contiguous and disjoint from the
// operands. It returns batch, m, k, n.
func matmulF32(a, b, out *executor.Tensor, rank int) (batch, m, k, n int, ok bool) {
	if a.ScalarType() != executor.Float32 || b.ScalarType() != executor.Float32 || out.ScalarType() != executor.Float32 ||
		a.Dim() != rank || b.Dim() != rank || !a.IsContiguous() || !b.IsContiguous() {
		return 0, 0, 0, 0, false
	}
	batch = 1
	if rank == 3 {
		if a.Size(0) != b.Size(0) {
			return 0, 0, 0, 0, false
		}
		batch = a.Size(0)
	}
	m, k, n = a.Size(rank-2), a.Size(rank-1), b.Size(rank-1)
	if b.Size(rank-2) != k {
		return 0, 0, 0, 0, false
	}
	sizes := []int{m, n}
	if rank == 3 {
		sizes = []int{batch, m, n}
	}
	if out.Resize(sizes) != nil || !out.IsContiguous() {
		return 0, 0, 0, 0, false
	}
	z := executor.Data[float32](out)
	if overlap(z, executor.Data[float32](a)) || overlap(z, executor.Data[float32](b)) {
		return 0, 0, 0, 0, false
	}
	return batch, m, k, n, true
}

// overlap reports whether two slices share memory (a product must not write its operands).
func overlap(x, y []float32) bool {
	return badAlias(x, y) || (len(x) > 0 && len(x) == len(y) && &x[0] == &y[0])
}

// gemmBatch computes out[b] = a[b] · B[b] for every batch with internal/gemm's packed kernel,
// bias (nil or n values) added. Work is split over threads by tiles of rows, batches first.
func gemmBatch(threads, batch, m, k, n int, a, b, bias, out []float32) error {
	if batch*m*n == 0 {
		return nil
	}
	inf := float32(math.Inf(1))
	packs := make([]*gemm.PackedB, batch)
	for i := range packs {
		p, err := gemm.PackB(b[i*k*n:(i+1)*k*n], k, n, n)
		if err != nil {
			return err
		}
		packs[i] = p
	}
	mr := gemm.TileRows()
	tiles := (m + mr - 1) / mr
	if batch*tiles == 1 && packs[0].Panels() > 1 {
		// One tile of rows (a matrix-vector-like product): split the columns.
		p := packs[0]
		parallelFor(threads, p.Panels(), m*n*k, func(lo, hi int) {
			p.GemmBiasPanels(m, a, k, bias, out, n, -inf, inf, lo, hi)
		})
		return nil
	}
	parallelFor(threads, batch*tiles, batch*m*n*k, func(lo, hi int) {
		for t := lo; t < hi; t++ {
			bi, r0 := t/tiles, (t%tiles)*mr
			rows := min(mr, m-r0)
			// Consecutive tiles of one batch go in one call (the kernel walks them itself).
			for t+1 < hi && (t+1)/tiles == bi {
				t++
				rows = min(m, (t%tiles)*mr+mr) - r0
			}
			base := bi * m
			packs[bi].GemmBias(rows, a[(base+r0)*k:], k, bias, out[(base+r0)*n:], n, -inf, inf)
		}
	})
	return nil
}
