package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.floor_divide (torch 2.15).
func TestFloorDivide(t *testing.T) {
	compareRun(t, []compareCase{
		{"float32", "aten::floor_divide.out", []any{tensor(t, []float32{7, -7, 7.5, -0.5, 1}, 5), tensor(t, []float32{2, 2, -2, 3, 0}, 5)},
			empty(t, executor.Float32, 5), []int{5}, []float64{3, -4, -4, -1, arithInf}},
		{"int32 rounds down", "aten::floor_divide.out", []any{tensor(t, []int32{7, -7, 7, -1}, 4), tensor(t, []int32{2, 2, -2, 3}, 4)},
			empty(t, executor.Int32, 4), []int{4}, []float64{3, -4, -4, -1}},
		{"int64 by float32 is float32", "aten::floor_divide.out", []any{tensor(t, []int64{7, -7}, 2), tensor(t, []float32{2.5, 2.5}, 2)},
			empty(t, executor.Float32, 2), []int{2}, []float64{2, -3}},
	})
	wantErr(t, call(t, "aten::floor_divide.out", tensor(t, []int32{1}, 1), tensor(t, []int32{0}, 1), empty(t, executor.Int32, 1), none), "division by zero")
	wantErr(t, call(t, "aten::floor_divide.out", tensor(t, []float32{1}, 1), tensor(t, []float32{1}, 1), empty(t, executor.Int32, 1), none), "result type float32 cannot be cast to out's int32")
}
