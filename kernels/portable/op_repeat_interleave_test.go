package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.repeat_interleave (torch 2.15).
func TestRepeatInterleaveTensor(t *testing.T) {
	i64, i32 := executor.Int64, executor.Int32
	shapeRun(t, "aten::repeat_interleave.Tensor_out", []shapeCase{
		{"int64 with a zero", []any{tensor(t, []int64{2, 0, 3, 1}, 4), none, empty(t, i64, 6)}, []int{6}, []float64{0, 0, 2, 2, 2, 3}},
		{"int32", []any{tensor(t, []int32{1, 2}, 2), none, empty(t, i32, 3)}, []int{3}, []float64{0, 1, 1}},
		{"output_size given", []any{tensor(t, []int64{3}, 1), 3, empty(t, i64, 3)}, []int{3}, []float64{0, 0, 0}},
		{"all zero", []any{tensor(t, []int64{0, 0}, 2), none, dynamic(t, i64, 4)}, []int{0}, nil},
		{"empty repeats", []any{tensor(t, []int64{}, 0), none, empty(t, i64, 0)}, []int{0}, nil},
		{"dynamic out", []any{tensor(t, []int32{0, 1, 0, 2}, 4), none, dynamic(t, i32, 8)}, []int{3}, []float64{1, 3, 3}},
	})
}

func TestRepeatInterleaveTensorErrors(t *testing.T) {
	op := "aten::repeat_interleave.Tensor_out"
	out := dynamic(t, executor.Int64, 8)
	wantErr(t, call(t, op, tensor(t, []int64{1, -1}, 2), none, out, out), "repeats[1] = -1 is negative")
	wantErr(t, call(t, op, tensor(t, []int64{3}), none, out, out), "must be 1-d, got 0 dimensions")
	wantErr(t, call(t, op, tensor(t, []int64{1, 1, 1, 1}, 2, 2), none, out, out), "must be 1-d, got 2 dimensions")
	wantErr(t, call(t, op, tensor(t, []float32{1, 2}, 2), none, out, out), "int64 or int32")
	wantErr(t, call(t, op, tensor(t, []int32{1, 2}, 2), none, out, out), "it must have repeats' dtype int32")
	wantErr(t, call(t, op, tensor(t, []int64{1, 2}, 2), 4, out, out), "output_size 4 differs from the sum of repeats 3")
	wantErr(t, call(t, op, tensor(t, []int64{1 << 40, 1 << 40}, 2), none, out, out), "add up to more than")
	wantErr(t, call(t, op, tensor(t, []int64{5, 5}, 2), none, out, out), "capacity")
	wantErr(t, call(t, op, tensor(t, []int64{1, 2}, 2), none, empty(t, executor.Int64, 2), none), "cannot resize a static tensor")
	wantErr(t, call(t, op, tensor(t, []int64{1, 2}, 2), 3.0, out, out), "argument 1 (output_size): want Int")
	wantErr(t, call(t, op, tensor(t, []int64{1, 2}, 2), none, out), "3 arguments")
}
