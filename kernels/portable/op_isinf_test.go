package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values were checked with torch.isinf.
func TestIsinf(t *testing.T) {
	const op = "aten::isinf.out"
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	compareRun(t, []compareCase{
		{"float32", op, []any{tensor(t, []float32{1, nan, inf, -inf}, 4)}, empty(t, executor.Bool, 4), []int{4}, []float64{0, 0, 1, 1}},
		{"bfloat16", op, []any{compareBF16(t, []float32{1, -inf, nan}, 3)}, empty(t, executor.Bool, 3), []int{3}, []float64{0, 1, 0}},
		{"float64 max is finite", op, []any{tensor(t, []float64{math.MaxFloat64, math.Inf(-1)}, 1, 2)}, empty(t, executor.Bool, 1, 2), []int{1, 2}, []float64{0, 1}},
		{"int32 never inf", op, []any{tensor(t, []int32{math.MaxInt32}, 1)}, empty(t, executor.Bool, 1), []int{1}, []float64{0}},
		{"bool", op, []any{tensor(t, []bool{true}, 1)}, empty(t, executor.Bool, 1), []int{1}, []float64{0}},
	})
	wantErr(t, call(t, op, tensor(t, []float32{1}, 1), empty(t, executor.Uint8, 1), none), "needs a bool out")
	wantErr(t, call(t, op, tensor(t, []float32{1}, 1), empty(t, executor.Bool, 2), none), "cannot resize a static tensor")
}
