// Package prim holds ExecuTorch's primitive operators: the symbolic-integer arithmetic
// (executorch_prim::add.Scalar, aten::sym_size.int, …) a program emitted from a graph with
// dynamic shapes runs between its tensor kernels, and the memory ops et_view and et_copy_index.
// Every runtime that loads such programs needs them, whatever its kernel library; ExecuTorch
// links them into the runtime itself (kernels/prim_ops).
//
// Behaviour follows ExecuTorch's, including where it differs from Python: floordiv.int and
// mod.int truncate toward zero (C++ integer division). Division by zero, which is undefined
// there, is an error here.
package prim

import (
	"errors"
	"fmt"
	"math"

	"github.com/etgo/etgo/executor"
)

// Register adds the primitive operators to r.
func Register(r *executor.Registry) error { return r.RegisterKernels(Kernels()...) }

// Kernels returns the primitive operators.
func Kernels() []executor.Kernel {
	k := func(name string, arity int, fn func(args []*executor.EValue) (executor.EValue, error)) executor.Kernel {
		return executor.Kernel{Name: name, Fn: func(ctx *executor.KernelContext, args []*executor.EValue) error {
			if len(args) != arity+1 {
				return ctx.Errorf("%s takes %d arguments and a return slot, got %d values", name, arity, len(args))
			}
			v, err := fn(args[:arity])
			if err != nil {
				return ctx.Errorf("%s: %v", name, err)
			}
			*args[arity] = v
			return nil
		}}
	}
	return []executor.Kernel{
		k("aten::sym_size.int", 2, symSize),
		k("aten::sym_numel", 1, func(a []*executor.EValue) (executor.EValue, error) {
			t, err := tensor(a[0])
			if err != nil {
				return executor.EValue{}, err
			}
			return intValue(int64(t.Numel())), nil
		}),
		k("aten::_local_scalar_dense", 1, localScalarDense),
		k("executorch_prim::sym_max.Scalar", 2, intsOnly(func(a, b int64) int64 { return max(a, b) })),
		k("executorch_prim::sym_min.Scalar", 2, intsOnly(func(a, b int64) int64 { return min(a, b) })),
		k("executorch_prim::add.Scalar", 2, arith(func(a, b int64) int64 { return a + b }, func(a, b float64) float64 { return a + b })),
		k("executorch_prim::sub.Scalar", 2, arith(func(a, b int64) int64 { return a - b }, func(a, b float64) float64 { return a - b })),
		k("executorch_prim::mul.Scalar", 2, arith(func(a, b int64) int64 { return a * b }, func(a, b float64) float64 { return a * b })),
		k("executorch_prim::floordiv.Scalar", 2, floorDiv),
		k("executorch_prim::truediv.Scalar", 2, func(a []*executor.EValue) (executor.EValue, error) {
			x, y, err := doubles(a[0], a[1])
			if err != nil {
				return executor.EValue{}, err
			}
			return doubleValue(x / y), nil
		}),
		k("executorch_prim::sym_float.Scalar", 1, symFloat),
		k("executorch_prim::sym_int.Scalar", 1, symInt),
		k("executorch_prim::eq.Scalar", 2, compare(func(c int) bool { return c == 0 }, true)),
		k("executorch_prim::gt.Scalar", 2, compare(func(c int) bool { return c > 0 }, true)),
		k("executorch_prim::lt.Scalar", 2, compare(func(c int) bool { return c < 0 }, true)),
		k("executorch_prim::ge.Scalar", 2, compare(func(c int) bool { return c >= 0 }, true)),
		k("executorch_prim::le.Scalar", 2, compare(func(c int) bool { return c <= 0 }, true)),
		k("executorch_prim::neg.Scalar", 1, neg),
		k("executorch_prim::sym_not.Scalar", 1, func(a []*executor.EValue) (executor.EValue, error) {
			if a[0].Tag != executor.TagBool {
				return executor.EValue{}, fmt.Errorf("takes a Bool, got %s", a[0].Tag)
			}
			return boolValue(!a[0].Bool), nil
		}),
		k("executorch_prim::sym_ite.Scalar", 3, symIte),
		k("executorch_prim::floordiv.int", 2, intsOnly2(func(a, b int64) int64 { return a / b })),
		k("executorch_prim::mod.int", 2, intsOnly2(func(a, b int64) int64 { return a % b })),
		k("executorch_prim::mod.Scalar", 2, intsOnly2(func(a, b int64) int64 { return a % b })),
		k("executorch_prim::ceil.Scalar", 1, rounding(math.Ceil)),
		k("executorch_prim::round.Scalar", 1, rounding(math.RoundToEven)),
		k("executorch_prim::trunc.Scalar", 1, rounding(math.Trunc)),
		{Name: "executorch_prim::et_view.default", Fn: etView},
		{Name: "executorch_prim::et_copy_index.tensor", Fn: etCopyIndex},
	}
}

func intValue(v int64) executor.EValue { return executor.EValue{Tag: executor.TagInt, Int: v} }
func doubleValue(v float64) executor.EValue {
	return executor.EValue{Tag: executor.TagDouble, Double: v}
}
func boolValue(v bool) executor.EValue { return executor.EValue{Tag: executor.TagBool, Bool: v} }

func tensor(v *executor.EValue) (*executor.Tensor, error) {
	if v.Tag != executor.TagTensor || v.Tensor == nil {
		return nil, fmt.Errorf("takes a Tensor, got %s", v.Tag)
	}
	return v.Tensor, nil
}

func symSize(a []*executor.EValue) (executor.EValue, error) {
	t, err := tensor(a[0])
	if err != nil {
		return executor.EValue{}, err
	}
	if a[1].Tag != executor.TagInt {
		return executor.EValue{}, fmt.Errorf("dim must be an Int, got %s", a[1].Tag)
	}
	d := a[1].Int
	if d < 0 {
		d += int64(t.Dim())
	}
	if d < 0 || d >= int64(t.Dim()) {
		return executor.EValue{}, fmt.Errorf("dim %d out of range for a rank-%d tensor", a[1].Int, t.Dim())
	}
	return intValue(int64(t.Size(int(d)))), nil
}

func localScalarDense(a []*executor.EValue) (executor.EValue, error) {
	t, err := tensor(a[0])
	if err != nil {
		return executor.EValue{}, err
	}
	if t.Numel() < 1 {
		return executor.EValue{}, errors.New("takes a tensor with at least one element")
	}
	switch t.ScalarType() {
	case executor.Float32:
		return doubleValue(float64(executor.Data[float32](t)[0])), nil
	case executor.Float64:
		return doubleValue(executor.Data[float64](t)[0]), nil
	case executor.Int64:
		return intValue(executor.Data[int64](t)[0]), nil
	case executor.Int32:
		return intValue(int64(executor.Data[int32](t)[0])), nil
	case executor.Int16:
		return intValue(int64(executor.Data[int16](t)[0])), nil
	case executor.Int8:
		return intValue(int64(executor.Data[int8](t)[0])), nil
	case executor.Uint8:
		return intValue(int64(executor.Data[uint8](t)[0])), nil
	case executor.Bool:
		return boolValue(executor.Data[bool](t)[0]), nil
	}
	return executor.EValue{}, fmt.Errorf("no kernel for %s tensors", executor.DTypeName(t.ScalarType()))
}

// number reads an Int or Double operand.
func number(v *executor.EValue) (i int64, f float64, isInt bool, err error) {
	switch v.Tag {
	case executor.TagInt:
		return v.Int, float64(v.Int), true, nil
	case executor.TagDouble:
		return 0, v.Double, false, nil
	}
	return 0, 0, false, fmt.Errorf("takes an Int or a Double, got %s", v.Tag)
}

func doubles(a, b *executor.EValue) (float64, float64, error) {
	_, x, _, err := number(a)
	if err != nil {
		return 0, 0, err
	}
	_, y, _, err := number(b)
	return x, y, err
}

// arith: Int op Int is an Int; any Double makes it a Double.
func arith(fi func(a, b int64) int64, ff func(a, b float64) float64) func([]*executor.EValue) (executor.EValue, error) {
	return func(a []*executor.EValue) (executor.EValue, error) {
		ai, af, aInt, err := number(a[0])
		if err != nil {
			return executor.EValue{}, err
		}
		bi, bf, bInt, err := number(a[1])
		if err != nil {
			return executor.EValue{}, err
		}
		if aInt && bInt {
			return intValue(fi(ai, bi)), nil
		}
		return doubleValue(ff(af, bf)), nil
	}
}

func intsOnly(f func(a, b int64) int64) func([]*executor.EValue) (executor.EValue, error) {
	return func(a []*executor.EValue) (executor.EValue, error) {
		if a[0].Tag != executor.TagInt || a[1].Tag != executor.TagInt {
			return executor.EValue{}, fmt.Errorf("takes two Ints, got %s and %s", a[0].Tag, a[1].Tag)
		}
		return intValue(f(a[0].Int, a[1].Int)), nil
	}
}

// intsOnly2 is intsOnly for a division: a zero divisor is an error (undefined in C++).
func intsOnly2(f func(a, b int64) int64) func([]*executor.EValue) (executor.EValue, error) {
	g := intsOnly(f)
	return func(a []*executor.EValue) (executor.EValue, error) {
		if a[1].Tag == executor.TagInt && a[1].Int == 0 {
			return executor.EValue{}, errors.New("integer division by zero")
		}
		return g(a)
	}
}

// floorDiv is Python's //: for Ints, the quotient rounded toward negative infinity; for
// Doubles, (a - fmod(a, b)) / b adjusted by one when the remainder's sign differs from b's, and
// ±Inf (a's sign) for b = 0.
func floorDiv(a []*executor.EValue) (executor.EValue, error) {
	ai, af, aInt, err := number(a[0])
	if err != nil {
		return executor.EValue{}, err
	}
	bi, bf, bInt, err := number(a[1])
	if err != nil {
		return executor.EValue{}, err
	}
	if aInt && bInt {
		if bi == 0 {
			return executor.EValue{}, errors.New("integer division by zero")
		}
		q := ai / bi
		if (ai < 0) != (bi < 0) && ai%bi != 0 {
			q--
		}
		return intValue(q), nil
	}
	if bf == 0 {
		if math.Signbit(af) {
			return doubleValue(math.Inf(-1)), nil
		}
		return doubleValue(math.Inf(1)), nil
	}
	mod := math.Mod(af, bf)
	div := (af - mod) / bf
	if mod != 0 && math.Signbit(bf) != math.Signbit(mod) {
		div--
	}
	return doubleValue(div), nil
}

func symFloat(a []*executor.EValue) (executor.EValue, error) {
	switch a[0].Tag {
	case executor.TagInt:
		return doubleValue(float64(a[0].Int)), nil
	case executor.TagDouble:
		return doubleValue(a[0].Double), nil
	case executor.TagBool:
		if a[0].Bool {
			return doubleValue(1), nil
		}
		return doubleValue(0), nil
	}
	return executor.EValue{}, fmt.Errorf("takes an Int, Double or Bool, got %s", a[0].Tag)
}

func symInt(a []*executor.EValue) (executor.EValue, error) {
	switch a[0].Tag {
	case executor.TagInt:
		return intValue(a[0].Int), nil
	case executor.TagDouble:
		return toInt(a[0].Double)
	case executor.TagBool:
		if a[0].Bool {
			return intValue(1), nil
		}
		return intValue(0), nil
	}
	return executor.EValue{}, fmt.Errorf("takes an Int, Double or Bool, got %s", a[0].Tag)
}

// toInt truncates a double to an Int; NaN and values outside int64 are errors (undefined in C++).
func toInt(f float64) (executor.EValue, error) {
	if math.IsNaN(f) || f >= math.MaxInt64 || f < math.MinInt64 {
		return executor.EValue{}, fmt.Errorf("%g does not fit an Int", f)
	}
	return intValue(int64(f)), nil
}

// compare orders two numbers (or, when bools is set, two Bools: false < true).
func compare(ok func(c int) bool, bools bool) func([]*executor.EValue) (executor.EValue, error) {
	return func(a []*executor.EValue) (executor.EValue, error) {
		if bools && a[0].Tag == executor.TagBool && a[1].Tag == executor.TagBool {
			x, y := b2i(a[0].Bool), b2i(a[1].Bool)
			return boolValue(ok(cmpInt(x, y))), nil
		}
		ai, af, aInt, err := number(a[0])
		if err != nil {
			return executor.EValue{}, err
		}
		bi, bf, bInt, err := number(a[1])
		if err != nil {
			return executor.EValue{}, err
		}
		if aInt && bInt {
			return boolValue(ok(cmpInt(ai, bi))), nil
		}
		switch {
		case af < bf:
			return boolValue(ok(-1)), nil
		case af > bf:
			return boolValue(ok(1)), nil
		case af == bf:
			return boolValue(ok(0)), nil
		}
		return boolValue(false), nil // NaN: every comparison is false
	}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func neg(a []*executor.EValue) (executor.EValue, error) {
	switch a[0].Tag {
	case executor.TagInt:
		return intValue(-a[0].Int), nil
	case executor.TagDouble:
		return doubleValue(-a[0].Double), nil
	}
	return executor.EValue{}, fmt.Errorf("takes an Int or a Double, got %s", a[0].Tag)
}

func symIte(a []*executor.EValue) (executor.EValue, error) {
	if a[0].Tag != executor.TagBool {
		return executor.EValue{}, fmt.Errorf("condition must be a Bool, got %s", a[0].Tag)
	}
	v := a[2]
	if a[0].Bool {
		v = a[1]
	}
	switch v.Tag {
	case executor.TagInt, executor.TagDouble, executor.TagBool:
		return executor.EValue{Tag: v.Tag, Int: v.Int, Double: v.Double, Bool: v.Bool}, nil
	}
	return executor.EValue{}, fmt.Errorf("values must be Int, Double or Bool, got %s", v.Tag)
}

// rounding applies f to a Double and returns an Int (ExecuTorch takes only Doubles here).
func rounding(f func(float64) float64) func([]*executor.EValue) (executor.EValue, error) {
	return func(a []*executor.EValue) (executor.EValue, error) {
		if a[0].Tag != executor.TagDouble {
			return executor.EValue{}, fmt.Errorf("takes a Double, got %s", a[0].Tag)
		}
		return toInt(f(a[0].Double))
	}
}

// etView: et_view(Tensor self, int[] size) -> Tensor, the view whose shape is only known at run
// time. At most one size may be -1 (inferred, not alongside a 0); the out tensor is resized and
// shares self's memory.
func etView(ctx *executor.KernelContext, args []*executor.EValue) error {
	if len(args) != 3 {
		return ctx.Errorf("et_view takes self, size and out, got %d values", len(args))
	}
	self, err := tensor(args[0])
	if err != nil {
		return ctx.Errorf("et_view self: %v", err)
	}
	out, err := tensor(args[2])
	if err != nil {
		return ctx.Errorf("et_view out: %v", err)
	}
	if args[1].Tag != executor.TagIntList {
		return ctx.Errorf("et_view size must be an IntList, got %s", args[1].Tag)
	}
	size := args[1].Ints()
	if len(size) != out.Dim() {
		return ctx.Errorf("et_view size %v has %d dims, out has %d", size, len(size), out.Dim())
	}
	sizes := make([]int, len(size))
	infer, known, zeros := -1, int64(1), 0
	for i, s := range size {
		switch {
		case s == -1:
			if infer >= 0 {
				return ctx.Errorf("et_view size %v: at most one dim can be -1", size)
			}
			infer = i
		case s < 0:
			return ctx.Errorf("et_view size %v: negative size", size)
		case s == 0:
			zeros++
		case known > math.MaxInt64/s:
			return ctx.Errorf("et_view size %v: more elements than any tensor holds", size)
		default:
			known *= s
			sizes[i] = int(s)
		}
	}
	if infer >= 0 {
		if zeros > 0 {
			return ctx.Errorf("et_view size %v: cannot infer a dim alongside a zero dim", size)
		}
		sizes[infer] = self.Numel() / int(known)
	}
	if err := out.ViewOf(self, sizes); err != nil {
		return ctx.Errorf("et_view: %v", err)
	}
	return nil
}

// etCopyIndex: et_copy_index(Tensor copy_to, Tensor copy_from, int index) writes copy_from as
// row index of copy_to, growing copy_to's first dim to index+1 (how a loop's stacked outputs
// are built).
func etCopyIndex(ctx *executor.KernelContext, args []*executor.EValue) error {
	if len(args) != 3 {
		return ctx.Errorf("et_copy_index takes copy_to, copy_from and index, got %d values", len(args))
	}
	to, err := tensor(args[0])
	if err != nil {
		return ctx.Errorf("et_copy_index copy_to: %v", err)
	}
	from, err := tensor(args[1])
	if err != nil {
		return ctx.Errorf("et_copy_index copy_from: %v", err)
	}
	if args[2].Tag != executor.TagInt {
		return ctx.Errorf("et_copy_index index must be an Int, got %s", args[2].Tag)
	}
	index := args[2].Int
	if index < 0 || index >= math.MaxInt32 {
		return ctx.Errorf("et_copy_index index %d out of range", index)
	}
	if to.ScalarType() != from.ScalarType() {
		return ctx.Errorf("et_copy_index copies %s into %s", executor.DTypeName(from.ScalarType()), executor.DTypeName(to.ScalarType()))
	}
	if to.Dim() != from.Dim()+1 {
		return ctx.Errorf("et_copy_index ranks of copy_to (%d) and copy_from (%d) must differ by one", to.Dim(), from.Dim())
	}
	sizes := make([]int, to.Dim())
	sizes[0] = int(index) + 1
	for i, s := range from.Sizes() {
		if to.Size(i+1) != s {
			return ctx.Errorf("et_copy_index copy_to %v and copy_from %v differ in shape", to.Sizes(), from.Sizes())
		}
		sizes[i+1] = s
	}
	if err := to.Resize(sizes); err != nil {
		return ctx.Errorf("et_copy_index: %v", err)
	}
	if to.ReadOnly() {
		return ctx.Errorf("et_copy_index copy_to is a constant")
	}
	if !to.IsContiguous() || !from.IsContiguous() {
		return ctx.Errorf("et_copy_index needs contiguous tensors")
	}
	row := from.Bytes()
	dst := to.Bytes()
	off := int(index) * len(row)
	if off+len(row) > len(dst) {
		return ctx.Errorf("et_copy_index row %d does not fit copy_to %v", index, to.Sizes())
	}
	copy(dst[off:], row)
	return nil
}
