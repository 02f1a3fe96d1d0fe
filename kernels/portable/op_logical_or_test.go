package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values were checked with torch.logical_or.
func TestLogicalOr(t *testing.T) {
	nan := float32(math.NaN())
	compareRun(t, []compareCase{
		{"nan is true", "aten::logical_or.out", []any{tensor(t, []float32{nan, 0, 2, float32(math.Copysign(0, -1))}, 4), tensor(t, []int64{1, 0, 0, 0}, 4)}, empty(t, executor.Bool, 4), []int{4}, []float64{1, 0, 1, 0}},
		{"broadcast into int8", "aten::logical_or.out", []any{tensor(t, []int8{0, 0}, 2, 1), tensor(t, []float64{0, 7}, 2)}, empty(t, executor.Int8, 2, 2), []int{2, 2}, []float64{0, 1, 0, 1}},
		{"empty", "aten::logical_or.out", []any{tensor(t, []bool{}, 0), tensor(t, []bool{true}, 1)}, empty(t, executor.Bool, 0), []int{0}, []float64{}},
	})
	b := tensor(t, []bool{true, false}, 2)
	wantErr(t, call(t, "aten::logical_or.out", b, b, empty(t, executor.Bool, 3), none), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::logical_or.out", 1, b, empty(t, executor.Bool, 2), none), "argument 0 (self): want Tensor")
}
