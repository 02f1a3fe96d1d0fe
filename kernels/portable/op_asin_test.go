package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.asin (torch 2.15.0).
func TestAsin(t *testing.T) {
	arithRunUnary(t, "aten::asin.out", []arithUnaryCase{
		{"float32", tensor(t, []float32{-1.0, -0.5, 0.0, 0.25, 0.9, 1.0, 1.5}, 7), empty(t, executor.Float32, 7),
			[]float64{-1.5707963705062866, -0.5235987901687622, 0.0, 0.252680242061615, 1.1197694540023804, 1.5707963705062866, arithNaN}},
		{"int32 computes in float32", tensor(t, []int32{-1, 0, 1, 2}, 2, 2), empty(t, executor.Float32, 2, 2),
			[]float64{-1.5707963705062866, 0.0, 1.5707963705062866, arithNaN}},
		{"nan", tensor(t, []float32{float32(arithNaN)}, 1), empty(t, executor.Float32, 1), []float64{arithNaN}},
		{"float64", tensor(t, []float64{0.1, 0.7, -0.3}, 3), empty(t, executor.Float64, 3),
			[]float64{0.1001674211615598, 0.775397496610753, -0.30469265401539747}},
		{"float16", arithTyped(t, executor.Float16, []float64{0.1, 0.7, -0.3}, 3), empty(t, executor.Float16, 3),
			[]float64{0.10015869140625, 0.77587890625, -0.3046875}},
		{"bfloat16", arithTyped(t, executor.BFloat16, []float64{0.1, 0.7, -0.3}, 3), empty(t, executor.BFloat16, 3),
			[]float64{0.10009765625, 0.7734375, -0.3046875}},
		{"empty", tensor(t, []float32{}, 0, 2), empty(t, executor.Float32, 0, 2), []float64{}},
	})
	arithFloatOpErrors(t, "aten::asin.out")
}
