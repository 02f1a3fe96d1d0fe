package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values were checked with torch.bitwise_xor.
func TestBitwiseXor(t *testing.T) {
	compareRun(t, []compareCase{
		{"int32", "aten::bitwise_xor.Tensor_out", []any{tensor(t, []int32{12, 10, -1}, 3), tensor(t, []int32{10, 6, 5}, 3)}, empty(t, executor.Int32, 3), []int{3}, []float64{6, 12, -6}},
		{"int8 with uint8 in int16", "aten::bitwise_xor.Tensor_out", []any{tensor(t, []int8{-1, 2}, 2), tensor(t, []uint8{1, 3}, 2)}, empty(t, executor.Int16, 2), []int{2}, []float64{-2, 1}},
		{"int16 with 0-d int64 stays int16", "aten::bitwise_xor.Tensor_out", []any{tensor(t, []int16{1, 2}, 2), tensor(t, []int64{1<<20 + 3})}, empty(t, executor.Int16, 2), []int{2}, []float64{2, 1}},
		{"scalar 300 wraps to int8", "aten::bitwise_xor.Scalar_out", []any{tensor(t, []int8{5, 6}, 2), 300}, empty(t, executor.Int8, 2), []int{2}, []float64{41, 42}},
		{"bool scalar", "aten::bitwise_xor.Scalar_out", []any{tensor(t, []bool{true, false}, 2), true}, empty(t, executor.Bool, 2), []int{2}, []float64{0, 1}},
	})
	i := tensor(t, []int32{1, 2}, 2)
	wantErr(t, call(t, "aten::bitwise_xor.Scalar_out", i, 0.5, empty(t, executor.Int32, 2), none), "not implemented for float32")
	wantErr(t, call(t, "aten::bitwise_xor.Scalar_out", i, 1, empty(t, executor.Int32, 1), none), "cannot resize a static tensor")
}
