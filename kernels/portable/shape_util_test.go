package portable

import (
	"math"
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

// shapeOrdered returns a tensor with the given sizes, dim order and logical (row-major)
// values. Tensors with a non-default dim order only arise as values of a loaded program, so it
// writes a one-value program, loads it, and takes the method's input.
func shapeOrdered[T executor.Element](t testing.TB, v []T, sizes []int, order []uint8) *executor.Tensor {
	t.Helper()
	x := shapeOrderedEmpty(t, executor.ScalarTypeOf[T](), sizes, order)
	src := tensor(t, v, sizes...)
	shapeWrite(x, src, shapeViewOf(src))
	return x
}

// shapeOrderedEmpty returns a zero tensor with the given dim order.
func shapeOrderedEmpty(t testing.TB, dtype executor.ScalarType, sizes []int, order []uint8) *executor.Tensor {
	t.Helper()
	x, err := executor.NewTensorWithDimOrder(dtype, sizes, order)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// shapeBits returns the raw element bits of a tensor in logical order (exact comparison of
// NaN payloads and large integers).
func shapeBits(t testing.TB, x *executor.Tensor) []uint64 {
	t.Helper()
	c := shapeContiguous(x)
	out := make([]uint64, c.Numel())
	switch executor.ElementSize(c.ScalarType()) {
	case 1:
		for i, v := range executor.Data[uint8](c) {
			out[i] = uint64(v)
		}
	case 2:
		for i, v := range executor.Data[uint16](c) {
			out[i] = uint64(v)
		}
	case 4:
		for i, v := range executor.Data[uint32](c) {
			out[i] = uint64(v)
		}
	case 8:
		copy(out, executor.Data[uint64](c))
	}
	return out
}

func TestShapeOrderedHelper(t *testing.T) {
	x := shapeOrdered(t, []float32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, []int{1, 3, 2, 2}, []uint8{0, 2, 3, 1})
	if !slices.Equal(x.Strides(), []int{12, 1, 6, 3}) {
		t.Fatalf("strides %v", x.Strides())
	}
	// Physical order is channels last: (h, w, c).
	if got := executor.Data[float32](x); !slices.Equal(got, []float32{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}) {
		t.Fatalf("physical %v", got)
	}
	wantValuesAny(t, x, []int{1, 3, 2, 2}, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})
}

func TestShapeCoalesce(t *testing.T) {
	s, a, b := shapeCoalesce([]int{2, 1, 3, 4}, []int{12, 12, 4, 1}, []int{12, 5, 4, 1})
	if !slices.Equal(s, []int{24}) || !slices.Equal(a, []int{1}) || !slices.Equal(b, []int{1}) {
		t.Fatalf("%v %v %v", s, a, b)
	}
	s, a, b = shapeCoalesce([]int{2, 3}, []int{3, 1}, []int{1, 2})
	if !slices.Equal(s, []int{2, 3}) || !slices.Equal(a, []int{3, 1}) || !slices.Equal(b, []int{1, 2}) {
		t.Fatalf("%v %v %v", s, a, b)
	}
}

func TestShapeFillValue(t *testing.T) {
	tests := []struct {
		s     scalar
		dtype executor.ScalarType
		want  float64
		err   bool
	}{
		{scalar{I: 300}, executor.Int8, 0, true},
		{scalar{I: -1}, executor.Uint8, 255, false},
		{scalar{I: -256}, executor.Uint8, 0, true},
		{scalar{F: -0.5, IsFloat: true}, executor.Uint8, 0, true},
		{scalar{F: 2.7, IsFloat: true}, executor.Int32, 2, false},
		{scalar{F: math.NaN(), IsFloat: true}, executor.Int32, 0, true},
		{scalar{F: math.Inf(1), IsFloat: true}, executor.Float16, math.Inf(1), false},
		{scalar{F: 1e6, IsFloat: true}, executor.Float16, 0, true},
		{scalar{F: 1e39, IsFloat: true}, executor.Float32, 0, true},
		{scalar{F: 0.1, IsFloat: true}, executor.Bool, 1, false},
		{scalar{I: 1, IsBool: true}, executor.Float32, 1, false},
	}
	for _, tc := range tests {
		v, err := shapeFillValue(tc.s, tc.dtype, 1, "fill_value")
		if tc.err {
			wantErr(t, err, "overflows")
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		wantValuesAny(t, v, []int{}, []float64{tc.want})
	}
}

// shapeIota returns a contiguous float32 tensor holding 0, 1, 2, ... with the given sizes.
func shapeIota(t testing.TB, sizes ...int) *executor.Tensor {
	t.Helper()
	v := make([]float32, shapeNumel(sizes))
	for i := range v {
		v[i] = float32(i)
	}
	return tensor(t, v, sizes...)
}

// shapeSeq returns lo, lo+1, ..., hi-1.
func shapeSeq(lo, hi int) []float64 {
	v := make([]float64, 0, hi-lo)
	for i := lo; i < hi; i++ {
		v = append(v, float64(i))
	}
	return v
}

// shapeCase is one table row: the schema arguments (the out among them) and the expected out.
type shapeCase struct {
	name  string
	args  []any
	sizes []int
	want  []float64
}

// shapeRun calls op with each case's arguments plus the return slot (the last tensor argument,
// which is the out) and checks the out.
func shapeRun(t *testing.T, op string, cases []shapeCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out *executor.Tensor
			for _, a := range tc.args {
				if x, ok := a.(*executor.Tensor); ok {
					out = x
				}
			}
			if err := call(t, op, append(tc.args, out)...); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, out, tc.sizes, tc.want)
		})
	}
}

// channelsLast is the dim order of a 4-d channels-last tensor.
var channelsLast = []uint8{0, 2, 3, 1}

// shapeWantList checks each tensor of a TensorList out.
func shapeWantList(t *testing.T, outs []*executor.Tensor, sizes [][]int, want [][]float64) {
	t.Helper()
	if len(outs) != len(want) {
		t.Fatalf("%d outs, want %d", len(outs), len(want))
	}
	for k := range outs {
		wantValuesAny(t, outs[k], sizes[k], want[k])
	}
}

// shapeIotaF32 returns 0, 1, ..., n-1 as float32.
func shapeIotaF32(n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(i)
	}
	return v
}
