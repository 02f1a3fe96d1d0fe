package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values were checked with torch.bitwise_and.
func TestBitwiseAnd(t *testing.T) {
	compareRun(t, []compareCase{
		{"int32", "aten::bitwise_and.Tensor_out", []any{tensor(t, []int32{12, 10, -1}, 3), tensor(t, []int32{10, 6, 5}, 3)}, empty(t, executor.Int32, 3), []int{3}, []float64{8, 2, 5}},
		{"int32 into float32 out", "aten::bitwise_and.Tensor_out", []any{tensor(t, []int32{12, 10, -1}, 3), tensor(t, []int32{10, 6, 5}, 3)}, empty(t, executor.Float32, 3), []int{3}, []float64{8, 2, 5}},
		{"int8 with uint8 in int16", "aten::bitwise_and.Tensor_out", []any{tensor(t, []int8{-1, 2}, 2), tensor(t, []uint8{255, 3}, 2)}, empty(t, executor.Int16, 2), []int{2}, []float64{255, 2}},
		{"broadcast", "aten::bitwise_and.Tensor_out", []any{tensor(t, []int64{7, 12}, 2, 1), tensor(t, []int64{1, 4}, 2)}, empty(t, executor.Int64, 2, 2), []int{2, 2}, []float64{1, 4, 0, 4}},
		{"bool", "aten::bitwise_and.Tensor_out", []any{tensor(t, []bool{true, true, false}, 3), tensor(t, []bool{true, false, false}, 3)}, empty(t, executor.Bool, 3), []int{3}, []float64{1, 0, 0}},
		{"empty", "aten::bitwise_and.Tensor_out", []any{tensor(t, []int32{}, 0), tensor(t, []int32{1}, 1)}, empty(t, executor.Int32, 0), []int{0}, []float64{}},
		{"scalar", "aten::bitwise_and.Scalar_out", []any{tensor(t, []int64{5, 6}, 2), 3}, empty(t, executor.Int64, 2), []int{2}, []float64{1, 2}},
		{"scalar 300 wraps to int8", "aten::bitwise_and.Scalar_out", []any{tensor(t, []int8{5, 6}, 2), 300}, empty(t, executor.Int8, 2), []int{2}, []float64{4, 4}},
		{"bool tensor, int scalar", "aten::bitwise_and.Scalar_out", []any{tensor(t, []bool{true, false}, 2), 3}, empty(t, executor.Int64, 2), []int{2}, []float64{1, 0}},
		{"bool tensor, bool scalar", "aten::bitwise_and.Scalar_out", []any{tensor(t, []bool{true, false}, 2), true}, dynamic(t, executor.Bool, 3), []int{2}, []float64{1, 0}},
	})
	i := tensor(t, []int32{1, 2}, 2)
	f := tensor(t, []float32{1, 2}, 2)
	wantErr(t, call(t, "aten::bitwise_and.Tensor_out", f, i, empty(t, executor.Float32, 2), none), "not implemented for float32")
	wantErr(t, call(t, "aten::bitwise_and.Scalar_out", i, 1.5, empty(t, executor.Float32, 2), none), "not implemented for float32")
	wantErr(t, call(t, "aten::bitwise_and.Tensor_out", i, i, empty(t, executor.Bool, 2), none), "cannot be cast")
	wantErr(t, call(t, "aten::bitwise_and.Tensor_out", i, i, empty(t, executor.Int32, 3), none), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::bitwise_and.Tensor_out", i, tensor(t, []int32{1, 2, 3}, 3), empty(t, executor.Int32, 2), none), "do not broadcast")
	wantErr(t, call(t, "aten::bitwise_and.Scalar_out", i, "x", empty(t, executor.Int32, 2), none), "argument 1 (other): want a Scalar")
	wantErr(t, call(t, "aten::bitwise_and.Tensor_out", i, i, empty(t, executor.Int32, 2)), "3 arguments")
}
