package quantized

import (
	"math"
	"slices"

	"github.com/x448/float16"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

// The argument accessors are kernels/unbox's, shared by every kernel library so that a bad
// program is refused in the same words whichever library runs it ("argument 3
// (weight_quant_min): want Int, got Tensor"); this file adds the few readings only these
// kernels need (ScalarType arguments, the return slot, writable outs).

// outArg is an out tensor: it must be writable.
func outArg(args []*executor.EValue, i int, name string) (*executor.Tensor, error) {
	t, err := unbox.TensorArg(args, i, name)
	if err == nil && t.ReadOnly() {
		err = unbox.ArgError(i, name, "is a constant of the program and cannot be written")
	}
	return t, err
}

// dtypeArg is a ScalarType argument (an Int in the program); it must name a type etgo knows.
func dtypeArg(args []*executor.EValue, i int, name string) (executor.ScalarType, error) {
	n, err := unbox.IntArg(args, i, name)
	if err != nil {
		return 0, err
	}
	if n < 0 || n > math.MaxInt8 || executor.ElementSize(executor.ScalarType(n)) == 0 {
		return 0, unbox.ArgError(i, name, "%d is not a scalar type", n)
	}
	return executor.ScalarType(n), nil
}

// optDtypeArg returns (0, false) for None.
func optDtypeArg(args []*executor.EValue, i int, name string) (executor.ScalarType, bool, error) {
	if v, err := unbox.Arg(args, i, name); err != nil || v.IsNone() {
		return 0, false, err
	}
	t, err := dtypeArg(args, i, name)
	return t, err == nil, err
}

// returnSlot checks the last argument: the out tensor again (one out) or a list of the outs.
func returnSlot(args []*executor.EValue, outs ...*executor.Tensor) error {
	i := len(args) - 1
	v, err := unbox.Arg(args, i, "return")
	if err != nil {
		return err
	}
	switch {
	case len(outs) == 1 && v.Tag == executor.TagTensor:
		return nil
	case len(outs) > 1 && v.Tag == executor.TagTensorList && len(v.Tensors()) == len(outs):
		return nil
	case v.IsNone():
		return nil
	}
	return unbox.ArgError(i, "return", "want the out tensor(s), got %s", v.Tag)
}

// resizeOut gives out the sizes the kernel computes, as resize_tensor does (a static out must
// already have them).
func resizeOut(out *executor.Tensor, i int, name string, sizes []int) error {
	if err := out.Resize(sizes); err != nil {
		return unbox.ArgError(i, name, "%v", err)
	}
	return nil
}

// contiguous checks what every kernel that indexes by hand requires.
func contiguous(t *executor.Tensor, i int, name string) error {
	if !t.IsContiguous() {
		return unbox.ArgError(i, name, "must be in contiguous dim order, got %v", t.DimOrder())
	}
	return nil
}

// sameDimOrder checks that an elementwise kernel can walk two tensors in memory order.
func sameDimOrder(a, b *executor.Tensor, i int, name string) error {
	if !slices.Equal(a.DimOrder(), b.DimOrder()) {
		return unbox.ArgError(i, name, "dim order %v differs from the input's %v", b.DimOrder(), a.DimOrder())
	}
	return nil
}

func dtypeName(t executor.ScalarType) string { return executor.DTypeName(t) }

func isFloatType(t executor.ScalarType) bool {
	return t == executor.Float32 || t == executor.Float16 || t == executor.BFloat16
}

// ---- element conversions ----------------------------------------------------------------

// halfBits rounds a float32 to IEEE half bits, to nearest even; a NaN becomes the quiet NaN
// 0x7e00 with its sign, as c10::Half does.
func halfBits(f float32) uint16 {
	if f != f {
		return uint16(math.Float32bits(f)>>16)&0x8000 | 0x7e00
	}
	return float16.Fromfloat32(f).Bits()
}

func halfValue(b uint16) float32 { return float16.Frombits(b).Float32() }

// bf16Bits rounds a float32 to bfloat16 bits, to nearest even; a NaN becomes 0x7fc0, as
// c10::BFloat16 does (whatever its sign).
func bf16Bits(f float32) uint16 {
	if f != f {
		return 0x7fc0
	}
	b := math.Float32bits(f)
	return uint16((b + 0x7fff + (b>>16)&1) >> 16)
}

func bf16Value(b uint16) float32 { return math.Float32frombits(uint32(b) << 16) }

// floats reads a Float32, Float16 or BFloat16 tensor's elements (in memory order) as float32.
func floats(t *executor.Tensor) []float32 {
	switch t.ScalarType() {
	case executor.Float32:
		return executor.Data[float32](t)
	case executor.Float16:
		src := executor.Data[uint16](t)
		out := make([]float32, len(src))
		for i, b := range src {
			out[i] = halfValue(b)
		}
		return out
	case executor.BFloat16:
		src := executor.Data[uint16](t)
		out := make([]float32, len(src))
		for i, b := range src {
			out[i] = bf16Value(b)
		}
		return out
	}
	panic("quantized: floats of a " + dtypeName(t.ScalarType()) + " tensor")
}

// floatStore writes float32 values into a Float32, Float16 or BFloat16 tensor (memory order).
type floatStore struct {
	f32 []float32
	u16 []uint16
	bf  bool
}

func newFloatStore(t *executor.Tensor) floatStore {
	switch t.ScalarType() {
	case executor.Float32:
		return floatStore{f32: executor.Data[float32](t)}
	case executor.Float16:
		return floatStore{u16: executor.Data[uint16](t)}
	case executor.BFloat16:
		return floatStore{u16: executor.Data[uint16](t), bf: true}
	}
	panic("quantized: float store into a " + dtypeName(t.ScalarType()) + " tensor")
}

func (s floatStore) set(i int, v float32) {
	switch {
	case s.f32 != nil:
		s.f32[i] = v
	case s.bf:
		s.u16[i] = bf16Bits(v)
	default:
		s.u16[i] = halfBits(v)
	}
}

// indexValues reads an Int64 or Int32 index tensor's elements (memory order).
func indexValues(t *executor.Tensor) []int64 {
	if t.ScalarType() == executor.Int64 {
		return executor.Data[int64](t)
	}
	src := executor.Data[int32](t)
	out := make([]int64, len(src))
	for i, v := range src {
		out[i] = int64(v)
	}
	return out
}
