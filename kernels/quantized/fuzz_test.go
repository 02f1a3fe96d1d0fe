package quantized_test

import (
	"encoding/binary"
	"errors"
	"math"
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
	seed := func(op byte, vals ...byte) { f.Add(append([]byte{op}, vals...)) }
	for op := range byte(len(quantized.Kernels())) {
		seed(op, 9, 6, 7, 2, 3, 2, 1, 1, 3, 2, 1, 5, 1, 3, 3, 3, 2, 1, 6, 7, 2, 3, 2, 1, 1, 6, 1, 2, 2, 2, 1)
		seed(op, 17, 6, 1, 1, 2, 0, 1, 0, 1, 2, 1, 3, 1, 0, 6, 0, 2, 2, 2, 0, 6, 2, 2, 4, 4, 1)
	}
	kernels := quantized.Kernels()
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &argReader{b: data}
		k := kernels[int(r.byte())%len(kernels)]
		n := int(r.byte() % 20)
		args := make([]*executor.EValue, 0, n)
		for range n {
			args = append(args, r.value(args))
		}
		// The rest of the bytes are extra integer arguments' values, so one byte string can say
		// where a tensor's bytes end.
		if len(r.b) >= 8 && len(args) > 0 && args[0].Tag == executor.TagInt {
			args[0].Int = int64(binary.LittleEndian.Uint64(r.b))
		}
		err := k.Fn(&executor.KernelContext{Operator: k.Name}, args)
		if err != nil && !errors.Is(err, executor.ErrInvalidArgument) {
			t.Fatalf("%s: error %v does not wrap ErrInvalidArgument", k.Name, err)
		}
	})
}
