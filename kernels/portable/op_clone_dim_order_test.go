package portable

import (
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestCloneDimOrder(t *testing.T) {
	f32 := executor.Float32
	shapeRun(t, "dim_order_ops::_clone_dim_order.out", []shapeCase{
		{"contiguous", []any{shapeIota(t, 2, 1, 4, 8), false, []int64{0, 1, 2, 3}, empty(t, f32, 2, 1, 4, 8)}, []int{2, 1, 4, 8}, shapeSeq(0, 64)},
		{"None", []any{tensor(t, []int64{5, 6}, 2), false, none, empty(t, executor.Int64, 2)}, []int{2}, []float64{5, 6}},
		{"to channels-last", []any{shapeIota(t, 1, 3, 2, 2), false, []int64{0, 2, 3, 1}, shapeOrderedEmpty(t, f32, []int{1, 3, 2, 2}, channelsLast)},
			[]int{1, 3, 2, 2}, shapeSeq(0, 12)},
		{"from channels-last", []any{shapeOrdered(t, shapeIotaF32(12), []int{1, 3, 2, 2}, channelsLast), false, []int64{0, 1, 2, 3}, empty(t, f32, 1, 3, 2, 2)},
			[]int{1, 3, 2, 2}, shapeSeq(0, 12)},
		{"channels-last kept", []any{shapeOrdered(t, shapeIotaF32(12), []int{1, 3, 2, 2}, channelsLast), false, none, shapeOrderedEmpty(t, f32, []int{1, 3, 2, 2}, channelsLast)},
			[]int{1, 3, 2, 2}, shapeSeq(0, 12)},
		{"empty", []any{shapeIota(t, 0), false, none, empty(t, f32, 0)}, []int{0}, nil},
	})
	big := []int64{1<<62 + 1, -3}
	out := empty(t, executor.Int64, 2)
	if err := call(t, "dim_order_ops::_clone_dim_order.out", tensor(t, big, 2), false, none, out, out); err != nil {
		t.Fatal(err)
	}
	if got, _ := executor.Values[int64](out); !slices.Equal(got, big) {
		t.Fatalf("got %v", got)
	}
}

func TestCloneDimOrderErrors(t *testing.T) {
	op := "dim_order_ops::_clone_dim_order.out"
	x := shapeIota(t, 1, 3, 2, 2)
	cl := shapeOrderedEmpty(t, executor.Float32, []int{1, 3, 2, 2}, channelsLast)
	wantErr(t, call(t, op, x, false, []int64{0, 1, 2, 3}, cl, cl), "differs from out's dim order")
	wantErr(t, call(t, op, x, false, none, cl, cl), "None keeps self's dim order")
	wantErr(t, call(t, op, x, false, none, empty(t, executor.Float64, 1, 3, 2, 2), none), "keeps the dtype")
	wantErr(t, call(t, op, x, false, none, empty(t, executor.Float32, 1, 3, 2, 1), none), "cannot resize a static tensor")
}
