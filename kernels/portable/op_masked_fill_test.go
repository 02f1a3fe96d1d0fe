package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values were checked with torch.Tensor.masked_fill, except where noted.
func TestMaskedFill(t *testing.T) {
	const op = "aten::masked_fill.Scalar_out"
	compareRun(t, []compareCase{
		{"float32", op, []any{tensor(t, []float32{1, 2, 3}, 3), tensor(t, []bool{true, false, true}, 3), -1.5}, empty(t, executor.Float32, 3), []int{3}, []float64{-1.5, 2, -1.5}},
		{"int value into float", op, []any{tensor(t, []float64{1, 2}, 2), tensor(t, []bool{false, true}, 2), 7}, empty(t, executor.Float64, 2), []int{2}, []float64{1, 7}},
		{"mask broadcasts self", op, []any{tensor(t, []float32{1, 2}, 2), tensor(t, []bool{true, false}, 2, 1), 9}, empty(t, executor.Float32, 2, 2), []int{2, 2}, []float64{9, 9, 1, 2}},
		{"self broadcasts mask", op, []any{tensor(t, []int32{1, 2, 3, 4}, 2, 2), tensor(t, []bool{false, true}, 2), 0}, empty(t, executor.Int32, 2, 2), []int{2, 2}, []float64{1, 0, 3, 0}},
		{"float value truncates into int64", op, []any{tensor(t, []int64{1, 2, 3}, 3), tensor(t, []bool{true, false, true}, 3), 2.7}, empty(t, executor.Int64, 3), []int{3}, []float64{2, 2, 2}},
		{"negative float value truncates toward zero", op, []any{tensor(t, []int16{1, 2}, 2), tensor(t, []bool{true, false}, 2), -7.9}, empty(t, executor.Int16, 2), []int{2}, []float64{-7, 2}},
		// torch refuses 300 for int8 (overflow); ExecuTorch's portable kernel casts, which wraps.
		{"int8 value wraps (ExecuTorch)", op, []any{tensor(t, []int8{1, 2}, 2), tensor(t, []bool{true, false}, 2), 300}, empty(t, executor.Int8, 2), []int{2}, []float64{44, 2}},
		{"bool self, 0.5 is true", op, []any{tensor(t, []bool{false, false}, 2), tensor(t, []bool{true, false}, 2), 0.5}, empty(t, executor.Bool, 2), []int{2}, []float64{1, 0}},
		{"bool value into int64", op, []any{tensor(t, []int64{1, 2}, 2), tensor(t, []bool{true, false}, 2), true}, empty(t, executor.Int64, 2), []int{2}, []float64{1, 2}},
		{"float16 rounds value", op, []any{compareF16(t, []float32{1, 2}, 2), tensor(t, []bool{true, false}, 2), 0.1}, empty(t, executor.Float16, 2), []int{2}, []float64{0.0999755859375, 2}},
		{"empty", op, []any{tensor(t, []float32{}, 0), tensor(t, []bool{}, 0), 1}, empty(t, executor.Float32, 0), []int{0}, []float64{}},
		{"dynamic out", op, []any{tensor(t, []float32{1, 2}, 2), tensor(t, []bool{true}, 1), 5}, dynamic(t, executor.Float32, 3), []int{2}, []float64{5, 5}},
	})
	f := tensor(t, []float32{1, 2}, 2)
	m := tensor(t, []bool{true, false}, 2)
	wantErr(t, call(t, op, f, tensor(t, []uint8{1, 0}, 2), 1, empty(t, executor.Float32, 2), none), "argument 1 (mask): want a bool tensor, got uint8")
	wantErr(t, call(t, op, f, m, 1, empty(t, executor.Float64, 2), none), "want self's float32")
	wantErr(t, call(t, op, f, tensor(t, []bool{true, false, true}, 3), 1, empty(t, executor.Float32, 2), none), "do not broadcast")
	wantErr(t, call(t, op, f, m, 1, empty(t, executor.Float32, 3), none), "cannot resize a static tensor")
	wantErr(t, call(t, op, f, m, f, empty(t, executor.Float32, 2), none), "argument 2 (value): want a Scalar")
	wantErr(t, call(t, op, f, m, 1, empty(t, executor.Float32, 2)), "4 arguments")
}
