package portable

import (
	"math"
	"testing"

	"github.com/x448/float16"

	"github.com/etgo/etgo/executor"
)

// compareCase is one call of a compare-family kernel: the operator, its inputs (without out
// and the return slot), the out tensor, and the expected sizes and values of out.
type compareCase struct {
	name  string
	op    string
	in    []any
	out   *executor.Tensor
	sizes []int
	want  []float64
}

// compareRun calls each case's operator, out passed as the out argument and the return slot.
func compareRun(t *testing.T, cases []compareCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := append(append([]any{}, tc.in...), tc.out, tc.out)
			if err := call(t, tc.op, args...); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.sizes, tc.want)
		})
	}
}

func TestCompareRound(t *testing.T) {
	for _, tc := range []struct {
		t    executor.ScalarType
		x    float64
		want float64
	}{
		{executor.Float64, 0.1, 0.1},
		{executor.Float32, 0.1, float64(float32(0.1))},
		{executor.Float16, 2049, 2048},
		{executor.Float16, 0.1, 0.0999755859375},
		{executor.BFloat16, 257, 256},
		{executor.Float32, math.Inf(-1), math.Inf(-1)},
	} {
		if got := roundTo(tc.t, tc.x); got != tc.want {
			t.Errorf("roundTo(%s, %v) = %v, want %v", executor.DTypeName(tc.t), tc.x, got, tc.want)
		}
	}
	for _, tc := range []struct {
		t       executor.ScalarType
		x, want int64
	}{
		{executor.Int8, 300, 44}, {executor.Uint8, -1, 255}, {executor.Int16, 70000, 4464},
		{executor.Int32, 1<<32 + 5, 5}, {executor.Bool, 7, 1}, {executor.Bool, 0, 0},
		{executor.Int64, -1 << 40, -1 << 40}, {executor.Uint16, -1, 65535}, {executor.Uint32, -1, 1<<32 - 1},
	} {
		if got := wrapInt(tc.t, tc.x); got != tc.want {
			t.Errorf("wrapInt(%s, %d) = %d, want %d", executor.DTypeName(tc.t), tc.x, got, tc.want)
		}
	}
}

// compareF16 builds a contiguous float16 tensor.
func compareF16(t testing.TB, v []float32, sizes ...int) *executor.Tensor {
	t.Helper()
	x := empty(t, executor.Float16, sizes...)
	d := executor.Data[uint16](x)
	for i, f := range v {
		d[i] = float16.Fromfloat32(f).Bits()
	}
	return x
}

// compareBF16 builds a contiguous bfloat16 tensor.
func compareBF16(t testing.TB, v []float32, sizes ...int) *executor.Tensor {
	t.Helper()
	x := empty(t, executor.BFloat16, sizes...)
	d := executor.Data[uint16](x)
	for i, f := range v {
		d[i] = toBF16(f)
	}
	return x
}
