package portable

import (
	"fmt"

	"github.com/etgo/etgo/executor"
)

// Shared machinery of the comparison, logical, bitwise, where, maximum/minimum and masked_fill
// kernels. PyTorch casts every operand to the computation type before it compares or combines
// them (an int8 tensor compared with 300 compares with 44; a float16 tensor compared with the
// integer 2049 compares with 2048), so the loaders here round or wrap values to that type.

// compareIntBoolTypes are the dtypes of the bitwise kernels: integral and Bool.
var compareIntBoolTypes = append(append([]executor.ScalarType{}, intTypes...), executor.Bool)

// compareTruth reads t in logical order as booleans (nonzero, NaN included, is true).
func compareTruth(t *executor.Tensor) []bool {
	out := make([]bool, t.Numel())
	if t.ScalarType() == executor.Bool {
		d := executor.Data[bool](t)
		if t.IsContiguous() {
			copy(out, d) // the common case, without a call per element (attention's masks)
			return out
		}
		forEach(t, func(i, o int) { out[i] = d[o] })
		return out
	}
	if isFloat(t.ScalarType()) {
		for i, x := range loadF64(t) {
			out[i] = x != 0
		}
		return out
	}
	for i, x := range loadI64(t) {
		out[i] = x != 0
	}
	return out
}

// compareStoreBool writes booleans (in logical order) into out as 0/1 of out's type.
func compareStoreBool(out *executor.Tensor, v []bool) {
	if out.ScalarType() == executor.Bool {
		d := executor.Data[bool](out)
		if out.IsContiguous() {
			copy(d, v)
			return
		}
		forEach(out, func(i, o int) { d[o] = v[i] })
		return
	}
	r := make([]int64, len(v))
	for i, b := range v {
		if b {
			r[i] = 1
		}
	}
	storeI64(out, r)
}

// compareOp is an elementwise operation evaluated in the computation type: f when it is
// floating, i when it is integral or Bool (nil when the operation has no such form).
type compareOp struct {
	f func(x, y float64) float64
	i func(x, y int64) int64
}

// compareBroadcast sizes out to the broadcast shape of a and b and returns that shape.
func compareBroadcast(a, b, out *executor.Tensor) ([]int, error) {
	shape, err := broadcastShape(a.Sizes(), b.Sizes())
	if err != nil {
		return nil, err
	}
	if err := resize(out, shape); err != nil {
		return nil, err
	}
	return shape, nil
}

// compareApply computes out = op(a, b) with broadcasting, both operands cast to common first,
// the result cast to out's type. The caller has checked that common suits op and out.
func compareApply(a, b, out *executor.Tensor, common executor.ScalarType, op compareOp) error {
	shape, err := compareBroadcast(a, b, out)
	if err != nil {
		return err
	}
	ma, mb := broadcastIndex(a.Sizes(), shape), broadcastIndex(b.Sizes(), shape)
	n := out.Numel()
	if isFloat(common) {
		if op.f == nil {
			return fmt.Errorf("%w: not implemented for %s", executor.ErrInvalidArgument, executor.DTypeName(common))
		}
		x, y := loadCastF64(a, common), loadCastF64(b, common)
		r := make([]float64, n)
		for e := range r {
			r[e] = op.f(at(x, ma, e), at(y, mb, e))
		}
		storeF64(out, r)
		return nil
	}
	if op.i == nil {
		return fmt.Errorf("%w: not implemented for %s", executor.ErrInvalidArgument, executor.DTypeName(common))
	}
	x, y := loadCastI64(a, common), loadCastI64(b, common)
	r := make([]int64, n)
	for e := range r {
		r[e] = op.i(at(x, ma, e), at(y, mb, e))
	}
	storeI64(out, r)
	return nil
}

// compareCheckCast refuses a result type that cannot be cast to out's type (c10's canCast:
// floating to integral or Bool, integral to Bool).
func compareCheckCast(common executor.ScalarType, out *executor.Tensor) error {
	if category(common) > category(out.ScalarType()) {
		return fmt.Errorf("%w: result type %s cannot be cast to out's %s", executor.ErrInvalidArgument,
			executor.DTypeName(common), executor.DTypeName(out.ScalarType()))
	}
	return nil
}

// binaryPair is a binary operator's Tensor and Scalar overloads ("aten::eq.Tensor_out",
// "aten::eq.Scalar_out"), each with its generated unboxer.
type binaryPair struct {
	tensor      string
	unboxTensor unboxFn[selfOtherTensorOutArgs]
	scalar      string
	unboxScalar unboxFn[selfOtherScalarOutArgs]
}

// comparePred is a comparison: its float and integer forms and a float32 form for the fast path.
type comparePred struct {
	f   func(x, y float64) bool
	i   func(x, y int64) bool
	f32 func(x, y float32) bool
}

// compareKernels returns the Tensor_out and Scalar_out kernels of the comparison op (eq, lt, ...):
// the comparison is made in the promoted type of the inputs, and out (usually Bool, any real
// type allowed) receives 0 or 1.
func compareKernels(k binaryPair, p comparePred) []executor.Kernel {
	cop := compareOp{
		f: func(x, y float64) float64 {
			if p.f(x, y) {
				return 1
			}
			return 0
		},
		i: func(x, y int64) int64 {
			if p.i(x, y) {
				return 1
			}
			return 0
		},
	}
	tensorFn := func(ctx *executor.KernelContext, args []*executor.EValue) error {
		u, err := k.unboxTensor(args)
		if err != nil {
			return err
		}
		a, b, out := u.Self, u.Other, u.Out
		common := new(typeState).tensor(a).tensor(b).result()
		if ok, err := compareFastF32(a, b, out, common, p.f32); ok || err != nil {
			return err
		}
		return compareApply(a, b, out, common, cop)
	}
	scalarFn := func(ctx *executor.KernelContext, args []*executor.EValue) error {
		u, err := k.unboxScalar(args)
		if err != nil {
			return err
		}
		a, s, out := u.Self, u.Other, u.Out
		common := new(typeState).tensor(a).scalar(s).result()
		b := scalarTensor(s)
		if ok, err := compareFastF32(a, b, out, common, p.f32); ok || err != nil {
			return err
		}
		return compareApply(a, b, out, common, cop)
	}
	return []executor.Kernel{
		{Name: k.tensor, DTypes: realBoolTypes, Fn: tensorFn},
		{Name: k.scalar, DTypes: realBoolTypes, Fn: scalarFn},
	}
}

// compareFastF32 handles the common case directly: a contiguous float32 self compared in
// float32 with a contiguous float32 other of the same shape or with a single value, into a
// contiguous Bool out. It reports whether it did the work.
func compareFastF32(a, b, out *executor.Tensor, common executor.ScalarType, pred func(x, y float32) bool) (bool, error) {
	if common != executor.Float32 || a.ScalarType() != executor.Float32 || out.ScalarType() != executor.Bool ||
		!a.IsContiguous() || !b.IsContiguous() || !out.IsContiguous() {
		return false, nil
	}
	same := equalShape(a.Sizes(), b.Sizes()) && b.ScalarType() == executor.Float32
	single := b.Numel() == 1 && b.Dim() <= a.Dim()
	if !same && !single {
		return false, nil
	}
	if err := resize(out, a.Sizes()); err != nil {
		return true, err
	}
	x, r := executor.Data[float32](a), executor.Data[bool](out)
	if same {
		y := executor.Data[float32](b)
		for k := range r {
			r[k] = pred(x[k], y[k])
		}
		return true, nil
	}
	y := float32(loadF64(b)[0])
	for k := range r {
		r[k] = pred(x[k], y)
	}
	return true, nil
}

// compareLogicalKernel returns a logical binary kernel (and, or, xor): operands are read as
// booleans, broadcast, and out (any real or Bool type) receives 0 or 1.
func compareLogicalKernel(name string, unbox unboxFn[selfOtherTensorOutArgs], f func(x, y bool) bool) executor.Kernel {
	fn := func(ctx *executor.KernelContext, args []*executor.EValue) error {
		u, err := unbox(args)
		if err != nil {
			return err
		}
		a, b, out := u.Self, u.Other, u.Out
		shape, err := compareBroadcast(a, b, out)
		if err != nil {
			return err
		}
		ma, mb := broadcastIndex(a.Sizes(), shape), broadcastIndex(b.Sizes(), shape)
		x, y := compareTruth(a), compareTruth(b)
		r := make([]bool, out.Numel())
		for e := range r {
			r[e] = f(at(x, ma, e), at(y, mb, e))
		}
		compareStoreBool(out, r)
		return nil
	}
	return executor.Kernel{Name: name, DTypes: realBoolTypes, Fn: fn}
}

// compareBitwiseKernels returns the Tensor_out and Scalar_out kernels of a bitwise binary op:
// integral and Bool operands only, computed in their promoted type.
func compareBitwiseKernels(k binaryPair, f func(x, y int64) int64) []executor.Kernel {
	return compareIntegralKernels(k, true, func(executor.ScalarType) compareOp { return compareOp{i: f} })
}

// compareIntegralKernels returns the Tensor and Scalar kernels of an operator on
// integral (and, with bools, Bool) operands in their promoted type; opFor gives the operation for
// that type. Floating operands are an error.
func compareIntegralKernels(k binaryPair, bools bool, opFor func(common executor.ScalarType) compareOp) []executor.Kernel {
	op := opName(k.tensor)
	check := func(common executor.ScalarType, out *executor.Tensor) error {
		if isFloat(common) || (!bools && common == executor.Bool) {
			what := "integral and bool only"
			if !bools {
				what = "integral only"
			}
			return fmt.Errorf("%w: %s is not implemented for %s operands (%s)",
				executor.ErrInvalidArgument, op, executor.DTypeName(common), what)
		}
		return compareCheckCast(common, out)
	}
	tensorFn := func(ctx *executor.KernelContext, args []*executor.EValue) error {
		u, err := k.unboxTensor(args)
		if err != nil {
			return err
		}
		a, b, out := u.Self, u.Other, u.Out
		common := new(typeState).tensor(a).tensor(b).result()
		if err := check(common, out); err != nil {
			return err
		}
		return compareApply(a, b, out, common, opFor(common))
	}
	scalarFn := func(ctx *executor.KernelContext, args []*executor.EValue) error {
		u, err := k.unboxScalar(args)
		if err != nil {
			return err
		}
		a, s, out := u.Self, u.Other, u.Out
		common := new(typeState).tensor(a).scalar(s).result()
		if err := check(common, out); err != nil {
			return err
		}
		return compareApply(a, scalarTensor(s), out, common, opFor(common))
	}
	types := compareIntBoolTypes
	if !bools {
		types = intTypes
	}
	return []executor.Kernel{
		{Name: k.tensor, DTypes: types, Fn: tensorFn},
		{Name: k.scalar, DTypes: types, Fn: scalarFn},
	}
}

// compareMinMaxKernel returns maximum.out or minimum.out: elementwise in the promoted type,
// NaN propagating. better(x, y) reports whether x is chosen over y.
func compareMinMaxKernel(name string, unbox unboxFn[selfOtherTensorOutArgs], betterF func(x, y float64) bool, betterI func(x, y int64) bool) executor.Kernel {
	mop := compareOp{
		f: func(x, y float64) float64 {
			switch {
			case x != x:
				return x
			case y != y:
				return y
			case betterF(x, y):
				return x
			}
			return y
		},
		i: func(x, y int64) int64 {
			if betterI(x, y) {
				return x
			}
			return y
		},
	}
	fn := func(ctx *executor.KernelContext, args []*executor.EValue) error {
		u, err := unbox(args)
		if err != nil {
			return err
		}
		a, b, out := u.Self, u.Other, u.Out
		common := new(typeState).tensor(a).tensor(b).result()
		if err := compareCheckCast(common, out); err != nil {
			return err
		}
		return compareApply(a, b, out, common, mop)
	}
	return executor.Kernel{Name: name, DTypes: realBoolTypes, Fn: fn}
}

// compareClassifyKernel returns isnan.out or isinf.out: a Bool out, true where f holds; integral
// and Bool inputs are never NaN or infinite.
func compareClassifyKernel(name string, unbox unboxFn[selfOutArgs], f func(float64) bool) executor.Kernel {
	op := opName(name)
	fn := func(ctx *executor.KernelContext, args []*executor.EValue) error {
		u, err := unbox(args)
		if err != nil {
			return err
		}
		a, out := u.Self, u.Out
		if out.ScalarType() != executor.Bool {
			return fmt.Errorf("%w: out is %s, %s needs a bool out", executor.ErrInvalidArgument,
				executor.DTypeName(out.ScalarType()), op)
		}
		if err := resize(out, a.Sizes()); err != nil {
			return err
		}
		r := make([]bool, out.Numel())
		if isFloat(a.ScalarType()) {
			for k, x := range loadF64(a) {
				r[k] = f(x)
			}
		}
		compareStoreBool(out, r)
		return nil
	}
	return executor.Kernel{Name: name, DTypes: realBoolTypes, Fn: fn}
}
