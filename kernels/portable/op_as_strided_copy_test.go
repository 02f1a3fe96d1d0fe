package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.as_strided_copy (torch 2.15).
func TestAsStridedCopy(t *testing.T) {
	f32 := executor.Float32
	x := shapeIota(t, 12)
	shapeRun(t, "aten::as_strided_copy.out", []shapeCase{
		{"row-major view", []any{x, []int64{2, 3}, []int64{3, 1}, none, empty(t, f32, 2, 3)}, []int{2, 3}, []float64{0, 1, 2, 3, 4, 5}},
		{"transposed with offset", []any{x, []int64{3, 2}, []int64{1, 3}, 1, empty(t, f32, 3, 2)}, []int{3, 2}, []float64{1, 4, 2, 5, 3, 6}},
		{"zero stride", []any{x, []int64{2, 2}, []int64{0, 5}, 2, empty(t, f32, 2, 2)}, []int{2, 2}, []float64{2, 7, 2, 7}},
		{"0-d at the last element", []any{x, []int64{}, []int64{}, 11, empty(t, f32)}, []int{}, []float64{11}},
		{"empty size skips the bounds check", []any{x, []int64{0, 5}, []int64{100, 100}, 20, empty(t, f32, 0, 5)}, []int{0, 5}, nil},
		{"int64 2-d self", []any{tensor(t, []int64{0, 1, 2, 3, 4, 5}, 2, 3), []int64{2, 2}, []int64{1, 2}, none, empty(t, executor.Int64, 2, 2)}, []int{2, 2}, []float64{0, 2, 1, 3}},
		{"bool", []any{tensor(t, []bool{true, false, true, true}, 4), []int64{2}, []int64{2}, 1, empty(t, executor.Bool, 2)}, []int{2}, []float64{0, 1}},
		// The storage of a channels-last tensor is its physical order.
		{"channels-last self", []any{shapeOrdered(t, shapeIotaF32(12), []int{1, 3, 2, 2}, channelsLast), []int64{4}, []int64{3}, 0, empty(t, f32, 4)}, []int{4}, []float64{0, 1, 2, 3}},
		{"channels-last out", []any{x, []int64{1, 3, 2, 2}, []int64{12, 4, 2, 1}, none, shapeOrderedEmpty(t, f32, []int{1, 3, 2, 2}, channelsLast)},
			[]int{1, 3, 2, 2}, shapeSeq(0, 12)},
		{"dynamic out", []any{x, []int64{5}, []int64{2}, 1, dynamic(t, f32, 8)}, []int{5}, []float64{1, 3, 5, 7, 9}},
	})
}

func TestAsStridedCopyErrors(t *testing.T) {
	x := shapeIota(t, 12)
	out := empty(t, executor.Float32, 2, 3)
	op := "aten::as_strided_copy.out"
	wantErr(t, call(t, op, x, []int64{2, 3}, []int64{3, 1}, none, empty(t, executor.Int32, 2, 3), none), "keeps the dtype")
	wantErr(t, call(t, op, x, []int64{2, 3}, []int64{3}, none, out, out), "has 1 entries, size has 2")
	wantErr(t, call(t, op, x, []int64{2, -3}, []int64{3, 1}, none, out, out), "size -3 at dimension 1 is negative")
	wantErr(t, call(t, op, x, []int64{2, 3}, []int64{-3, 1}, none, out, out), "stride -3 at dimension 0 is negative")
	wantErr(t, call(t, op, x, []int64{2, 3}, []int64{3, 1}, -1, out, out), "offset -1 is negative")
	wantErr(t, call(t, op, x, []int64{2, 3}, []int64{3, 1}, 12, out, out), "offset 12 is out of bounds")
	// The last element would be 7 + 3 + 2 = 12.
	wantErr(t, call(t, op, x, []int64{2, 3}, []int64{3, 1}, 7, out, out), "reaches beyond self's 12 elements")
	wantErr(t, call(t, op, x, []int64{2, 3}, []int64{1 << 62, 1}, none, out, out), "reaches beyond")
	wantErr(t, call(t, op, tensor(t, []float32{}, 0), []int64{1}, []int64{1}, none, empty(t, executor.Float32, 1), none), "out of bounds")
	wantErr(t, call(t, op, x, []int64{3, 2}, []int64{2, 1}, none, out, none), "cannot resize a static tensor")
	wantErr(t, call(t, op, x, 2, []int64{3, 1}, none, out, none), "argument 1 (size): want IntList")
	wantErr(t, call(t, op, x, []int64{2, 3}, []int64{3, 1}, none, out), "5 arguments")
}
