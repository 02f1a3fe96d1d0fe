package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestSliceCopy(t *testing.T) {
	f32 := executor.Float32
	x := shapeIota(t, 2, 3, 4)
	shapeRun(t, "aten::slice_copy.Tensor_out", []shapeCase{
		{"negative start, step 2", []any{x, 1, -2, none, 2, empty(t, f32, 2, 1, 4)}, []int{2, 1, 4}, []float64{4, 5, 6, 7, 16, 17, 18, 19}},
		{"step 2 last dim", []any{x, -1, none, none, 2, empty(t, f32, 2, 3, 2)}, []int{2, 3, 2},
			[]float64{0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22}},
		{"clamped start", []any{x, 2, -10, 2, 1, empty(t, f32, 2, 3, 2)}, []int{2, 3, 2},
			[]float64{0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21}},
		{"clamped end, step 3", []any{x, 2, 1, 100, 3, empty(t, f32, 2, 3, 1)}, []int{2, 3, 1}, []float64{1, 5, 9, 13, 17, 21}},
		{"start only", []any{x, 0, 1, none, 1, empty(t, f32, 1, 3, 4)}, []int{1, 3, 4}, shapeSeq(12, 24)},
		{"start past end", []any{x, 2, 5, none, 1, empty(t, f32, 2, 3, 0)}, []int{2, 3, 0}, nil},
		{"start after end", []any{x, 2, 3, 1, 1, empty(t, f32, 2, 3, 0)}, []int{2, 3, 0}, nil},
		{"int64", []any{tensor(t, []int64{1, 2, 3, 4, 5}, 5), 0, 1, -1, 2, empty(t, executor.Int64, 2)}, []int{2}, []float64{2, 4}},
		{"dynamic", []any{x, 1, 0, 2, 1, dynamic(t, f32, 2, 3, 4)}, []int{2, 2, 4},
			[]float64{0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 16, 17, 18, 19}},
		{"channels-last input", []any{shapeOrdered(t, []float32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, []int{1, 3, 2, 2}, channelsLast), 1, 1, none, 1,
			empty(t, f32, 1, 2, 2, 2)}, []int{1, 2, 2, 2}, shapeSeq(4, 12)},
	})
}

func TestSliceCopyErrors(t *testing.T) {
	x := shapeIota(t, 2, 3)
	out := empty(t, executor.Float32, 2, 3)
	wantErr(t, call(t, "aten::slice_copy.Tensor_out", x, 0, none, none, 0, out, out), "step must be positive")
	wantErr(t, call(t, "aten::slice_copy.Tensor_out", x, 2, none, none, 1, out, out), "out of range")
	wantErr(t, call(t, "aten::slice_copy.Tensor_out", tensor(t, []float32{1}), 0, none, none, 1, empty(t, executor.Float32), none), "0-d")
	wantErr(t, call(t, "aten::slice_copy.Tensor_out", x, 1, 1, none, 1, out, out), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::slice_copy.Tensor_out", x, 1, 1.5, none, 1, out, out), "argument 2 (start): want Int")
}
