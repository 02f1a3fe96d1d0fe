package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values were checked with torch.logical_and.
func TestLogicalAnd(t *testing.T) {
	nan := float32(math.NaN())
	compareRun(t, []compareCase{
		{"nan is true", "aten::logical_and.out", []any{tensor(t, []float32{nan, 0, 2, float32(math.Copysign(0, -1))}, 4), tensor(t, []int64{1, 1, 0, 1}, 4)}, empty(t, executor.Bool, 4), []int{4}, []float64{1, 0, 0, 0}},
		{"float out", "aten::logical_and.out", []any{tensor(t, []int32{3, 0}, 2), tensor(t, []int32{-1, -1}, 2)}, empty(t, executor.Float32, 2), []int{2}, []float64{1, 0}},
		{"broadcast", "aten::logical_and.out", []any{tensor(t, []int64{1, 0}, 2, 1), tensor(t, []bool{true, false, true}, 3)}, empty(t, executor.Bool, 2, 3), []int{2, 3}, []float64{1, 0, 1, 0, 0, 0}},
		{"float16", "aten::logical_and.out", []any{compareF16(t, []float32{0.5, 0}, 2), compareF16(t, []float32{1, 1}, 2)}, empty(t, executor.Int64, 2), []int{2}, []float64{1, 0}},
		{"empty", "aten::logical_and.out", []any{tensor(t, []bool{}, 0), tensor(t, []bool{true}, 1)}, empty(t, executor.Bool, 0), []int{0}, []float64{}},
		{"dynamic out", "aten::logical_and.out", []any{tensor(t, []bool{true, true}, 2), tensor(t, []bool{true, false}, 2)}, dynamic(t, executor.Bool, 5), []int{2}, []float64{1, 0}},
	})
	b := tensor(t, []bool{true, false}, 2)
	wantErr(t, call(t, "aten::logical_and.out", b, tensor(t, []bool{true, false, true}, 3), empty(t, executor.Bool, 2), none), "do not broadcast")
	wantErr(t, call(t, "aten::logical_and.out", b, b, empty(t, executor.Bool, 3), none), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::logical_and.out", b, true, empty(t, executor.Bool, 2), none), "argument 1 (other): want Tensor")
	wantErr(t, call(t, "aten::logical_and.out", b, b, empty(t, executor.Bool, 2)), "3 arguments")
}
