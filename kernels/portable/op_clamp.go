package portable

import (
	"fmt"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(
		executor.Kernel{Name: "aten::clamp.out", DTypes: realBoolTypes, Fn: clampOut},
		executor.Kernel{Name: "aten::clamp.Tensor_out", DTypes: realBoolTypes, Fn: clampTensorOut},
	)
}

func clampNoBounds() error {
	return fmt.Errorf("%w: clamp: at least one of min and max must not be None", executor.ErrInvalidArgument)
}

// aten::clamp.out(Tensor self, Scalar? min=None, Scalar? max=None, *, Tensor(a!) out):
// min(max(self, min), max) in the result type of self and the bounds (so an integral self with
// a floating bound gives a floating result); NaN in self or a bound propagates. A bound must fit
// out's dtype, as ExecuTorch checks.
func clampOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxClampOut(args)
	if err != nil {
		return err
	}
	self, lo, hasLo, hi, hasHi, out := u.Self, u.Min.Val, u.Min.OK, u.Max.Val, u.Max.OK, u.Out
	if !hasLo && !hasHi {
		return clampNoBounds()
	}
	ts := new(typeState).tensor(self)
	for k, b := range []struct {
		s    scalar
		has  bool
		name string
	}{{lo, hasLo, "min"}, {hi, hasHi, "max"}} {
		if !b.has {
			continue
		}
		ts.scalar(b.s)
		if ot := out.ScalarType(); ot != executor.Bool && !arithScalarFits(b.s, ot) {
			return unbox.ArgError(1+k, b.name, "%v is out of range for out's %s", b.s.F, executor.DTypeName(ot))
		}
	}
	common := ts.result()
	if err := arithCheckOut(common, out); err != nil {
		return err
	}
	if err := resize(out, self.Sizes()); err != nil {
		return err
	}
	if isFloat(common) {
		m := arithOpmath(common)
		lf, hf := roundTo(m, lo.F), roundTo(m, hi.F)
		f := func(v float64) float64 {
			if hasLo {
				v = arithMaxNaN(v, lf)
			}
			if hasHi {
				v = arithMinNaN(v, hf)
			}
			return v
		}
		if common == executor.Float32 && self.ScalarType() == executor.Float32 && out.ScalarType() == executor.Float32 &&
			self.IsContiguous() && out.IsContiguous() {
			src, dst := executor.Data[float32](self), executor.Data[float32](out)
			for k, v := range src {
				dst[k] = float32(f(float64(v)))
			}
			return nil
		}
		x := arithLoadF(self, common)
		for k, v := range x {
			x[k] = roundTo(common, f(v))
		}
		storeF64(out, x)
		return nil
	}
	x := arithLoadI(self, common)
	for k, v := range x {
		if hasLo {
			v = max(v, lo.I)
		}
		if hasHi {
			v = min(v, hi.I)
		}
		x[k] = v
	}
	storeI64(out, wrapTo(common, x))
	return nil
}

// aten::clamp.Tensor_out(Tensor self, Tensor? min=None, Tensor? max=None, *, Tensor(a!) out):
// elementwise clamp with broadcasting of self, min and max, in their result type.
func clampTensorOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxClampTensorOut(args)
	if err != nil {
		return err
	}
	self, lo, hi, out := u.Self, u.Min, u.Max, u.Out
	if lo == nil && hi == nil {
		return clampNoBounds()
	}
	ts := new(typeState).tensor(self)
	shape := self.Sizes()
	for _, b := range []*executor.Tensor{lo, hi} {
		if b == nil {
			continue
		}
		ts.tensor(b)
		if shape, err = broadcastShape(shape, b.Sizes()); err != nil {
			return err
		}
	}
	common := ts.result()
	if err := arithCheckOut(common, out); err != nil {
		return err
	}
	if err := resize(out, shape); err != nil {
		return err
	}
	n := out.Numel()
	ms := broadcastIndex(self.Sizes(), shape)
	var ml, mh []int
	if lo != nil {
		ml = broadcastIndex(lo.Sizes(), shape)
	}
	if hi != nil {
		mh = broadcastIndex(hi.Sizes(), shape)
	}
	if isFloat(common) {
		x := arithLoadF(self, common)
		var l, h []float64
		if lo != nil {
			l = arithLoadF(lo, common)
		}
		if hi != nil {
			h = arithLoadF(hi, common)
		}
		r := make([]float64, n)
		for e := range r {
			v := at(x, ms, e)
			if l != nil {
				v = arithMaxNaN(v, at(l, ml, e))
			}
			if h != nil {
				v = arithMinNaN(v, at(h, mh, e))
			}
			r[e] = roundTo(common, v)
		}
		storeF64(out, r)
		return nil
	}
	x := arithLoadI(self, common)
	var l, h []int64
	if lo != nil {
		l = arithLoadI(lo, common)
	}
	if hi != nil {
		h = arithLoadI(hi, common)
	}
	r := make([]int64, n)
	for e := range r {
		v := at(x, ms, e)
		if l != nil {
			v = max(v, at(l, ml, e))
		}
		if h != nil {
			v = min(v, at(h, mh, e))
		}
		r[e] = v
	}
	storeI64(out, wrapTo(common, r))
	return nil
}
