package portable

import (
	"math"
	"math/bits"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::_pdist_forward.out", DTypes: floatTypes, Fn: pdistForwardOut})
}

// aten::_pdist_forward.out(Tensor self, float p=2, *, Tensor(a!) out).
//
// The p-norm distance between every pair of rows i < j of self [N,M], in row-major pair
// order: out has N(N-1)/2 elements. p must be non-negative; p = 0 counts the differing
// coordinates and p = ∞ takes the largest difference. Arithmetic is cdist's (see
// _cdist_forward.out): ExecuTorch's, in the input's precision.
func pdistForwardOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxPdistForwardOut(args)
	if err != nil {
		return err
	}
	in, p, out := u.Self, u.P, u.Out
	dt := in.ScalarType()
	if !isFloat(dt) {
		return unbox.ArgError(0, "self", "pdist only supports floating-point dtypes, got %s", executor.DTypeName(dt))
	}
	if err := poolSameDtype(in, out, "out"); err != nil {
		return err
	}
	if in.Dim() != 2 {
		return unbox.ArgError(0, "self", "pdist only supports 2D tensors, got sizes %v", in.Sizes())
	}
	if !(p >= 0) {
		return unbox.ArgError(1, "p", "pdist only supports non-negative p values, got %v", p)
	}
	n, m := in.Size(0), in.Size(1)
	pairs := 0
	if n > 1 {
		hi, lo := bits.Mul64(uint64(n), uint64(n-1))
		if hi != 0 || lo/2 > math.MaxInt {
			return unbox.ArgError(0, "self", "%d rows have too many pairs", n)
		}
		pairs = int(lo / 2)
	}
	if err := resize(out, []int{pairs}); err != nil {
		return err
	}
	d := newDistance(dt, p)
	x := loadF64(in)
	y := make([]float64, 0, pairs)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			y = append(y, d.of(x[i*m:(i+1)*m], x[j*m:(j+1)*m]))
		}
	}
	storeF64(out, y)
	return nil
}
