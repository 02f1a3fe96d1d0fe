package llm

import (
	"math"

	"github.com/etgo/etgo/internal/gemm"
	"github.com/etgo/etgo/internal/workpool"
)

// attention is one flash-attention call in the official kernel's terms (op_sdpa_impl.h,
// cpu_flash_attention with the sequence at dim 1): q and out are [batch, qSize, heads, dim],
// k and v [batch, kvCap, kvHeads, dim], all contiguous; mask, when set, is [qSize, maskCols].
type attention struct {
	q, k, v, out []float32
	mask         []float32
	maskCols     int

	batch, qSize, heads, dim int
	kvCap, kvHeads           int
	// kvSize is how many cache positions the call reads: start_pos+qSize without a mask (the
	// official num_keys_for_causal_attention), the whole cache with one.
	kvSize   int
	startPos int
	causal   bool
	scale    float32
}

// Block sizes of the official kernel: kvSplit 512, and a query block chosen by the query length
// (custom_sdpa_out_impl's template arguments).
const kvSplit = 512

func qSplitFor(qSize int) int {
	switch {
	case qSize >= 768:
		return 256
	case qSize >= 192:
		return 64
	}
	return 32
}

// vecLanes is at::vec::Vectorized<float>::size() in the official build (AVX2, 256 bits): where
// its reductions stop vectorizing decides how a NaN in the scores is seen.
const vecLanes = 8

// run computes out, splitting the (batch, head, query block) items over threads goroutines as the
// official kernel splits them over its thread pool (each item is independent).
func (a *attention) run(threads int) {
	qSplitSize := min(qSplitFor(a.qSize), a.qSize)
	if qSplitSize == 0 {
		return
	}
	qSlice := (a.qSize-1)/qSplitSize + 1
	items := a.batch * a.heads * qSlice
	kvSplitSize := min(kvSplit, a.kvSize)
	work := func(begin, end int) {
		s := newScratch(qSplitSize, kvSplitSize, a.dim)
		for z := begin; z < end; z++ {
			kb := z % qSlice
			j := (z / qSlice) % a.heads
			i := z / (qSlice * a.heads)
			a.item(s, i, j, kb*qSplitSize, min(qSplitSize, a.qSize-kb*qSplitSize), kvSplitSize)
		}
	}
	if threads <= 1 || items < 2 {
		work(0, items)
		return
	}
	// On the process's worker pool, as the XNNPACK delegates and the optimized kernels run: a
	// decode step's attention sits between delegate calls whose workers are still spinning for
	// the next region, and goroutines of its own would wait for those workers' Ps (measured: an
	// 8da4w stories110M-class decode at 2 threads, XNNPACK workers and attention goroutines
	// competing for the two Ps). Two tasks a thread, each with its own scratch.
	tasks := min(items, 2*threads)
	workpool.Run(threads, tasks, func(t int) { work(items*t/tasks, items*(t+1)/tasks) })
}

type scratch struct {
	qk, qkMax, qkSum, dst []float32
	kT, tmp               []float32 // the GEMM path's transposed key block and p·v product
}

func newScratch(qSplitSize, kvSplitSize, dim int) *scratch {
	s := &scratch{
		qk:    make([]float32, qSplitSize*kvSplitSize),
		qkMax: make([]float32, qSplitSize),
		qkSum: make([]float32, qSplitSize),
		dst:   make([]float32, qSplitSize*dim),
	}
	if qSplitSize >= gemmMinRows {
		s.kT = make([]float32, dim*kvSplitSize)
		s.tmp = make([]float32, qSplitSize*dim)
	}
	return s
}

// gemmMinRows is the query block from which the two block products go through internal/gemm's
// packed, vectorised GEMM (a prefill) rather than row dot products and axpys (a decode step,
// one query row, where packing would cost more than it saves). The official kernel uses a GEMM
// for both; the sums' order differs from either of ours by float32 rounding only.
const gemmMinRows = 4

// qkGemm is qk = q[block]·k[block]ᵀ through the packed GEMM: the key block transposed into
// kT, packed, and multiplied by the query rows (row stride qStride). False when the packing
// refuses the shapes, which then take the row loop.
func qkGemm(s *scratch, q []float32, qStride, qRows int, k []float32, kStride, kRows, d int, qk []float32) bool {
	kT := s.kT[:d*kRows]
	for c := 0; c < kRows; c++ {
		for x, v := range k[c*kStride : c*kStride+d] {
			kT[x*kRows+c] = v
		}
	}
	pk, err := gemm.PackB(kT, d, kRows, kRows)
	if err != nil {
		return false
	}
	inf := float32(math.Inf(1))
	pk.GemmBias(qRows, q, qStride, nil, qk, kRows, -inf, inf)
	return true
}

// pvGemm is dst (+)= p·v[block] through the packed GEMM: v's rows (stride vStride) packed as
// they are; the first block stores (beta 0), the later ones add.
func pvGemm(s *scratch, p []float32, pRows, kRows int, v []float32, vStride, d int, dst []float32, first bool) bool {
	pv, err := gemm.PackB(v, kRows, d, vStride)
	if err != nil {
		return false
	}
	inf := float32(math.Inf(1))
	if first {
		pv.GemmBias(pRows, p, kRows, nil, dst, d, -inf, inf)
		return true
	}
	tmp := s.tmp[:pRows*d]
	pv.GemmBias(pRows, p, kRows, nil, tmp, d, -inf, inf)
	gemm.Add(dst[:pRows*d], dst, tmp)
	return true
}

// qkRows is qk = q[block]·k[block]ᵀ as one dot product per score.
func (a *attention) qkRows(qk []float32, qBase, qStrideM, qBlockSize, kBase, kStrideN, kvBlockSize int) {
	d := a.dim
	for r := 0; r < qBlockSize; r++ {
		qrow := a.q[qBase+r*qStrideM : qBase+r*qStrideM+d]
		dotRows(qk[r*kvBlockSize:(r+1)*kvBlockSize], qrow, a.k[kBase:], kStrideN)
	}
}

// dotRowsGo and axpyRowsGo are dotRows and axpyRows as one dot or axpy per row (the kernels'
// definition; the AVX2 versions compute the same sums in one call).
func dotRowsGo(out, q, k []float32, stride int) {
	for c := range out {
		out[c] = dot(q, k[c*stride:c*stride+len(q)])
	}
}

func axpyRowsGo(dst, v []float32, stride int, p []float32) {
	for c, w := range p {
		axpy(dst, v[c*stride:c*stride+len(dst)], w)
	}
}

// item computes the rows m..m+qBlockSize of head j of batch line i.
func (a *attention) item(s *scratch, i, j, m, qBlockSize, kvSplitSize int) {
	negInf := float32(math.Inf(-1))
	d := a.dim
	qStrideM, kStrideN := a.heads*d, a.kvHeads*d
	qBase := i*a.qSize*qStrideM + j*d + m*qStrideM
	jkv := j / (a.heads / a.kvHeads)
	for r := 0; r < qBlockSize; r++ {
		s.qkMax[r], s.qkSum[r] = negInf, 0
	}
	clear(s.dst)
	numKeys := a.kvSize
	if a.causal {
		numKeys = min(m+a.startPos+qBlockSize, a.kvSize)
	}
	mStartPos := m + a.startPos
	for n := 0; n < numKeys; n += kvSplitSize {
		kvBlockSize := min(kvSplitSize, a.kvSize-n)
		qk := s.qk[:qBlockSize*kvBlockSize]
		kBase := i*a.kvCap*kStrideN + jkv*d + n*kStrideN
		// qk = q @ k.T
		if s.kT == nil || !qkGemm(s, a.q[qBase:], qStrideM, qBlockSize, a.k[kBase:], kStrideN, kvBlockSize, d, qk) {
			a.qkRows(qk, qBase, qStrideM, qBlockSize, kBase, kStrideN, kvBlockSize)
		}
		// Future positions are -inf before any scaling, as in the official kernel (so a scale of
		// 0 turns them into NaN there too).
		if a.causal && mStartPos <= n+kvSplitSize {
			for r := 0; r < qBlockSize && mStartPos+r < n+kvSplitSize-1; r++ {
				lastCol := 0
				if n <= mStartPos+r {
					lastCol = r + mStartPos + 1 - n
				}
				for c := lastCol; c < kvBlockSize; c++ {
					qk[r*kvBlockSize+c] = negInf
				}
			}
		}
		if a.mask != nil {
			for r := 0; r < qBlockSize; r++ {
				mrow := a.mask[(m+r)*a.maskCols+n:]
				row := qk[r*kvBlockSize : (r+1)*kvBlockSize]
				for c := range row {
					row[c] = row[c]*a.scale + mrow[c]
				}
			}
		}
		for r := 0; r < qBlockSize; r++ {
			row := qk[r*kvBlockSize : (r+1)*kvBlockSize]
			var tmpMax float32
			if a.mask != nil {
				tmpMax = maxPropagating(row)
			} else {
				tmpMax = scaleMax(row, a.scale)
			}
			if s.qkMax[r] > tmpMax {
				tmpMax = s.qkMax[r]
			}
			if tmpMax == negInf {
				// Every score so far is -inf: the official kernel zeroes the row rather than
				// compute exp(-inf - -inf) = NaN; the row's sum stays 0.
				clear(row)
				continue
			}
			sum := expReduceSum(row, tmpMax)
			expTmp := exp32(s.qkMax[r] - tmpMax)
			s.qkSum[r] = sum + expTmp*s.qkSum[r]
			s.qkMax[r] = tmpMax
			if n > 0 {
				dst := s.dst[r*d : (r+1)*d]
				for x := range dst {
					dst[x] *= expTmp
				}
			}
		}
		// dst (+)= qk @ v: the first block overwrites (beta 0), the next ones accumulate.
		vBase := i*a.kvCap*kStrideN + jkv*d + n*kStrideN
		if s.tmp != nil && pvGemm(s, qk, qBlockSize, kvBlockSize, a.v[vBase:], kStrideN, d, s.dst, n == 0) {
			continue
		}
		for r := 0; r < qBlockSize; r++ {
			dst := s.dst[r*d : (r+1)*d]
			if n == 0 {
				clear(dst)
			}
			axpyRows(dst, a.v[vBase:], kStrideN, qk[r*kvBlockSize:(r+1)*kvBlockSize])
		}
	}
	for r := 0; r < qBlockSize; r++ {
		inv := 1 / s.qkSum[r]
		o := a.out[qBase+r*qStrideM : qBase+r*qStrideM+d]
		for x, v := range s.dst[r*d : (r+1)*d] {
			o[x] = v * inv
		}
	}
}

// dot and axpy are the decode step's products (one query row): AVX2/FMA Go assembly where the
// CPU has it (vec_amd64.s), these loops elsewhere and under purego. Both differ from the official
// GEMM's sums by float32 rounding only.
func dotGo(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

func axpyGo(dst, x []float32, w float32) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] += w * x[i]
	}
}

func exp32(x float32) float32 { return float32(math.Exp(float64(x))) }

// isNaN32 avoids a float64 conversion.
func isNaN32(x float32) bool { return x != x }

// maxPropagating is at::vec::reduce_all with vec::maximum: any NaN in row gives NaN.
func maxPropagating(row []float32) float32 {
	m := float32(math.Inf(-1))
	for _, x := range row {
		if isNaN32(x) {
			return x
		}
		if x > m {
			m = x
		}
	}
	return m
}

// scaleMax is _mul_reduce_max_fusion_kernel: row *= scale, returning the maximum as the official
// kernel computes it — NaN-propagating over the vectorized lanes, std::max over the tail, then
// std::max(tail, lanes), which drops a NaN of the lanes (std::max(a, NaN) is a).
func scaleMax(row []float32, scale float32) float32 {
	negInf := float32(math.Inf(-1))
	vecEnd := len(row) / vecLanes * vecLanes
	lanes := negInf
	for c := 0; c < vecEnd; c++ {
		x := row[c] * scale
		row[c] = x
		if isNaN32(lanes) {
			continue
		}
		if isNaN32(x) || x > lanes {
			lanes = x
		}
	}
	tail := negInf
	for c := vecEnd; c < len(row); c++ {
		x := row[c] * scale
		row[c] = x
		if tail < x { // std::max(tail, x): a NaN x is dropped, a NaN tail kept
			tail = x
		}
	}
	if tail < lanes {
		return lanes
	}
	return tail
}

// expReduceSum is _exp_reduce_sum_fusion_kernel: row = exp(row - max) and the sum, accumulated
// as the official kernel does (16 lanes summed in order, then the tail).
func expReduceSum(row []float32, max float32) float32 {
	const width = 2 * vecLanes
	var acc [width]float32
	vecEnd := len(row) / width * width
	for c := 0; c < vecEnd; c += width {
		for l := 0; l < width; l++ {
			e := exp32(row[c+l] - max)
			row[c+l] = e
			acc[l] += e
		}
	}
	var sum float32
	for _, x := range acc {
		sum += x
	}
	for c := vecEnd; c < len(row); c++ {
		e := exp32(row[c] - max)
		row[c] = e
		sum += e
	}
	return sum
}
