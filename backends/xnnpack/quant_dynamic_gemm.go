package xnnpack

import (
	"math"
	"sync/atomic"

	"github.com/etgo/etgo/internal/gemm"
)

// The dynamically quantized fully connected layers on internal/gemm's int8 kernels: qd8 × qc8w
// as the int32 sums of the int8 GEMM (QPacked.Acc) finished here in fp32, qd8 × qb4w on the
// 4-bit kernels (QB4Packed, nibbles unpacked in registers, fp32 block sums in the kernel). The
// arithmetic is quant_dynamic.go's, in the same order.

// pack packs the layer's filter for the kernels.
func (q *qdlinear) pack() {
	if q.block == 0 {
		q.qc8, _ = gemm.PackQ8(q.wt, q.ic, q.oc)
		q.zeros = make([]float32, q.oc)
		return
	}
	if pb, err := gemm.PackQB4(q.wt, q.ic, q.oc, q.block, q.blockScales); err == nil {
		q.qb4 = pb
		q.ksumPad = make([]float32, pb.Panels()*gemm.QPanel)
		copy(q.ksumPad, q.ksum)
	}
}

// runPacked computes the layer on the packed filter: by rows when there are enough of them,
// else by output-channel panels (an LLM's single token).
func (q *qdlinear) runPacked(p *plan, codes []int8, rq []rowQuant, rows int, bias, y []float32) error {
	oc, ic := q.oc, q.ic
	var panels, tile int
	var acc []int32
	var nzp []float32
	var bs []int32
	if q.qc8 != nil {
		panels, tile = q.qc8.Panels(), 6
		acc = scratchOf[int32](p, rows*oc)
	} else {
		panels, tile = q.qb4.Panels(), 6 // the kernels' 6-row tiles (gemm.qb4Step): row splits in whole tiles
		// The 4-bit kernels take the zero points as -zp, and the rows' block sums, computed once
		// for every split of the channels.
		var err error
		if bs, err = q.qb4.BlockSums(rows, codes, ic); err != nil {
			return errorf("%v", err)
		}
		nzp = make([]float32, rows)
		for r := range nzp {
			nzp[r] = -float32(rq[r].zp)
		}
	}
	var failed atomic.Pointer[error]
	do := func(r0, r1, j0, j1 int) {
		m := r1 - r0
		var err error
		if q.qc8 != nil {
			err = q.qc8.Acc(m, codes[r0*ic:], ic, nil, acc[r0*oc:], oc, j0, j1)
		} else {
			err = q.qb4.Run(m, codes[r0*ic:], ic, rowBlocks(bs, rows, r0, r1), q.ksumPad, nzp[r0:], y[r0*oc:], oc, j0, j1)
		}
		if err != nil {
			failed.Store(&err)
			return
		}
		q.finish(r0, r1, j0*gemm.QPanel, min(oc, j1*gemm.QPanel), rq, acc, bias, y)
	}
	work := rows*oc*ic + 4*oc*ic
	if p.threads <= 1 || rows >= 2*tile*p.threads || panels < 2 {
		p.parallel(rows, tile, work, func(r0, r1 int) { do(r0, r1, 0, panels) })
	} else {
		p.parallel(panels, 1, work, func(j0, j1 int) { do(0, rows, j0, j1) })
	}
	if e := failed.Load(); e != nil {
		return errorf("%v", *e)
	}
	return nil
}

// rowBlocks is the block sums of rows [r0, r1) of BlockSums' rows (block-major): the slice
// itself for all of them, else a copy.
func rowBlocks(bs []int32, rows, r0, r1 int) []int32 {
	if r0 == 0 && r1 == rows {
		return bs
	}
	nb := len(bs) / rows
	out := make([]int32, nb*(r1-r0))
	for b := range nb {
		copy(out[b*(r1-r0):], bs[b*rows+r0:b*rows+r1])
	}
	return out
}

// finish turns rows [r0, r1), channels [c0, c1) of the kernels' results into the outputs:
// qc8w from the int32 sums (less the zero-point correction), fma(float(s)·input scale, filter
// scale, bias); qb4w from the fp32 block sums, v·input scale + bias; then the output range.
func (q *qdlinear) finish(r0, r1, c0, c1 int, rq []rowQuant, acc []int32, bias, y []float32) {
	oc := q.oc
	for r := r0; r < r1; r++ {
		out := y[r*oc+c0 : r*oc+c1]
		sc := rq[r].scale
		if q.qc8 != nil {
			b := q.zeros
			if bias != nil {
				b = bias
			}
			if !q.cKernel {
				gemm.QD8Finish(out, acc[r*oc+c0:r*oc+c1], q.qc8.KSum()[c0:c1], rq[r].zp+128, sc, q.scales[c0:c1], b[c0:c1], q.lo, q.hi) // (q.clamp of fma32)
				continue
			}
			// A qc4w layer's kernel clamps value first (q.clamp): finish unbounded, where a
			// NaN stays NaN, then clamp in its order.
			gemm.QD8Finish(out, acc[r*oc+c0:r*oc+c1], q.qc8.KSum()[c0:c1], rq[r].zp+128, sc, q.scales[c0:c1], b[c0:c1], float32(math.Inf(-1)), float32(math.Inf(1)))
			for i, v := range out {
				out[i] = q.clamp(v)
			}
			continue
		}
		for i, v := range out {
			v *= sc
			if bias != nil {
				v += bias[c0+i]
			}
			out[i] = q.clamp(v)
		}
	}
}
