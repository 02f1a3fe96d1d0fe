package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values were checked with torch.bitwise_or.
func TestBitwiseOr(t *testing.T) {
	compareRun(t, []compareCase{
		{"int32", "aten::bitwise_or.Tensor_out", []any{tensor(t, []int32{12, 10, -1}, 3), tensor(t, []int32{10, 6, 5}, 3)}, empty(t, executor.Int32, 3), []int{3}, []float64{14, 14, -1}},
		{"broadcast", "aten::bitwise_or.Tensor_out", []any{tensor(t, []int64{1, 2}, 2, 1), tensor(t, []int64{4, 8}, 2)}, empty(t, executor.Int64, 2, 2), []int{2, 2}, []float64{5, 9, 6, 10}},
		{"bool", "aten::bitwise_or.Tensor_out", []any{tensor(t, []bool{true, false}, 2), tensor(t, []bool{false, false}, 2)}, empty(t, executor.Bool, 2), []int{2}, []float64{1, 0}},
		{"scalar 300 wraps to int8", "aten::bitwise_or.Scalar_out", []any{tensor(t, []int8{5, 6}, 2), 300}, empty(t, executor.Int8, 2), []int{2}, []float64{45, 46}},
		{"uint8 scalar", "aten::bitwise_or.Scalar_out", []any{tensor(t, []uint8{0x80, 1}, 2), 0x0f}, empty(t, executor.Uint8, 2), []int{2}, []float64{0x8f, 0x0f}},
	})
	i := tensor(t, []int32{1, 2}, 2)
	wantErr(t, call(t, "aten::bitwise_or.Tensor_out", tensor(t, []float64{1, 2}, 2), i, empty(t, executor.Float64, 2), none), "not implemented for float64")
	wantErr(t, call(t, "aten::bitwise_or.Scalar_out", i, 1, empty(t, executor.Bool, 2), none), "cannot be cast")
}
