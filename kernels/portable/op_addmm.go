package portable

import (
	"math"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::addmm.out", DTypes: realTypes, Fn: addmmOut})
}

// aten::addmm.out(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1,
// Tensor(a!) out): beta·self + alpha·(mat1 [m, k] · mat2 [k, n]), with self broadcasting to
// [m, n]. With beta zero self is ignored (its NaN and inf do not propagate), as PyTorch
// documents. All tensors share one dtype; for integral ones beta and alpha truncate to
// integers, as in PyTorch.
func addmmOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxAddmmOut(args)
	if err != nil {
		return err
	}
	return linalgAddmm(a.Self, a.Mat1, a.Mat2, a.Beta, a.Alpha, a.Out, false)
}

// linalgAddmm implements addmm (batched false) and baddbmm (batched true), whose schemas
// match but for the names of x and y (mat1 and mat2, batch1 and batch2): (self, x, y, *, beta,
// alpha, out).
func linalgAddmm(self, x, y *executor.Tensor, beta, alpha scalar, out *executor.Tensor, batched bool) error {
	n1, n2 := "mat1", "mat2"
	if batched {
		n1, n2 = "batch1", "batch2"
	}
	if err := linalgSameDType([]*executor.Tensor{self, x}, []string{"self", n1}); err != nil {
		return err
	}
	p, err := linalgMatmulCheck(x, y, out, 1, 2, 5, n1, n2, batched)
	if err != nil {
		return err
	}
	if err := linalgWantRowMajor(self, 0, "self"); err != nil {
		return err
	}
	if shape, err := broadcastShape(self.Sizes(), out.Sizes()); err != nil || !equalShape(shape, out.Sizes()) {
		return unbox.ArgError(0, "self", "sizes %v do not broadcast to the product's %v", self.Sizes(), out.Sizes())
	}
	p.self, p.alpha, p.beta = self, alpha, beta
	if !batched && out.ScalarType() == executor.BFloat16 && beta.F != 0 {
		addmmBF16(p)
		return nil
	}
	p.run()
	return nil
}

// addmmBF16 is the official portable addmm in bfloat16 (vec_addmm, vec_matmul and the
// broadcast add, with CTYPE c10::BFloat16): every product and every partial sum of the dot
// product is rounded to bf16, as is alpha·sum, beta·self and their sum (c10's operators compute
// in float and round to nearest even). etgo's fp32 accumulation differs by a bf16 ulp or more
// (testdata/bf16's portable linear programs).
func addmmBF16(p *linalgMM) {
	r := func(v float32) float32 { return bf16Round(v) }
	xs, ys, sv := linalgView[float32](p.x), linalgView[float32](p.y), linalgView[float32](p.self)
	cs, flush := linalgOutput[float32](p.out, p.x, p.y, p.self)
	idx := broadcastIndex(p.self.Sizes(), p.out.Sizes())
	alpha, beta := r(float32(p.alpha.F)), r(float32(p.beta.F))
	for i := range p.m {
		for j := range p.n {
			var sum float32
			for k := range p.k {
				sum = r(sum + r(xs[i*p.k+k]*ys[k*p.n+j]))
			}
			e := i*p.n + j
			cs[e] = r(r(sum*alpha) + r(at(sv, idx, e)*beta))
		}
	}
	flush()
}

// bf16Round rounds v to bfloat16 as c10::BFloat16 does (round_to_nearest_even; NaN becomes
// the quiet NaN 0x7fc0), returned widened.
func bf16Round(v float32) float32 {
	if v != v {
		return math.Float32frombits(0x7fc00000)
	}
	b := math.Float32bits(v)
	b += 0x7fff + (b>>16)&1
	return math.Float32frombits(b &^ 0xffff)
}
