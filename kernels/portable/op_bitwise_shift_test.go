package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.bitwise_left_shift / bitwise_right_shift (torch 2.15), including
// shifts by the width or more and by negative amounts.
func TestBitwiseShift(t *testing.T) {
	a := func() *executor.Tensor { return tensor(t, []int32{1, -8, 100, -1, 7}, 5) }
	b := func() *executor.Tensor { return tensor(t, []int32{3, 1, 31, 40, -1}, 5) }
	compareRun(t, []compareCase{
		{"left int32", "aten::bitwise_left_shift.Tensor_out", []any{a(), b()}, empty(t, executor.Int32, 5), []int{5}, []float64{8, -16, 0, 0, 0}},
		{"right int32", "aten::bitwise_right_shift.Tensor_out", []any{a(), b()}, empty(t, executor.Int32, 5), []int{5}, []float64{0, -4, 0, -1, 0}},
		{"left uint8 by scalar wraps", "aten::bitwise_left_shift.Tensor_Scalar_out", []any{tensor(t, []uint8{200, 1, 255}, 3), 3}, empty(t, executor.Uint8, 3), []int{3}, []float64{64, 8, 248}},
		{"right uint8 past the width", "aten::bitwise_right_shift.Tensor_Scalar_out", []any{tensor(t, []uint8{200, 1, 255}, 3), 9}, empty(t, executor.Uint8, 3), []int{3}, []float64{0, 0, 0}},
		{"int8 by int64 promotes", "aten::bitwise_right_shift.Tensor_out", []any{tensor(t, []int8{-128, 64}, 2), tensor(t, []int64{7, 2}, 2)}, empty(t, executor.Int64, 2), []int{2}, []float64{-1, 16}},
		{"broadcast", "aten::bitwise_left_shift.Tensor_out", []any{tensor(t, []int64{1, 2}, 2, 1), tensor(t, []int64{0, 4}, 2)}, empty(t, executor.Int64, 2, 2), []int{2, 2}, []float64{1, 16, 2, 32}},
	})
	out := empty(t, executor.Int64, 1)
	if err := call(t, "aten::bitwise_left_shift.Tensor_out", tensor(t, []int64{1}, 1), tensor(t, []int64{63}, 1), out, out); err != nil {
		t.Fatal(err)
	}
	if v := executor.Data[int64](out)[0]; v != -1<<63 {
		t.Errorf("1 << 63 = %d", v)
	}
	wantErr(t, call(t, "aten::bitwise_left_shift.Tensor_out", tensor(t, []float32{1}, 1), tensor(t, []int32{1}, 1), empty(t, executor.Float32, 1), none), "not implemented for float32")
	wantErr(t, call(t, "aten::bitwise_right_shift.Tensor_out", tensor(t, []bool{true}, 1), tensor(t, []bool{true}, 1), empty(t, executor.Bool, 1), none), "not implemented for bool")
}
