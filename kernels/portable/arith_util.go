package portable

import (
	"fmt"
	"math"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

// Shared helpers of the arithmetic family (sub, mul, div, pow, remainder, fmod, the unary math
// and activation ops).

// arithDivZero is the error of integer division, remainder and fmod by zero (PyTorch raises
// ZeroDivisionError; ExecuTorch fails the kernel).
func arithDivZero(op string) error {
	return fmt.Errorf("%w: %s: integer division by zero", executor.ErrInvalidArgument, op)
}

// arithLoadF reads t as float64 in logical order, cast to the type a floating computation type
// common does its math in (arithOpmath), as PyTorch and ExecuTorch convert a Scalar, a 0-d
// tensor or an integral operand before computing.
func arithLoadF(t *executor.Tensor, common executor.ScalarType) []float64 {
	x := loadF64(t)
	if m := arithOpmath(common); t.ScalarType() != m && m != executor.Float64 {
		for i, v := range x {
			x[i] = roundTo(m, v)
		}
	}
	return x
}

// arithLoadI reads t as int64 in logical order, wrapped to the integral computation type.
func arithLoadI(t *executor.Tensor, common executor.ScalarType) []int64 {
	x := loadI64(t)
	if t.ScalarType() != common && common != executor.Int64 {
		x = wrapTo(common, x)
	}
	return x
}

// arithCheckOut refuses a computation type that cannot be cast to out (a floating result into an
// integral out, an integral one into a bool out), as PyTorch's canCast does.
func arithCheckOut(common executor.ScalarType, out *executor.Tensor) error {
	if category(common) > category(out.ScalarType()) {
		return fmt.Errorf("%w: result type %s cannot be cast to out's %s", executor.ErrInvalidArgument,
			executor.DTypeName(common), executor.DTypeName(out.ScalarType()))
	}
	return nil
}

// arithBinary computes out = op(a, b) with broadcasting in the computation type common: operands
// are cast to common first, floating results are rounded to common before the cast to out, and
// integral results wrap in common. op.i may return an error (integer division by zero).
func arithBinary(a, b, out *executor.Tensor, common executor.ScalarType, op binaryOp) error {
	if err := arithCheckOut(common, out); err != nil {
		return err
	}
	shape, err := broadcastShape(a.Sizes(), b.Sizes())
	if err != nil {
		return err
	}
	if err := resize(out, shape); err != nil {
		return err
	}
	ma, mb := broadcastIndex(a.Sizes(), shape), broadcastIndex(b.Sizes(), shape)
	n := out.Numel()
	if isFloat(common) || op.i == nil {
		ct := common
		if !isFloat(ct) {
			ct = executor.Float64
		}
		x, y := arithLoadF(a, ct), arithLoadF(b, ct)
		r := make([]float64, n)
		for e := range r {
			r[e] = roundTo(ct, op.f(at(x, ma, e), at(y, mb, e)))
		}
		storeF64(out, r)
		return nil
	}
	x, y := arithLoadI(a, common), arithLoadI(b, common)
	r := make([]int64, n)
	for e := range r {
		v, err := op.i(at(x, ma, e), at(y, mb, e))
		if err != nil {
			return err
		}
		r[e] = v
	}
	if common != executor.Int64 {
		r = wrapTo(common, r)
	}
	storeI64(out, r)
	return nil
}

// arithSameDType refuses an out whose dtype differs from self's (the ops that keep their input's
// type: neg, abs, floor, the activations, ...).
func arithSameDType(self, out *executor.Tensor) error {
	if self.ScalarType() != out.ScalarType() {
		return fmt.Errorf("%w: out is %s, want self's dtype %s", executor.ErrInvalidArgument,
			executor.DTypeName(out.ScalarType()), executor.DTypeName(self.ScalarType()))
	}
	return nil
}

// arithWantDTypes refuses a self whose dtype is not among ok.
func arithWantDTypes(self *executor.Tensor, ok []executor.ScalarType, what string) error {
	for _, t := range ok {
		if self.ScalarType() == t {
			return nil
		}
	}
	return unbox.ArgError(0, "self", "%s is not supported for %s", what, executor.DTypeName(self.ScalarType()))
}

// arithUnaryKeep computes out = f(self) (floating types) or i(self) (integral types) keeping
// self's dtype; out must have the same dtype. Integral results wrap in that type.
func arithUnaryKeep(self, out *executor.Tensor, f func(float64) float64, i func(int64) int64) error {
	if err := arithSameDType(self, out); err != nil {
		return err
	}
	if err := resize(out, self.Sizes()); err != nil {
		return err
	}
	t := self.ScalarType()
	if t == executor.Float32 && self.IsContiguous() && out.IsContiguous() {
		src, dst := executor.Data[float32](self), executor.Data[float32](out)
		for k, v := range src {
			dst[k] = float32(f(float64(v)))
		}
		return nil
	}
	if isFloat(t) || i == nil {
		x := loadF64(self)
		for k, v := range x {
			x[k] = f(v)
		}
		storeF64(out, x)
		return nil
	}
	x := loadI64(self)
	for k, v := range x {
		x[k] = i(v)
	}
	storeI64(out, wrapTo(t, x))
	return nil
}

// arithUnaryToFloat computes out = f(self) for the ops whose result is floating (exp, log, sin,
// sigmoid, ...). As the official kernels do (unary_ufunc_realhbbf16_to_floathbf16 and
// apply_unitensor_elementwise_fn with get_compute_type), a float64 self computes in float64 (f)
// and every other self -- float32, float16, bfloat16, integral, bool -- in float32 (f32); the
// result is then cast to out, which must be floating.
func arithUnaryToFloat(self, out *executor.Tensor, f func(float64) float64, f32 func(float32) float32) error {
	if !isFloat(out.ScalarType()) {
		return fmt.Errorf("%w: out is %s; this operation produces floating point", executor.ErrInvalidArgument,
			executor.DTypeName(out.ScalarType()))
	}
	if err := resize(out, self.Sizes()); err != nil {
		return err
	}
	if self.ScalarType() == executor.Float64 {
		x := loadF64(self)
		for k, v := range x {
			x[k] = f(v)
		}
		storeF64(out, x)
		return nil
	}
	if self.ScalarType() == executor.Float32 && out.ScalarType() == executor.Float32 && self.IsContiguous() && out.IsContiguous() {
		src, dst := executor.Data[float32](self), executor.Data[float32](out)
		for k, v := range src {
			dst[k] = f32(v)
		}
		return nil
	}
	x := arithLoadF(self, executor.Float32) // exact for every type but float64
	for k, v := range x {
		x[k] = float64(f32(float32(v)))
	}
	storeF64(out, x)
	return nil
}

// arithViaF64 is the float32 form of a libm function f: f in float64, rounded once. That is the
// correctly rounded float32 result (but for double-rounding cases far rarer than 1 in 2^28);
// the official kernels call glibc's float functions (sinf, logf, ...), which are not always
// correctly rounded, so such ops are held to 1 ulp of the official (numerics_test.go).
func arithViaF64(f func(float64) float64) func(float32) float32 {
	return func(x float32) float32 { return float32(f(float64(x))) }
}

// arithF32Op selects the float32 fast-path operation.
type arithF32Op int

const (
	arithF32Mul arithF32Op = iota
	arithF32Sub            // x - y (alpha 1)
	arithF32Div
)

// arithFastF32 computes out = a op b directly on float32 memory when a, b and out are contiguous
// float32 tensors and the broadcast is one of the shapes models use: same shapes, one operand a
// single element, one operand repeating along leading dims ([N,C,H,W] with [W] or [H,W]), or one
// operand constant along trailing dims ([N,T,D] with [N,T,1]). It reports whether it handled the
// call; when it did not, the caller takes the general path (which also produces the errors).
// float32 + - * / are correctly rounded, so the results equal the general path's.
func arithFastF32(a, b, out *executor.Tensor, op arithF32Op) (bool, error) {
	if a.ScalarType() != executor.Float32 || b.ScalarType() != executor.Float32 || out.ScalarType() != executor.Float32 ||
		!a.IsContiguous() || !b.IsContiguous() || !out.IsContiguous() {
		return false, nil
	}
	shape, err := broadcastShape(a.Sizes(), b.Sizes())
	if err != nil {
		return false, nil
	}
	aFull, bFull := equalShape(a.Sizes(), shape), equalShape(b.Sizes(), shape)
	var small []int
	switch {
	case aFull && bFull:
	case aFull:
		small = b.Sizes()
	case bFull:
		small = a.Sizes()
	default:
		return false, nil
	}
	n := 1
	for _, d := range shape {
		n *= d
	}
	inner, outer := 0, 0 // block lengths for the repeat patterns
	if small != nil && n > 0 {
		inner, outer = arithRepeat(small, shape)
		if inner == 0 && outer == 0 {
			return false, nil
		}
	}
	if err := resize(out, shape); err != nil {
		return true, err
	}
	x, y, dst := executor.Data[float32](a), executor.Data[float32](b), executor.Data[float32](out)
	switch {
	case n == 0:
	case small == nil:
		arithF32Loop(op, dst, x, y)
	case inner > 0: // small repeats every inner elements
		for base := 0; base < n; base += inner {
			if aFull {
				arithF32Loop(op, dst[base:base+inner], x[base:base+inner], y)
			} else {
				arithF32Loop(op, dst[base:base+inner], x, y[base:base+inner])
			}
		}
	default: // each element of small covers a block of outer elements
		for k := 0; k < n/outer; k++ {
			base := k * outer
			if aFull {
				arithF32Loop(op, dst[base:base+outer], x[base:base+outer], y[k:k+1])
			} else {
				arithF32Loop(op, dst[base:base+outer], x[k:k+1], y[base:base+outer])
			}
		}
	}
	return true, nil
}

// arithRepeat classifies how a smaller shape broadcasts to a non-empty shape: inner > 0 when
// small (aligned right) equals shape's trailing dims after leading ones, so it repeats every
// inner elements; outer > 0 when small equals shape's leading dims followed by ones, so each of
// its elements covers outer consecutive elements (a single element covers them all). Both zero:
// another pattern.
func arithRepeat(small, shape []int) (inner, outer int) {
	prod := func(d []int) int {
		n := 1
		for _, x := range d {
			n *= x
		}
		return n
	}
	if prod(small) == 1 {
		return 0, prod(shape)
	}
	pad := len(shape) - len(small)
	s := make([]int, len(shape))
	for i := range s {
		s[i] = 1
		if k := i - pad; k >= 0 {
			s[i] = small[k]
		}
	}
	ones := func(d []int) bool {
		for _, x := range d {
			if x != 1 {
				return false
			}
		}
		return true
	}
	p := len(s)
	for p > 0 && s[p-1] == shape[p-1] {
		p--
	}
	if ones(s[:p]) {
		return prod(shape[p:]), 0
	}
	q := 0
	for q < len(s) && s[q] == shape[q] {
		q++
	}
	if ones(s[q:]) {
		return 0, prod(shape[q:])
	}
	return 0, 0
}

// arithF32Loop writes dst[i] = x[i] op y[i], where x or y may hold a single element.
func arithF32Loop(op arithF32Op, dst, x, y []float32) {
	switch {
	case len(x) == 1 && len(dst) != 1:
		c := x[0]
		y = y[:len(dst)]
		switch op {
		case arithF32Mul:
			for i := range dst {
				dst[i] = c * y[i]
			}
		case arithF32Sub:
			for i := range dst {
				dst[i] = c - y[i]
			}
		case arithF32Div:
			for i := range dst {
				dst[i] = c / y[i]
			}
		}
	case len(y) == 1 && len(dst) != 1:
		c := y[0]
		x = x[:len(dst)]
		switch op {
		case arithF32Mul:
			for i := range dst {
				dst[i] = x[i] * c
			}
		case arithF32Sub:
			for i := range dst {
				dst[i] = x[i] - c
			}
		case arithF32Div:
			for i := range dst {
				dst[i] = x[i] / c
			}
		}
	default:
		x, y = x[:len(dst)], y[:len(dst)]
		switch op {
		case arithF32Mul:
			for i := range dst {
				dst[i] = x[i] * y[i]
			}
		case arithF32Sub:
			for i := range dst {
				dst[i] = x[i] - y[i]
			}
		case arithF32Div:
			for i := range dst {
				dst[i] = x[i] / y[i]
			}
		}
	}
}

// arithFastF32Scalar computes out = self op c (or c op self when scalarFirst) for a contiguous
// float32 self and out, c already cast to float32. It reports whether it handled the call.
func arithFastF32Scalar(self, out *executor.Tensor, c float32, op arithF32Op, scalarFirst bool) (bool, error) {
	if self.ScalarType() != executor.Float32 || out.ScalarType() != executor.Float32 ||
		!self.IsContiguous() || !out.IsContiguous() {
		return false, nil
	}
	if err := resize(out, self.Sizes()); err != nil {
		return true, err
	}
	x, dst := executor.Data[float32](self), executor.Data[float32](out)
	if len(dst) == 0 {
		return true, nil
	}
	if scalarFirst {
		arithF32Loop(op, dst, []float32{c}, x)
	} else {
		arithF32Loop(op, dst, x, []float32{c})
	}
	return true, nil
}

// arithIntRange is the range of an integral dtype.
func arithIntRange(t executor.ScalarType) (lo, hi int64) {
	switch t {
	case executor.Bool:
		return 0, 1
	case executor.Uint8:
		return 0, math.MaxUint8
	case executor.Int8:
		return math.MinInt8, math.MaxInt8
	case executor.Int16:
		return math.MinInt16, math.MaxInt16
	case executor.Int32:
		return math.MinInt32, math.MaxInt32
	case executor.Uint16:
		return 0, math.MaxUint16
	case executor.Uint32:
		return 0, math.MaxUint32
	}
	return math.MinInt64, math.MaxInt64
}

// arithScalarFits reports whether a Scalar converts to dtype t without overflow (ExecuTorch's
// check_overflow_scalar_cast): integral types take the scalar truncated toward zero; floating
// types accept any non-finite value and finite values within their range.
func arithScalarFits(s scalar, t executor.ScalarType) bool {
	if isFloat(t) {
		if math.IsInf(s.F, 0) || math.IsNaN(s.F) {
			return true
		}
		var lim float64
		switch t {
		case executor.Float32:
			lim = math.MaxFloat32
		case executor.Float16:
			lim = 65504
		case executor.BFloat16:
			lim = float64(math.Float32frombits(0x7f7f0000))
		default:
			return true
		}
		return math.Abs(s.F) <= lim
	}
	if s.IsFloat && (math.IsNaN(s.F) || math.IsInf(s.F, 0) || s.F >= 0x1p63 || s.F < -0x1p63) {
		return false
	}
	lo, hi := arithIntRange(t)
	return s.I >= lo && s.I <= hi
}

// arithMinNaN and arithMaxNaN are min and max that propagate NaN from either side (PyTorch's
// clamp and hardtanh).
func arithMaxNaN(a, b float64) float64 {
	if a != a {
		return a
	}
	if b != b {
		return b
	}
	if b > a {
		return b
	}
	return a
}

func arithMinNaN(a, b float64) float64 {
	if a != a {
		return a
	}
	if b != b {
		return b
	}
	if b < a {
		return b
	}
	return a
}

// arithOpmath is the type ExecuTorch and PyTorch compute a floating type's math in: float32 for
// float32, float16 and bfloat16, float64 for float64.
func arithOpmath(t executor.ScalarType) executor.ScalarType {
	if t == executor.Float64 {
		return t
	}
	return executor.Float32
}

// arithFloatKernel is a unary op with a floating result (exp, log, sin, ...): any real or bool
// self, a floating out.
func arithFloatKernel(name string, unbox unboxFn[selfOutArgs], f func(float64) float64) executor.Kernel {
	return arithFloatKernel32(name, unbox, f, arithViaF64(f))
}

// arithFloatKernel32 is arithFloatKernel with the float32 computation spelled out, for the ops
// whose official float32 form is arithmetic rather than one libm call (rsqrt, sigmoid).
func arithFloatKernel32(name string, unbox unboxFn[selfOutArgs], f func(float64) float64, f32 func(float32) float32) executor.Kernel {
	return executor.Kernel{Name: name, DTypes: realBoolTypes, Fn: func(ctx *executor.KernelContext, args []*executor.EValue) error {
		a, err := unbox(args)
		if err != nil {
			return err
		}
		return arithUnaryToFloat(a.Self, a.Out, f, f32)
	}}
}

// arithKeepKernel is a unary op that keeps self's dtype (neg, floor, ...): self of one of types,
// out of the same dtype. i computes integral types (nil: only floating types are in types).
func arithKeepKernel(name string, unbox unboxFn[selfOutArgs], types []executor.ScalarType, f func(float64) float64, i func(int64) int64) executor.Kernel {
	return executor.Kernel{Name: name, DTypes: types, Fn: func(ctx *executor.KernelContext, args []*executor.EValue) error {
		a, err := unbox(args)
		if err != nil {
			return err
		}
		if err := arithWantDTypes(a.Self, types, name); err != nil {
			return err
		}
		return arithUnaryKeep(a.Self, a.Out, f, i)
	}}
}
