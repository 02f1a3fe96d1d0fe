package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values were checked with torch.maximum.
func TestMaximum(t *testing.T) {
	const op = "aten::maximum.out"
	nan, inf := math.NaN(), math.Inf(1)
	compareRun(t, []compareCase{
		{"float32 nan propagates", op, []any{tensor(t, []float32{1, 5, float32(nan), float32(-inf)}, 4), tensor(t, []float32{2, 3, 0, float32(nan)}, 4)}, empty(t, executor.Float32, 4), []int{4}, []float64{2, 5, nan, nan}},
		{"int64 with float32 promotes", op, []any{tensor(t, []int64{1, 5}, 2), tensor(t, []float32{2.5, float32(nan)}, 2)}, empty(t, executor.Float32, 2), []int{2}, []float64{2.5, nan}},
		{"int8 with 0-d int64 stays int8", op, []any{tensor(t, []int8{1, 50}, 2), tensor(t, []int64{300})}, empty(t, executor.Int8, 2), []int{2}, []float64{44, 50}},
		{"float16 with int64 in float16", op, []any{compareF16(t, []float32{2048}, 1), tensor(t, []int64{2049}, 1)}, empty(t, executor.Float32, 1), []int{1}, []float64{2048}},
		{"int32 into float32 out", op, []any{tensor(t, []int32{1, 5}, 2), tensor(t, []int32{3, 2}, 2)}, empty(t, executor.Float32, 2), []int{2}, []float64{3, 5}},
		{"bool", op, []any{tensor(t, []bool{true, false}, 2), tensor(t, []bool{false, false}, 2)}, empty(t, executor.Bool, 2), []int{2}, []float64{1, 0}},
		{"broadcast", op, []any{tensor(t, []int32{1, 4}, 2, 1), tensor(t, []int32{2, 3, 5}, 3)}, empty(t, executor.Int32, 2, 3), []int{2, 3}, []float64{2, 3, 5, 4, 4, 5}},
		{"empty", op, []any{tensor(t, []float32{}, 0, 3), tensor(t, []float32{1, 2, 3}, 3)}, empty(t, executor.Float32, 0, 3), []int{0, 3}, []float64{}},
		{"dynamic out", op, []any{tensor(t, []float64{1, 2}, 2), tensor(t, []float64{3}, 1)}, dynamic(t, executor.Float64, 4), []int{2}, []float64{3, 3}},
	})
	f := tensor(t, []float32{1, 2}, 2)
	wantErr(t, call(t, op, f, tensor(t, []int64{1, 2}, 2), empty(t, executor.Int64, 2), none), "result type float32 cannot be cast to out's int64")
	wantErr(t, call(t, op, tensor(t, []int64{1, 2}, 2), tensor(t, []int64{1, 2}, 2), empty(t, executor.Bool, 2), none), "cannot be cast")
	wantErr(t, call(t, op, f, tensor(t, []float32{1, 2, 3}, 3), empty(t, executor.Float32, 2), none), "do not broadcast")
	wantErr(t, call(t, op, f, f, empty(t, executor.Float32, 3), none), "cannot resize a static tensor")
	wantErr(t, call(t, op, f, 2, empty(t, executor.Float32, 2), none), "argument 1 (other): want Tensor, got Int")
	wantErr(t, call(t, op, f, f, empty(t, executor.Float32, 2)), "3 arguments")
}
