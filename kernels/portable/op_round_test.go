package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.round: halves round to even.
func TestRound(t *testing.T) {
	arithRunUnary(t, "aten::round.out", []arithUnaryCase{
		{"half to even", tensor(t, []float32{0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.4999998, 8388609}, 8), empty(t, executor.Float32, 8),
			[]float64{0, 2, 2, 0, -2, -2, 2, 8388609}},
		{"float64", tensor(t, []float64{0.49999999999999994, 4503599627370497, -3.5, arithNaN}, 4), empty(t, executor.Float64, 4),
			[]float64{0, 4503599627370497, -4, arithNaN}},
		{"int32 unchanged", tensor(t, []int32{-7, 0, 9}, 3), empty(t, executor.Int32, 3), []float64{-7, 0, 9}},
		{"float16", arithTyped(t, executor.Float16, []float64{0.5, 1.5, 2.5}, 3), empty(t, executor.Float16, 3), []float64{0, 2, 2}},
		{"empty", tensor(t, []float32{}, 0), empty(t, executor.Float32, 0), []float64{}},
	})
	arithKeepOpErrors(t, "aten::round.out", tensor(t, []bool{true}, 1))
}
