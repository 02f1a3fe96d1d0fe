package portable

import (
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
	if r, ok := halfRounder(out.ScalarType()); ok && !batched {
		addmmHalf(p, r)
		return nil
	}
	p.run()
	return nil
}

// addmmHalf is the official portable addmm in float16 and bfloat16 (vec_addmm, or vec_matmul
// and the broadcast add, with CTYPE c10::Half or c10::BFloat16): every product and every partial
// sum of the dot product is rounded to the half type (r), as are alpha·sum, beta·self and their
// sum. beta·self is computed when beta is zero too, so NaN and infinities in self propagate as
// they do officially. etgo's float32 accumulation differs by a half ulp or more.
func addmmHalf(p *linalgMM, r func(float32) float32) {
	xs, ys, sv := linalgView[float32](p.x), linalgView[float32](p.y), linalgView[float32](p.self)
	cs, flush := linalgOutput[float32](p.out, p.x, p.y, p.self)
	idx := broadcastIndex(p.self.Sizes(), p.out.Sizes())
	alpha, beta := halfScalar(r, p.alpha.F), halfScalar(r, p.beta.F)
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
