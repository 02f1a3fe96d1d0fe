package portable

import (
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestToDimOrderCopy(t *testing.T) {
	f32 := executor.Float32
	cl := []int64{0, 2, 3, 1}
	shapeRun(t, "dim_order_ops::_to_dim_order_copy.out", []shapeCase{
		{"same order, float to int64", []any{tensor(t, []float32{1.9, -1.9}, 2), false, []int64{0}, empty(t, executor.Int64, 2)}, []int{2}, []float64{1, -1}},
		{"None keeps order", []any{shapeIota(t, 2, 2), false, none, empty(t, executor.Float64, 2, 2)}, []int{2, 2}, shapeSeq(0, 4)},
		{"contiguous int32 to channels-last float32", []any{tensor(t, []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, 1, 3, 2, 2), false, cl,
			shapeOrderedEmpty(t, f32, []int{1, 3, 2, 2}, channelsLast)}, []int{1, 3, 2, 2}, shapeSeq(0, 12)},
		{"channels-last to contiguous", []any{shapeOrdered(t, shapeIotaF32(12), []int{1, 3, 2, 2}, channelsLast), false, []int64{0, 1, 2, 3},
			empty(t, f32, 1, 3, 2, 2)}, []int{1, 3, 2, 2}, shapeSeq(0, 12)},
		{"empty", []any{shapeIota(t, 0, 2), false, none, empty(t, f32, 0, 2)}, []int{0, 2}, nil},
		{"0-d", []any{tensor(t, []bool{true}), false, []int64{}, empty(t, executor.Float32)}, []int{}, []float64{1}},
	})
	// The physical layout of a channels-last out is NHWC.
	out := shapeOrderedEmpty(t, f32, []int{1, 3, 2, 2}, channelsLast)
	if err := call(t, "dim_order_ops::_to_dim_order_copy.out", shapeIota(t, 1, 3, 2, 2), false, cl, out, out); err != nil {
		t.Fatal(err)
	}
	if got := executor.Data[float32](out); !slices.Equal(got, []float32{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}) {
		t.Fatalf("physical %v", got)
	}
}

func TestToDimOrderCopyErrors(t *testing.T) {
	op := "dim_order_ops::_to_dim_order_copy.out"
	x := shapeIota(t, 1, 3, 2, 2)
	cl := shapeOrderedEmpty(t, executor.Float32, []int{1, 3, 2, 2}, channelsLast)
	wantErr(t, call(t, op, x, false, []int64{0, 1, 2, 3}, cl, cl), "differs from out's dim order")
	wantErr(t, call(t, op, x, false, none, cl, cl), "None keeps self's dim order")
	wantErr(t, call(t, op, x, false, []int64{0, 2, 1}, cl, cl), "3 entries for a rank-4")
	wantErr(t, call(t, op, x, false, []int64{0, 1, 2, 3}, empty(t, executor.Float32, 1, 3, 2, 3), none), "cannot resize a static tensor")
	wantErr(t, call(t, op, x, false, 1, cl, cl), "argument 2 (dim_order): want IntList")
	wantErr(t, call(t, op, x, true, []int64{0, 2, 3, 1}, cl, cl), "argument 1 (non_blocking): must be false")
}
