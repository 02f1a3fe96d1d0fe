package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.acos (torch 2.15.0).
func TestAcos(t *testing.T) {
	arithRunUnary(t, "aten::acos.out", []arithUnaryCase{
		{"float32", tensor(t, []float32{-1.0, -0.5, 0.0, 0.25, 0.9, 1.0, 1.5}, 7), empty(t, executor.Float32, 7),
			[]float64{3.1415927410125732, 2.094395160675049, 1.5707963705062866, 1.3181160688400269, 0.4510268568992615, 0.0, arithNaN}},
		{"int32 computes in float32", tensor(t, []int32{-1, 0, 1, 2}, 2, 2), empty(t, executor.Float32, 2, 2),
			[]float64{3.1415927410125732, 1.5707963705062866, 0.0, arithNaN}},
		{"nan", tensor(t, []float32{float32(arithNaN)}, 1), empty(t, executor.Float32, 1), []float64{arithNaN}},
		{"float64", tensor(t, []float64{0.1, 0.7, -0.3}, 3), empty(t, executor.Float64, 3),
			[]float64{1.4706289056333368, 0.7953988301841436, 1.8754889808102941}},
		{"float16", arithTyped(t, executor.Float16, []float64{0.1, 0.7, -0.3}, 3), empty(t, executor.Float16, 3),
			[]float64{1.470703125, 0.794921875, 1.8759765625}},
		{"bfloat16", arithTyped(t, executor.BFloat16, []float64{0.1, 0.7, -0.3}, 3), empty(t, executor.BFloat16, 3),
			[]float64{1.46875, 0.796875, 1.875}},
		{"empty", tensor(t, []float32{}, 0, 2), empty(t, executor.Float32, 0, 2), []float64{}},
	})
	arithFloatOpErrors(t, "aten::acos.out")
}
