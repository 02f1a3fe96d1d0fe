package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.asinh (torch 2.15.0).
func TestAsinh(t *testing.T) {
	arithRunUnary(t, "aten::asinh.out", []arithUnaryCase{
		{"float32", tensor(t, []float32{-10.0, -1.0, -0.25, 0.0, 0.5, 3.0, 1e+30}, 7), empty(t, executor.Float32, 7),
			[]float64{-2.998222827911377, -0.8813735842704773, -0.24746647477149963, 0.0, 0.4812118411064148, 1.8184465169906616, 69.77069854736328}},
		{"int32 computes in float32", tensor(t, []int32{-3, 0, 1, 5}, 2, 2), empty(t, executor.Float32, 2, 2),
			[]float64{-1.8184465169906616, 0.0, 0.8813735842704773, 2.3124382495880127}},
		{"nan", tensor(t, []float32{float32(arithNaN)}, 1), empty(t, executor.Float32, 1), []float64{arithNaN}},
		{"float64", tensor(t, []float64{1.1, 1.7, 3.3}, 3), empty(t, executor.Float64, 3),
			[]float64{0.9503469298211343, 1.3008204268406467, 1.9092740140163365}},
		{"float16", arithTyped(t, executor.Float16, []float64{1.1, 1.7, 3.3}, 3), empty(t, executor.Float16, 3),
			[]float64{0.9501953125, 1.30078125, 1.9091796875}},
		{"bfloat16", arithTyped(t, executor.BFloat16, []float64{1.1, 1.7, 3.3}, 3), empty(t, executor.BFloat16, 3),
			[]float64{0.953125, 1.3046875, 1.90625}},
		{"empty", tensor(t, []float32{}, 0, 2), empty(t, executor.Float32, 0, 2), []float64{}},
	})
	arithFloatOpErrors(t, "aten::asinh.out")
}
