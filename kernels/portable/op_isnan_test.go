package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values were checked with torch.isnan.
func TestIsnan(t *testing.T) {
	const op = "aten::isnan.out"
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	compareRun(t, []compareCase{
		{"float32", op, []any{tensor(t, []float32{1, nan, inf}, 3)}, empty(t, executor.Bool, 3), []int{3}, []float64{0, 1, 0}},
		{"float64 2-d", op, []any{tensor(t, []float64{math.NaN(), 0, -math.Inf(1), math.NaN()}, 2, 2)}, empty(t, executor.Bool, 2, 2), []int{2, 2}, []float64{1, 0, 0, 1}},
		{"float16", op, []any{compareF16(t, []float32{nan, 65504}, 2)}, empty(t, executor.Bool, 2), []int{2}, []float64{1, 0}},
		{"int64 never nan", op, []any{tensor(t, []int64{1, 2}, 2)}, empty(t, executor.Bool, 2), []int{2}, []float64{0, 0}},
		{"empty", op, []any{tensor(t, []float32{}, 0)}, empty(t, executor.Bool, 0), []int{0}, []float64{}},
		{"dynamic out", op, []any{tensor(t, []float32{nan}, 1)}, dynamic(t, executor.Bool, 4), []int{1}, []float64{1}},
	})
	f := tensor(t, []float32{1, 2}, 2)
	wantErr(t, call(t, op, f, empty(t, executor.Float32, 2), none), "needs a bool out")
	wantErr(t, call(t, op, f, empty(t, executor.Bool, 3), none), "cannot resize a static tensor")
	wantErr(t, call(t, op, []int64{1}, empty(t, executor.Bool, 1), none), "argument 0 (self): want Tensor, got IntList")
	wantErr(t, call(t, op, f, empty(t, executor.Bool, 2)), "2 arguments")
}
