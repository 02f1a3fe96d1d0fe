package portable

import (
	"math"
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestToCopy(t *testing.T) {
	nan := math.NaN()
	shapeRun(t, "aten::_to_copy.out", []shapeCase{
		{"float to int truncates", []any{tensor(t, []float32{-2.7, 2.7, 0}, 3), false, none, empty(t, executor.Int32, 3)}, []int{3}, []float64{-2, 2, 0}},
		{"int to bool", []any{tensor(t, []int64{3, 0, -1}, 3), false, none, empty(t, executor.Bool, 3)}, []int{3}, []float64{1, 0, 1}},
		{"bool to float", []any{tensor(t, []bool{true, false}, 2), false, none, empty(t, executor.Float32, 2)}, []int{2}, []float64{1, 0}},
		{"int wraps", []any{tensor(t, []int64{-1, 259}, 2), false, none, empty(t, executor.Uint8, 2)}, []int{2}, []float64{255, 3}},
		{"float32 to float16", []any{tensor(t, []float32{1, 65519, 65520, 1e-8}, 4), false, none, empty(t, executor.Float16, 4)}, []int{4}, []float64{1, 65504, math.Inf(1), 0}},
		{"float32 to bfloat16", []any{tensor(t, []float32{1, 1.00390625, 1.01171875}, 3), false, none, empty(t, executor.BFloat16, 3)}, []int{3}, []float64{1, 1, 1.015625}},
		{"float64 NaN to float32", []any{tensor(t, []float64{nan, 0.1}, 2), false, none, empty(t, executor.Float32, 2)}, []int{2}, []float64{nan, float64(float32(0.1))}},
		{"same dtype", []any{shapeIota(t, 2, 2), false, 0, empty(t, executor.Float32, 2, 2)}, []int{2, 2}, shapeSeq(0, 4)},
		{"empty", []any{tensor(t, []int32{}, 0), false, none, empty(t, executor.Float64, 0)}, []int{0}, nil},
		{"dynamic", []any{tensor(t, []int16{1, 2}, 2), false, none, dynamic(t, executor.Int64, 5)}, []int{2}, []float64{1, 2}},
	})
}

func TestToCopyExact(t *testing.T) {
	// int64 -> float32 rounds once (through float64 it would round twice and give 2^60).
	out := empty(t, executor.Float32, 1)
	if err := call(t, "aten::_to_copy.out", tensor(t, []int64{1<<60 + 1<<36 + 1}, 1), false, none, out, out); err != nil {
		t.Fatal(err)
	}
	if got := executor.Data[float32](out)[0]; got != float32(1<<60+1<<37) {
		t.Fatalf("got %v", got)
	}
	// int64 -> int64 keeps values beyond 2^53.
	big := []int64{1<<53 + 1, math.MinInt64}
	io := empty(t, executor.Int64, 2)
	if err := call(t, "aten::_to_copy.out", tensor(t, big, 2), false, none, io, io); err != nil {
		t.Fatal(err)
	}
	if got, _ := executor.Values[int64](io); !slices.Equal(got, big) {
		t.Fatalf("got %v", got)
	}
}

func TestToCopyErrors(t *testing.T) {
	x := shapeIota(t, 2)
	wantErr(t, call(t, "aten::_to_copy.out", x, false, none, empty(t, executor.Int32, 3), none), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::_to_copy.out", x, false, 3, empty(t, executor.Int32, 2), none), "memory format 3")
	wantErr(t, call(t, "aten::_to_copy.out", x, 0, none, empty(t, executor.Int32, 2), none), "argument 1 (non_blocking): want Bool")
	wantErr(t, call(t, "aten::_to_copy.out", x, true, none, empty(t, executor.Int32, 2), none), "argument 1 (non_blocking): must be false")
	wantErr(t, call(t, "aten::_to_copy.out", x, false, none, empty(t, executor.Int32, 2)), "4 arguments")
}
