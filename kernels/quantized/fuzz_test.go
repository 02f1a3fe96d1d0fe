package quantized_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/quantized"
)

// argReader turns fuzz bytes into a kernel call: the operator, then each argument's kind and
// value, tensors of any dtype, rank and sizes (some dynamic), filled from the bytes.
type argReader struct{ b []byte }

func (r *argReader) byte() byte {
	if len(r.b) == 0 {
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

var fuzzInts = []int64{0, 1, -1, 2, 3, 7, -8, 127, -128, 255, 256, 32767, -32768, 65535, math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64, 1 << 40}
var fuzzDoubles = []float64{0, 1, -1, 0.5, 1e-3, 1e-40, 3e38, 1e300, math.Inf(1), math.Inf(-1), math.NaN(), math.Copysign(0, -1)}
var fuzzTypes = []executor.ScalarType{executor.Uint8, executor.Int8, executor.Int16, executor.Uint16, executor.Int32, executor.Int64,
	executor.Float16, executor.Float32, executor.Float64, executor.BFloat16, executor.Bool}

func (r *argReader) tensor() *executor.Tensor {
	dtype := fuzzTypes[int(r.byte())%len(fuzzTypes)]
	rank := int(r.byte() % 4)
	sizes := make([]int, rank)
	for i := range sizes {
		sizes[i] = int(r.byte() % 6)
	}
	var t *executor.Tensor
	var err error
	if r.byte()%4 == 0 {
		up := make([]int, rank)
		for i, s := range sizes {
			up[i] = s + int(r.byte()%3)
		}
		t, err = executor.NewDynamicTensor(dtype, up...)
	} else {
		t, err = executor.NewTensor(dtype, sizes...)
	}
	if err != nil {
		return nil
	}
	b := t.Bytes()
	for i := range b {
		b[i] = r.byte()
	}
	if dtype == executor.Bool {
		for i := range b {
			b[i] &= 1
		}
	}
	return t
}

func (r *argReader) value(prev []*executor.EValue) *executor.EValue {
	switch r.byte() % 8 {
	case 0:
		return &executor.EValue{Tag: executor.TagNone}
	case 1:
		return &executor.EValue{Tag: executor.TagInt, Int: fuzzInts[int(r.byte())%len(fuzzInts)]}
	case 2:
		return &executor.EValue{Tag: executor.TagInt, Int: int64(int8(r.byte()))}
	case 3:
		return &executor.EValue{Tag: executor.TagDouble, Double: fuzzDoubles[int(r.byte())%len(fuzzDoubles)]}
	case 4:
		return &executor.EValue{Tag: executor.TagBool, Bool: r.byte()&1 == 1}
	case 5:
		var refs []*executor.EValue
		for _, p := range prev {
			if p.Tag == executor.TagTensor && r.byte()&1 == 1 {
				refs = append(refs, p)
			}
		}
		return &executor.EValue{Tag: executor.TagTensorList, TensorRefs: refs}
	default:
		if t := r.tensor(); t != nil {
			return &executor.EValue{Tag: executor.TagTensor, Tensor: t}
		}
		return &executor.EValue{Tag: executor.TagNone}
	}
}

// FuzzKernels calls every quantized kernel on arbitrary arguments: a kernel may refuse them
// (with an error wrapping ErrInvalidArgument) but must never panic, and may write only its
// outs.
func FuzzKernels(f *testing.F) {
	kernels := quantized.Kernels()
	for _, c := range validCalls() {
		for op, k := range kernels {
			if k.Name == c.name {
				f.Add(encodeCall(byte(op), c.args))
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		k, args := decodeCall(data)
		err := k.Fn(&executor.KernelContext{Operator: k.Name}, args)
		if err != nil && !errors.Is(err, executor.ErrInvalidArgument) {
			t.Fatalf("%s: error %v does not wrap ErrInvalidArgument", k.Name, err)
		}
	})
}

// encodeCall writes a call in argReader's format, so that the seeds are valid calls the fuzzer
// mutates (a wrong byte then changes one dtype, size, value or argument kind).
func encodeCall(op byte, args []*executor.EValue) []byte {
	b := []byte{op, byte(len(args))}
	for _, a := range args {
		switch a.Tag {
		case executor.TagNone:
			b = append(b, 0)
		case executor.TagInt:
			if k := slices.Index(fuzzInts, a.Int); k >= 0 {
				b = append(b, 1, byte(k))
			} else {
				b = append(b, 2, byte(int8(a.Int)))
			}
		case executor.TagDouble:
			k := slices.IndexFunc(fuzzDoubles, func(d float64) bool { return d == a.Double })
			b = append(b, 3, byte(max(k, 0)))
		case executor.TagBool:
			b = append(b, 4, 0)
		case executor.TagTensorList:
			// Every earlier tensor is offered; the reader takes those marked 1.
			b = append(b, 5)
			for _, p := range args[:slices.Index(args, a)] {
				if p.Tag == executor.TagTensor {
					b = append(b, boolByte(slices.Contains(a.TensorRefs, p)))
				}
			}
		case executor.TagTensor:
			t := a.Tensor
			b = append(b, 6, byte(slices.Index(fuzzTypes, t.ScalarType())), byte(t.Dim()))
			for _, s := range t.Sizes() {
				b = append(b, byte(s))
			}
			b = append(b, 1) // static
			b = append(b, t.Bytes()...)
		}
	}
	return b
}

type fuzzCall struct {
	name string
	args []*executor.EValue
}

// validCalls is one call each kernel accepts (sizes below 6, as argReader reads them).
func validCalls() []fuzzCall {
	T := func(t *executor.Tensor) *executor.EValue { return &executor.EValue{Tag: executor.TagTensor, Tensor: t} }
	I := func(v int64) *executor.EValue { return &executor.EValue{Tag: executor.TagInt, Int: v} }
	D := func(v float64) *executor.EValue { return &executor.EValue{Tag: executor.TagDouble, Double: v} }
	N := &executor.EValue{Tag: executor.TagNone}
	new := func(dt executor.ScalarType, sizes ...int) *executor.Tensor {
		return must(executor.NewTensor(dt, sizes...))
	}
	f32 := func(sizes ...int) *executor.Tensor {
		t := new(executor.Float32, sizes...)
		d := executor.Data[float32](t)
		for i := range d {
			d[i] = float32(i%7) - 2.5
		}
		return t
	}
	u8, i8, f64, i64 := executor.Uint8, executor.Int8, executor.Float64, executor.Int64
	one := func(dt executor.ScalarType, v float64) *executor.Tensor {
		t := new(dt, 1)
		if dt == f64 {
			executor.Data[float64](t)[0] = v
		} else {
			executor.Data[int64](t)[0] = int64(v)
		}
		return t
	}
	ints := func(dt executor.ScalarType, sizes ...int) *executor.Tensor { return new(dt, sizes...) }
	ones := func(sizes ...int) *executor.Tensor {
		t := new(f64, sizes...)
		for i := range executor.Data[float64](t) {
			executor.Data[float64](t)[i] = 0.5
		}
		return t
	}
	ret := func(outs ...*executor.Tensor) []*executor.EValue {
		var v []*executor.EValue
		for _, o := range outs {
			v = append(v, T(o))
		}
		if len(outs) == 1 {
			return append(v, v[0])
		}
		return append(v, &executor.EValue{Tag: executor.TagTensorList, TensorRefs: v})
	}
	emb := func(nbit int, dtypeOut bool) []*executor.EValue {
		a := []*executor.EValue{T(ints(u8, 3, 4*nbit/8)), T(f32(3)), N, I(-8), I(7), T(ints(i64, 2))}
		if dtypeOut {
			a = append(a, N)
		}
		return append(a, ret(new(executor.Float32, 2, 4))...)
	}
	return []fuzzCall{
		{"quantized_decomposed::embedding_byte.out", emb(8, false)},
		{"quantized_decomposed::embedding_byte.dtype_out", emb(8, true)},
		{"quantized_decomposed::embedding_4bit.out", emb(4, false)},
		{"quantized_decomposed::embedding_4bit.dtype_out", emb(4, true)},
		{"quantized_decomposed::embedding_2bit.out", emb(2, false)},
		{"quantized_decomposed::embedding_2bit.dtype_out", emb(2, true)},
		{"quantized_decomposed::quantize_per_tensor.out", append([]*executor.EValue{T(f32(2, 3)), D(0.5), I(1), I(-128), I(127), I(int64(i8))}, ret(new(i8, 2, 3))...)},
		{"quantized_decomposed::quantize_per_tensor.Tensor_out", append([]*executor.EValue{T(f32(2, 3)), T(one(f64, 0.5)), T(one(i64, 1)), I(0), I(255), I(int64(u8))}, ret(new(u8, 2, 3))...)},
		{"quantized_decomposed::quantize_per_channel.out", append([]*executor.EValue{T(f32(2, 3)), T(ones(3)), T(ints(i64, 3)), I(1), I(-128), I(127), I(int64(i8))}, ret(new(i8, 2, 3))...)},
		{"quantized_decomposed::quantize_per_token.out", append([]*executor.EValue{T(f32(2, 3)), T(ones(2, 1)), T(ints(i64, 2, 1)), I(-128), I(127), I(int64(i8))}, ret(new(i8, 2, 3))...)},
		{"quantized_decomposed::dequantize_per_tensor.out", append([]*executor.EValue{T(ints(i8, 2, 3)), D(0.5), I(1), I(-128), I(127), I(int64(i8)), N}, ret(new(executor.Float32, 2, 3))...)},
		{"quantized_decomposed::dequantize_per_tensor.Tensor_out", append([]*executor.EValue{T(ints(u8, 2, 3)), T(one(f64, 0.5)), T(one(i64, 1)), I(0), I(255), I(int64(u8)), N}, ret(new(executor.Float32, 2, 3))...)},
		{"quantized_decomposed::dequantize_per_channel.out", append([]*executor.EValue{T(ints(i8, 2, 3)), T(ones(3)), T(ints(i64, 3)), I(1), I(-128), I(127), I(int64(i8)), N}, ret(new(executor.Float32, 2, 3))...)},
		{"quantized_decomposed::dequantize_per_token.out", append([]*executor.EValue{T(ints(i8, 2, 3)), T(ones(2, 1)), T(ints(i64, 2, 1)), I(-128), I(127), I(int64(i8)), I(int64(executor.Float32))}, ret(new(executor.Float32, 2, 3))...)},
		{"quantized_decomposed::choose_qparams.Tensor_out", append([]*executor.EValue{T(f32(2, 3)), I(-128), I(127), D(1e-3), I(int64(i8))}, ret(new(f64, 1), new(i64, 1))...)},
		{"quantized_decomposed::choose_qparams_per_token_asymmetric.out", append([]*executor.EValue{T(f32(2, 3)), I(int64(i8))}, ret(new(f64, 2, 1), new(i64, 2, 1))...)},
		{"quantized_decomposed::mixed_mm.out", append([]*executor.EValue{T(f32(2, 3)), T(ints(i8, 3, 2)), T(f32(3)), N}, ret(new(executor.Float32, 2, 2))...)},
		{"quantized_decomposed::mixed_linear.out", append([]*executor.EValue{T(f32(2, 4)), T(ints(i8, 3, 4)), T(f32(3, 2)), N, N}, ret(new(executor.Float32, 2, 3))...)},
		{"quantized_decomposed::add.out", append([]*executor.EValue{T(ints(u8, 2, 3)), D(0.5), I(1), I(0), I(255), T(ints(u8, 2, 3)), D(0.5), I(2), I(0), I(255), D(1), I(3), I(0), I(255)}, ret(new(u8, 2, 3))...)},
	}
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// decodeCall reads a call as FuzzKernels does.
func decodeCall(data []byte) (executor.Kernel, []*executor.EValue) {
	kernels := quantized.Kernels()
	r := &argReader{b: data}
	k := kernels[int(r.byte())%len(kernels)]
	n := int(r.byte() % 20)
	args := make([]*executor.EValue, 0, n)
	for range n {
		args = append(args, r.value(args))
	}
	return k, args
}

// TestValidCalls: every kernel has a seed for FuzzKernels, and the seed, as the fuzzer reads
// it, is a call the kernel accepts (so mutations start from the deep paths).
func TestValidCalls(t *testing.T) {
	calls := validCalls()
	for op, k := range quantized.Kernels() {
		i := slices.IndexFunc(calls, func(c fuzzCall) bool { return c.name == k.Name })
		if i < 0 {
			t.Errorf("%s has no valid call", k.Name)
			continue
		}
		dk, args := decodeCall(encodeCall(byte(op), calls[i].args))
		if dk.Name != k.Name {
			t.Fatalf("seed decodes to %s, want %s", dk.Name, k.Name)
		}
		if err := k.Fn(&executor.KernelContext{Operator: k.Name}, args); err != nil {
			t.Errorf("%s: %v", k.Name, err)
		}
	}
}
