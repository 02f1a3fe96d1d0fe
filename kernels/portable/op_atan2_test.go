package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.atan2 (torch 2.15), signed zeros and NaN included.
func TestAtan2(t *testing.T) {
	negZero := float32(0)
	negZero = -negZero
	compareRun(t, []compareCase{
		{"float32 quadrants", "aten::atan2.out", []any{tensor(t, []float32{1, -1, 0, negZero, 3.5, float32(arithNaN)}, 6), tensor(t, []float32{1, -2, -1, -1, 0, 1}, 6)},
			empty(t, executor.Float32, 6), []int{6}, []float64{0.7853981852531433, -2.677945137023926, 3.1415927410125732, -3.1415927410125732, 1.5707963705062866, arithNaN}},
		{"int32 computes in float32", "aten::atan2.out", []any{tensor(t, []int32{1, -3}, 2), tensor(t, []int32{2, 4}, 2)},
			empty(t, executor.Float32, 2), []int{2}, []float64{0.46364760398864746, -0.6435011029243469}},
		{"float64 broadcast", "aten::atan2.out", []any{tensor(t, []float64{1, 2}, 2, 1), tensor(t, []float64{1, -1}, 2)},
			empty(t, executor.Float64, 2, 2), []int{2, 2}, []float64{0.7853981633974483, 2.356194490192345, 1.1071487177940904, 2.0344439357957027}},
	})
	wantErr(t, call(t, "aten::atan2.out", tensor(t, []float32{1}, 1), tensor(t, []float32{1}, 1), empty(t, executor.Int32, 1), none), "result type float32 cannot be cast to out's int32")
}
