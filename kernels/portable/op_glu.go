package portable

import (
	"math"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::glu.out", DTypes: floatTypes, Fn: gluOut})
}

// aten::glu.out(Tensor self, int dim=-1, *, Tensor(a!) out): the gated linear unit: self split in
// halves a, b along dim (of even size), a * sigmoid(b). Floating self and out.
func gluOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxGluOut(args)
	if err != nil {
		return err
	}
	self, d, out := u.Self, u.Dim, u.Out
	if !isFloat(self.ScalarType()) || !isFloat(out.ScalarType()) {
		return unbox.ArgError(0, "self", "glu needs floating self and out, got %s and %s",
			executor.DTypeName(self.ScalarType()), executor.DTypeName(out.ScalarType()))
	}
	if self.Dim() == 0 {
		return unbox.ArgError(0, "self", "glu does not support 0-d tensors")
	}
	dim, err := unbox.NormDim(d, self.Dim(), 1, "dim")
	if err != nil {
		return err
	}
	n := self.Size(dim)
	if n%2 != 0 {
		return unbox.ArgError(0, "self", "halving dimension %d of size %d must be even", dim, n)
	}
	sizes := append([]int(nil), self.Sizes()...)
	sizes[dim] = n / 2
	if err := resize(out, sizes); err != nil {
		return err
	}
	// In logical (row-major) order: outer blocks of n along dim times the inner size.
	x := loadF64(self)
	inner := 1
	for _, s := range sizes[dim+1:] {
		inner *= s
	}
	outer := 1
	for _, s := range sizes[:dim] {
		outer *= s
	}
	ct := self.ScalarType()
	r := make([]float64, 0, outer*(n/2)*inner)
	for o := 0; o < outer; o++ {
		base := o * n * inner
		for k := 0; k < n/2*inner; k++ {
			a, b := x[base+k], x[base+n/2*inner+k]
			// The official kernel computes a · (1 / (1 + exp(-b))) in the input's own type
			// (c10::Half / c10::BFloat16 for the half types), each operation rounded.
			e := roundTo(ct, math.Exp(-b))
			r = append(r, roundTo(ct, a*roundTo(ct, 1/roundTo(ct, 1+e))))
		}
	}
	storeF64(out, r)
	return nil
}
