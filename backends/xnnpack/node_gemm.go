package xnnpack

import (
	"math"
	"sync/atomic"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/internal/gemm"
)

// The matrix-product family: fully connected layers (fp32 on the packed GEMM, its filter packed
// at init, bias, output range and a fused activation in its store; quantized in XNNPACK's
// integer arithmetic) and batch matrix multiplication (fp32).

func init() {
	registerNode(schema.XNodeUnionXNNFullyConnected, nodeKernel{run: fullyConnected, ownRange: true, takesActivation: true,
		operator: "Fully Connected (NC, F32) GEMM",
		pack: func(n *xnngraph.Node, w *tensor) []*gemm.PackedB {
			if len(w.dims) != 2 || len(w.data) != w.dims[0]*w.dims[1] {
				return nil
			}
			return []*gemm.PackedB{packFC(w.data, w.dims[0], w.dims[1], n.Flags)}
		},
		quant: func(p *plan, k int, n *xnngraph.Node) (runFunc, error) {
			ocDim := 0 // [out, in]
			if n.Flags&xnngraph.FlagTransposeWeights != 0 {
				ocDim = 1 // [in, out]
			}
			if x := p.qof(n.Inputs[0]); x != nil && x.dtype == schema.XNNDatatypexnn_datatype_qdint8 {
				return p.dynamicLinear(k, n, ocDim)
			}
			q, err := p.quantLinear(k, n, ocDim)
			if err != nil {
				return nil, err
			}
			// The product reads the filter as [in, out].
			if ic := len(q.w) / max(q.oc, 1); q.oc*ic == len(q.w) {
				q.wt = q.w
				if ocDim == 0 {
					q.wt = transposeInts(q.w, q.oc, ic)
				}
				q.packQS8(1, ic, q.oc)
			} // (else the kernel reports the mismatch)
			return q.fullyConnected, nil
		}})
	registerNode(schema.XNodeUnionXNNBatchMatrixMultiply, nodeKernel{run: batchMatMul, operator: "Batch Matrix Multiply (NC, F32) GEMM"})
}

// fullyConnected: y[..., o] = sum_i x[..., i] * w[o, i] + b[o]; w is [in, out] when the
// transpose-weights flag is set.
func fullyConnected(p *plan, n *xnngraph.Node) error {
	x, err := p.in(n.Inputs[0])
	if err != nil {
		return err
	}
	w, err := p.in(n.Inputs[1])
	if err != nil {
		return err
	}
	if len(w.dims) != 2 || len(x.dims) == 0 {
		return errorf("fully connected needs a 2-d filter, got %v for input %v", w.dims, x.dims)
	}
	oc, ic := w.dims[0], w.dims[1]
	if n.Flags&xnngraph.FlagTransposeWeights != 0 {
		oc, ic = ic, oc
	}
	if x.dims[len(x.dims)-1] != ic {
		return errorf("input %v does not end in the filter's %d input channels", x.dims, ic)
	}
	var bias []float32
	if n.Inputs[2] != xnngraph.InvalidID {
		b, err := p.in(n.Inputs[2])
		if err != nil {
			return err
		}
		if b.numel() != oc {
			return errorf("bias of %d values for %d output channels", b.numel(), oc)
		}
		bias = b.data
	}
	dims := append(append([]int(nil), x.dims[:len(x.dims)-1]...), oc)
	y := p.out(n.Outputs[0], dims)
	rows := y.numel() / max(oc, 1)
	var pb *gemm.PackedB
	if pw, ok := p.packed[n]; ok {
		pb = pw[0]
	} else {
		pb = packFC(w.data, w.dims[0], w.dims[1], n.Flags)
	}
	p.gemmBias(pb, rows, x.data, ic, bias, y.data, oc, n.OutputMin, n.OutputMax, p.act(n)) // bias and range fused into the store
	return nil
}

// gemmBias runs pb.GemmBias across the plan's threads. Threads split by row tiles when A is the
// larger operand (early layers: many pixels, few channels); when the weights are larger (a 7x7
// layer, an M=1 classifier) they split by column panels, so each thread reads only its part of
// the weights and the small A is shared.
func (p *plan) gemmBias(pb *gemm.PackedB, m int, a []float32, lda int, bias, c []float32, ldc int, lo, hi float32, act actFunc) {
	tile := gemm.TileRows()
	byRows := m*pb.K >= pb.K*pb.N && m >= 2*p.threads*tile
	// Reading the weights counts too: an M=1 layer streams them from L3, and two cores pull
	// them about twice as fast as one.
	work := m*pb.K*pb.N + 4*pb.K*pb.N
	if p.threads <= 1 || byRows || pb.Panels() < 2 {
		p.parallel(m, tile, work, func(r0, r1 int) {
			pb.GemmBias(r1-r0, a[r0*lda:], lda, bias, c[r0*ldc:], ldc, lo, hi)
			if act != nil { // rows just written, still in cache
				actRows(act, c, r0, r1, ldc, pb.N)
			}
		})
		return
	}
	p.parallel(pb.Panels(), 1, work, func(j0, j1 int) {
		pb.GemmBiasPanels(m, a, lda, bias, c, ldc, lo, hi, j0, j1)
	})
	if act != nil { // few rows: one pass over the small result
		actRows(act, c, 0, m, ldc, pb.N)
	}
}

// actRows applies act to columns [0, n) of rows [r0, r1) of c (row stride ldc): in one call when
// the rows are contiguous, as a layer's output is.
func actRows(act actFunc, c []float32, r0, r1, ldc, n int) {
	if r1 <= r0 {
		return
	}
	if ldc == n {
		act(c[r0*ldc:r1*ldc], r0*ldc)
		return
	}
	for r := r0; r < r1; r++ {
		act(c[r*ldc:r*ldc+n], r*ldc)
	}
}

// batchMatMul: [..., m, k] x [..., k, n] (or [..., n, k] with the transpose flag), batch dims
// broadcast.
func batchMatMul(p *plan, n *xnngraph.Node) error {
	a, err := p.in(n.Inputs[0])
	if err != nil {
		return err
	}
	b, err := p.in(n.Inputs[1])
	if err != nil {
		return err
	}
	if len(a.dims) < 2 || len(b.dims) < 2 {
		return errorf("batch matmul of %v and %v", a.dims, b.dims)
	}
	m, k := a.dims[len(a.dims)-2], a.dims[len(a.dims)-1]
	kb, nn := b.dims[len(b.dims)-2], b.dims[len(b.dims)-1]
	trans := n.Flags&xnngraph.FlagTransposeWeights != 0
	if trans {
		kb, nn = nn, kb
	}
	if kb != k {
		return errorf("batch matmul inner dimensions %d and %d differ", k, kb)
	}
	batch, err := xnngraph.BroadcastDims(a.dims[:len(a.dims)-2], b.dims[:len(b.dims)-2])
	if err != nil {
		return err
	}
	y := p.out(n.Outputs[0], append(append([]int(nil), batch...), m, nn))
	sa, sb := broadcastStrides(a.dims[:len(a.dims)-2], batch), broadcastStrides(b.dims[:len(b.dims)-2], batch)
	nb := 1
	for _, d := range batch {
		nb *= d
	}
	nbB := 1 // B's own batch count: each of its matrices is packed once, however broadcast
	for _, d := range b.dims[:len(b.dims)-2] {
		nbB *= d
	}
	// Pack every B matrix (straight from its [n, k] layout under the transpose flag), then run
	// the products on the fully connected layers' microkernels (the portable triple loop was 29%
	// of a DeiT-tiny's run), split across threads by (batch, block of rows): attention's
	// per-head products are each too small to split by themselves.
	// The packings are the node's from the last run, repacked in place: a windowed attention
	// packs hundreds of small matrices per product, whose allocation cost as much as the products.
	if p.bmmPacked == nil {
		p.bmmPacked = map[*xnngraph.Node][]*gemm.PackedB{}
	}
	pbs := p.bmmPacked[n]
	if len(pbs) < nbB {
		pbs = append(pbs, make([]*gemm.PackedB, nbB-len(pbs))...)
		p.bmmPacked[n] = pbs
	}
	pbs = pbs[:nbB]
	var failed atomic.Bool
	p.parallel(nbB, 1, 4*nbB*k*nn, func(j0, j1 int) {
		for j := j0; j < j1; j++ {
			bm := b.data[j*k*nn : (j+1)*k*nn]
			var err error
			if trans {
				pbs[j], err = gemm.PackBTInto(pbs[j], bm, k, nn, k)
			} else {
				pbs[j], err = gemm.PackBInto(pbs[j], bm, k, nn, nn)
			}
			if err != nil {
				failed.Store(true)
			}
		}
	})
	if failed.Load() {
		return errorf("batch matmul of %v and %v: cannot pack B", a.dims, b.dims)
	}
	tile := gemm.TileRows()
	blocks := 1
	if p.threads > 1 && nb < 2*p.threads {
		blocks = max(1, min((m+tile-1)/tile, (2*p.threads+nb-1)/nb))
	}
	rowsPer := ((m+blocks-1)/blocks + tile - 1) / tile * tile
	blocks = max(1, (m+rowsPer-1)/max(rowsPer, 1))
	inf := float32(math.Inf(1))
	p.parallel(nb*blocks, 1, nb*m*k*nn+4*nbB*k*nn, func(u0, u1 int) {
		idx := make([]int, len(batch))
		for u := u0; u < u1; u++ {
			bi, blk := u/blocks, u%blocks
			rest := bi
			for d := len(batch) - 1; d >= 0; d-- {
				idx[d] = rest % batch[d]
				rest /= batch[d]
			}
			oa, ob := 0, 0
			for d, x := range idx {
				oa += x * sa[d]
				ob += x * sb[d]
			}
			r0, r1 := blk*rowsPer, min((blk+1)*rowsPer, m)
			if r0 >= r1 {
				continue
			}
			am := a.data[(oa*m+r0)*k : (oa*m+r1)*k]
			cm := y.data[(bi*m+r0)*nn : (bi*m+r1)*nn]
			pbs[ob].GemmBias(r1-r0, am, k, nil, cm, nn, -inf, inf)
		}
	})
	return nil
}

// packFC packs a fully connected filter as the [in, out] matrix the GEMM multiplies by; the
// filter is [out, in], or [in, out] with the transpose-weights flag.
func packFC(w []float32, d0, d1 int, flags uint32) *gemm.PackedB {
	if flags&xnngraph.FlagTransposeWeights != 0 {
		pb, _ := gemm.PackB(w, d0, d1, d1) // sizes checked by the caller
		return pb
	}
	pb, _ := gemm.PackBT(w, d1, d0, d1) // [out, in] is the transpose of [in, out]
	return pb
}

// fullyConnected is the quantized fully connected layer: the input rows times the filter packed
// at init (packQS8), requantized in the GEMM's store.
func (q *qlinear) fullyConnected(p *plan, n *xnngraph.Node) error {
	x, xq, err := inOf[int8](p, n.Inputs[0])
	if err != nil {
		return err
	}
	oc := q.oc
	ic := len(q.w) / max(oc, 1)
	if len(x.dims) == 0 || x.dims[len(x.dims)-1] != ic {
		return errorf("input %v does not end in the filter's %d input channels", x.dims, ic)
	}
	if len(q.qs) != 1 || oc*ic != len(q.w) {
		return errorf("filter of %d values for %d output channels of %d inputs", len(q.w), oc, ic)
	}
	dims := append(append([]int(nil), x.dims[:len(x.dims)-1]...), oc)
	y, yq := outOf[int8](p, n.Outputs[0], dims)
	rows := y.numel() / max(oc, 1)
	return p.runQS8(q.qs[0], rows, xq[:rows*ic], ic, yq, oc)
}

// transposeInts returns the [cols, rows] transpose of a row-major [rows, cols] matrix.
func transposeInts(a []int32, rows, cols int) []int32 {
	out := make([]int32, len(a))
	// In 8x8 tiles: element by element, every write of a large filter (an LLM's 2048x2048)
	// missed the cache, 1.25 s of a 110M-parameter program's 2.8 s load.
	// (It fits: callers check len(a) is rows·cols.)
	gemm.TransposeGo(out, rows, a, cols, rows, cols)
	return out
}
