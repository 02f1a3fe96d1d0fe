package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::permute_copy.out", DTypes: shapeAllTypes, Fn: permuteCopyOut})
}

// aten::permute_copy.out(Tensor self, int[] dims, *, Tensor(a!) out): out[i0..] = self at the
// permuted index; out.size(i) = self.size(dims[i]).
func permuteCopyOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxPermuteCopyOut(args)
	if err != nil {
		return err
	}
	self, dims, out := u.Self, u.Dims, u.Out
	if err := shapeSameDtype(self, out); err != nil {
		return err
	}
	perm, err := shapePermutation(dims, self.Dim(), 1, "dims")
	if err != nil {
		return err
	}
	v := shapeViewOf(self)
	pv := shapeView{sizes: make([]int, len(perm)), strides: make([]int, len(perm))}
	for i, d := range perm {
		pv.sizes[i], pv.strides[i] = v.sizes[d], v.strides[d]
	}
	if err := resize(out, pv.sizes); err != nil {
		return err
	}
	shapeWrite(out, self, pv)
	return nil
}

// shapePermutation normalises dims, which must be a permutation of the rank's dimensions.
func shapePermutation(dims []int64, rank int, i int, name string) ([]int, error) {
	if len(dims) != rank {
		return nil, unbox.ArgError(i, name, "%d dims for a rank-%d tensor", len(dims), rank)
	}
	perm := make([]int, rank)
	seen := make([]bool, rank)
	for k, d := range dims {
		n, err := unbox.NormDim(d, rank, i, name)
		if err != nil {
			return nil, err
		}
		if seen[n] {
			return nil, unbox.ArgError(i, name, "dimension %d appears more than once", d)
		}
		seen[n] = true
		perm[k] = n
	}
	return perm, nil
}
