package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.acosh (torch 2.15.0).
func TestAcosh(t *testing.T) {
	arithRunUnary(t, "aten::acosh.out", []arithUnaryCase{
		{"float32", tensor(t, []float32{0.5, 1.0, 1.5, 2.0, 10.0, 100.0, 1e+30}, 7), empty(t, executor.Float32, 7),
			[]float64{arithNaN, 0.0, 0.9624236822128296, 1.316957950592041, 2.993222951889038, 5.29829216003418, 69.77069854736328}},
		{"int32 computes in float32", tensor(t, []int32{0, 1, 2, 5}, 2, 2), empty(t, executor.Float32, 2, 2),
			[]float64{arithNaN, 0.0, 1.316957950592041, 2.292431592941284}},
		{"nan", tensor(t, []float32{float32(arithNaN)}, 1), empty(t, executor.Float32, 1), []float64{arithNaN}},
		{"float64", tensor(t, []float64{1.1, 1.7, 3.3}, 3), empty(t, executor.Float64, 3),
			[]float64{0.4435682543851154, 1.123230982587296, 1.8632793511534487}},
		{"float16", arithTyped(t, executor.Float16, []float64{1.1, 1.7, 3.3}, 3), empty(t, executor.Float16, 3),
			[]float64{0.442626953125, 1.123046875, 1.86328125}},
		{"bfloat16", arithTyped(t, executor.BFloat16, []float64{1.1, 1.7, 3.3}, 3), empty(t, executor.BFloat16, 3),
			[]float64{0.447265625, 1.125, 1.859375}},
		{"empty", tensor(t, []float32{}, 0, 2), empty(t, executor.Float32, 0, 2), []float64{}},
	})
	arithFloatOpErrors(t, "aten::acosh.out")
}
