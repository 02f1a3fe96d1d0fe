package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::gather.out", DTypes: shapeAllTypes, Fn: gatherOut})
}

// aten::gather.out(Tensor self, int dim, Tensor index, *, bool sparse_grad=False, Tensor(a!)
// out): out[i][j][k] = self[i][index[i][j][k]][k] for dim 1 (likewise for any dim). index
// (int64 or int32) has self's rank (0-d counts as 1-d) and no dimension larger than self's
// except dim; each index is in [0, self.size(dim)). out has index's sizes.
func gatherOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxGatherOut(args)
	if err != nil {
		return err
	}
	self, d, index, out := u.Self, u.Dim, u.Index, u.Out
	if err := shapeSameDtype(self, out); err != nil {
		return err
	}
	dim, err := unbox.NormDim(d, self.Dim(), 1, "dim")
	if err != nil {
		return err
	}
	vals, err := shapeIndexValues(index, 2, "index")
	if err != nil {
		return err
	}
	// 0-d tensors act as 1-d tensors of one element.
	ssizes, sstr := self.Sizes(), self.Strides()
	if self.Dim() == 0 {
		ssizes, sstr = []int{1}, []int{1}
	}
	isizes := index.Sizes()
	if index.Dim() == 0 {
		isizes = []int{1}
	}
	if len(vals) > 0 && len(isizes) != len(ssizes) {
		return unbox.ArgError(2, "index", "has %d dimensions, self has %d", index.Dim(), self.Dim())
	}
	if err := resize(out, index.Sizes()); err != nil {
		return err
	}
	if len(vals) == 0 {
		return nil
	}
	for k := range isizes {
		if k != dim && isizes[k] > ssizes[k] {
			return unbox.ArgError(2, "index", "size %d at dimension %d exceeds self's %d", isizes[k], k, ssizes[k])
		}
	}
	// Source offsets: self's strides over index's coordinates, dim's coordinate from index.
	str := append([]int(nil), sstr...)
	str[dim] = 0
	src := shapeOffsets(isizes, str, 0)
	for k, v := range vals {
		if v < 0 || v >= int64(ssizes[dim]) {
			return unbox.ArgError(2, "index", "index %d is out of bounds for dimension %d with size %d", v, dim, ssizes[dim])
		}
		src[k] += int(v) * sstr[dim]
	}
	dst := shapeOffsets(isizes, shapeOutStrides(out), 0)
	shapeGatherElems(out, dst, self, src)
	return nil
}

// shapeOutStrides is out's strides, or [1] for a 0-d out (which behaves as one element).
func shapeOutStrides(out *executor.Tensor) []int {
	if out.Dim() == 0 {
		return []int{1}
	}
	return out.Strides()
}
