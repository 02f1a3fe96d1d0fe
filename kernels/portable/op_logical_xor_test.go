package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values were checked with torch.logical_xor.
func TestLogicalXor(t *testing.T) {
	nan := float32(math.NaN())
	compareRun(t, []compareCase{
		{"nan is true", "aten::logical_xor.out", []any{tensor(t, []float32{nan, 0, 2, float32(math.Copysign(0, -1))}, 4), tensor(t, []int64{1, 1, 0, 0}, 4)}, empty(t, executor.Bool, 4), []int{4}, []float64{0, 1, 1, 0}},
		{"ints", "aten::logical_xor.out", []any{tensor(t, []int64{1, 0, 2}, 3), tensor(t, []int64{1, 1, 0}, 3)}, empty(t, executor.Bool, 3), []int{3}, []float64{0, 1, 1}},
		{"broadcast into float64", "aten::logical_xor.out", []any{tensor(t, []bool{true}, 1), tensor(t, []uint8{0, 9}, 2)}, empty(t, executor.Float64, 2), []int{2}, []float64{1, 0}},
	})
	b := tensor(t, []bool{true, false}, 2)
	wantErr(t, call(t, "aten::logical_xor.out", b, tensor(t, []bool{true, false, true}, 3), empty(t, executor.Bool, 2), none), "do not broadcast")
}
