package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::expand_copy.out", DTypes: shapeAllTypes, Fn: expandCopyOut})
}

// aten::expand_copy.out(Tensor self, SymInt[] size, *, bool implicit=False, Tensor(a!) out):
// self broadcast to size. Size -1 keeps self's size at that dimension; extra leading
// dimensions are new (and may not be -1); a non-singleton dimension cannot change.
func expandCopyOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxExpandCopyOut(args)
	if err != nil {
		return err
	}
	self, size, out := u.Self, u.Size, u.Out
	if err := shapeSameDtype(self, out); err != nil {
		return err
	}
	v, err := shapeExpand(self, size, 1, "size")
	if err != nil {
		return err
	}
	if err := resize(out, v.sizes); err != nil {
		return err
	}
	shapeWrite(out, self, v)
	return nil
}

// shapeExpand is the view of self broadcast to size (expand's rules).
func shapeExpand(self *executor.Tensor, size []int64, i int, name string) (shapeView, error) {
	rank := self.Dim()
	if len(size) < rank {
		return shapeView{}, unbox.ArgError(i, name, "%d sizes for a rank-%d tensor; expand needs at least as many", len(size), rank)
	}
	if len(size) > executor.MaxRank {
		return shapeView{}, unbox.ArgError(i, name, "%d dimensions exceed the limit of %d", len(size), executor.MaxRank)
	}
	lead := len(size) - rank
	v := shapeView{sizes: make([]int, len(size)), strides: make([]int, len(size))}
	for k, s := range size {
		if k < lead {
			if s < 0 {
				return shapeView{}, unbox.ArgError(i, name, "size %d is not allowed in a new leading dimension %d", s, k)
			}
			v.sizes[k] = int(s)
			continue
		}
		d := k - lead
		have := self.Size(d)
		switch {
		case s == -1:
			v.sizes[k], v.strides[k] = have, self.Strides()[d]
		case s < 0:
			return shapeView{}, unbox.ArgError(i, name, "invalid size %d at dimension %d", s, k)
		case have == 1:
			v.sizes[k] = int(s)
		case int64(have) != s:
			return shapeView{}, unbox.ArgError(i, name, "the expanded size %d must match the existing size %d at non-singleton dimension %d", s, have, d)
		default:
			v.sizes[k], v.strides[k] = have, self.Strides()[d]
		}
	}
	return v, nil
}
