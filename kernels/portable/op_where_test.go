package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values were checked with torch.where.
func TestWhere(t *testing.T) {
	const op = "aten::where.self_out"
	compareRun(t, []compareCase{
		{"float32", op, []any{tensor(t, []bool{true, false, true}, 3), tensor(t, []float32{1, 2, 3}, 3), tensor(t, []float32{10, 20, 30}, 3)}, empty(t, executor.Float32, 3), []int{3}, []float64{1, 20, 3}},
		{"uint8 condition", op, []any{tensor(t, []uint8{1, 0, 2}, 3), tensor(t, []float32{1, 2, 3}, 3), tensor(t, []float32{10, 20, 30}, 3)}, empty(t, executor.Float32, 3), []int{3}, []float64{1, 20, 3}},
		{"broadcast condition and 0-d other", op, []any{tensor(t, []bool{true, false}, 2, 1), tensor(t, []float32{1, 2, 3}, 3), tensor(t, []float32{0})}, empty(t, executor.Float32, 2, 3), []int{2, 3}, []float64{1, 2, 3, 0, 0, 0}},
		{"three-way broadcast", op, []any{tensor(t, []bool{true, false}, 2, 1, 1), tensor(t, []float64{1, 2, 3}, 1, 3, 1), tensor(t, []float64{-1, -2}, 1, 1, 2)}, empty(t, executor.Float64, 2, 3, 2), []int{2, 3, 2}, []float64{1, 1, 2, 2, 3, 3, -1, -2, -1, -2, -1, -2}},
		{"float32 attention guard: [1,2,2,1] condition over [1,2,2,3] scores, 0-d self", op, []any{tensor(t, []bool{true, false, false, true}, 1, 2, 2, 1), tensor(t, []float32{0}), tensor(t, []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 1, 2, 2, 3)}, empty(t, executor.Float32, 1, 2, 2, 3), []int{1, 2, 2, 3}, []float64{0, 0, 0, 4, 5, 6, 7, 8, 9, 0, 0, 0}},
		{"float32 with a leading-dim broadcast of self", op, []any{tensor(t, []bool{true, false, true}, 3), tensor(t, []float32{1, 2, 3}, 1, 3), tensor(t, []float32{-1, -2, -3, -4, -5, -6}, 2, 3)}, empty(t, executor.Float32, 2, 3), []int{2, 3}, []float64{1, -2, 3, 1, -5, 3}},
		{"int64 with float32 promotes", op, []any{tensor(t, []bool{true, false}, 2), tensor(t, []int64{1, 2}, 2), tensor(t, []float32{1.5, 2.5}, 2)}, empty(t, executor.Float32, 2), []int{2}, []float64{1, 2.5}},
		{"int32 with 0-d int64 stays int32", op, []any{tensor(t, []bool{true, false}, 2), tensor(t, []int32{1, 2}, 2), tensor(t, []int64{1<<32 + 7})}, empty(t, executor.Int32, 2), []int{2}, []float64{1, 7}},
		{"bool values", op, []any{tensor(t, []bool{true, false}, 2), tensor(t, []bool{false, false}, 2), tensor(t, []bool{true, true}, 2)}, empty(t, executor.Bool, 2), []int{2}, []float64{0, 1}},
		{"float16", op, []any{tensor(t, []bool{false, true}, 2), compareF16(t, []float32{0.5, 1.5}, 2), compareF16(t, []float32{-1, -2}, 2)}, empty(t, executor.Float16, 2), []int{2}, []float64{-1, 1.5}},
		{"empty", op, []any{tensor(t, []bool{}, 0), tensor(t, []float32{1}, 1), tensor(t, []float32{2}, 1)}, empty(t, executor.Float32, 0), []int{0}, []float64{}},
		{"dynamic out", op, []any{tensor(t, []bool{true, false}, 2), tensor(t, []float32{1, 2}, 2), tensor(t, []float32{3, 4}, 2)}, dynamic(t, executor.Float32, 6), []int{2}, []float64{1, 4}},
	})
	c := tensor(t, []bool{true, false}, 2)
	f := tensor(t, []float32{1, 2}, 2)
	wantErr(t, call(t, op, tensor(t, []int32{1, 0}, 2), f, f, empty(t, executor.Float32, 2), none), "argument 0 (condition): want a bool or uint8 tensor, got int32")
	wantErr(t, call(t, op, c, f, f, empty(t, executor.Float64, 2), none), "want the result type float32")
	wantErr(t, call(t, op, c, tensor(t, []int64{1, 2}, 2), f, empty(t, executor.Float64, 2), none), "want the result type float32")
	wantErr(t, call(t, op, tensor(t, []bool{true, false, true}, 3), f, f, empty(t, executor.Float32, 2), none), "do not broadcast")
	wantErr(t, call(t, op, c, f, tensor(t, []float32{1, 2, 3}, 3), empty(t, executor.Float32, 2), none), "do not broadcast")
	wantErr(t, call(t, op, c, f, f, empty(t, executor.Float32, 3), none), "cannot resize a static tensor")
	wantErr(t, call(t, op, c, f, 1.0, empty(t, executor.Float32, 2), none), "argument 2 (other): want Tensor, got Double")
	wantErr(t, call(t, op, c, f, f, empty(t, executor.Float32, 2)), "4 arguments")
}
