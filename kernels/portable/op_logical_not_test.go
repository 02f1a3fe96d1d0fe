package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values were checked with torch.logical_not.
func TestLogicalNot(t *testing.T) {
	nan := float32(math.NaN())
	compareRun(t, []compareCase{
		{"float32", "aten::logical_not.out", []any{tensor(t, []float32{nan, 0, float32(math.Copysign(0, -1)), 3}, 4)}, empty(t, executor.Bool, 4), []int{4}, []float64{0, 1, 1, 0}},
		{"int16 into float32", "aten::logical_not.out", []any{tensor(t, []int16{0, -7}, 2)}, empty(t, executor.Float32, 2), []int{2}, []float64{1, 0}},
		{"bool 2-d", "aten::logical_not.out", []any{tensor(t, []bool{true, false, false, true}, 2, 2)}, empty(t, executor.Bool, 2, 2), []int{2, 2}, []float64{0, 1, 1, 0}},
		{"bfloat16", "aten::logical_not.out", []any{compareBF16(t, []float32{0, 0.25}, 2)}, empty(t, executor.Uint8, 2), []int{2}, []float64{1, 0}},
		{"empty", "aten::logical_not.out", []any{tensor(t, []float32{}, 2, 0)}, empty(t, executor.Bool, 2, 0), []int{2, 0}, []float64{}},
		{"dynamic out", "aten::logical_not.out", []any{tensor(t, []int64{0, 1}, 2)}, dynamic(t, executor.Bool, 4), []int{2}, []float64{1, 0}},
	})
	f := tensor(t, []float32{1, 2}, 2)
	wantErr(t, call(t, "aten::logical_not.out", f, empty(t, executor.Bool, 3), none), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::logical_not.out", 1.5, empty(t, executor.Bool, 2), none), "argument 0 (self): want Tensor, got Double")
	wantErr(t, call(t, "aten::logical_not.out", f, empty(t, executor.Bool, 2)), "2 arguments")
}
