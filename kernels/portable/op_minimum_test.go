package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values were checked with torch.minimum.
func TestMinimum(t *testing.T) {
	const op = "aten::minimum.out"
	nan, inf := math.NaN(), math.Inf(1)
	compareRun(t, []compareCase{
		{"float32 nan propagates", op, []any{tensor(t, []float32{1, 5, float32(nan), float32(-inf)}, 4), tensor(t, []float32{2, 3, 0, float32(nan)}, 4)}, empty(t, executor.Float32, 4), []int{4}, []float64{1, 3, nan, nan}},
		{"int8 with 0-d int64 stays int8", op, []any{tensor(t, []int8{1, 50}, 2), tensor(t, []int64{300})}, empty(t, executor.Int8, 2), []int{2}, []float64{1, 44}},
		{"uint8 with int8 in int16", op, []any{tensor(t, []uint8{200, 3}, 2), tensor(t, []int8{-1, 4}, 2)}, empty(t, executor.Int16, 2), []int{2}, []float64{-1, 3}},
		{"bfloat16 broadcast", op, []any{compareBF16(t, []float32{1, -2}, 2, 1), compareBF16(t, []float32{0, float32(-inf)}, 2)}, empty(t, executor.BFloat16, 2, 2), []int{2, 2}, []float64{0, -inf, -2, -inf}},
		{"bool", op, []any{tensor(t, []bool{true, false}, 2), tensor(t, []bool{true, true}, 2)}, empty(t, executor.Bool, 2), []int{2}, []float64{1, 0}},
	})
	f := tensor(t, []float32{1, 2}, 2)
	wantErr(t, call(t, op, f, f, empty(t, executor.Int32, 2), none), "cannot be cast")
	wantErr(t, call(t, op, f, f, empty(t, executor.Float32, 1), none), "cannot resize a static tensor")
}
