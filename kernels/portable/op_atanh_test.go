package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.atanh (torch 2.15.0).
func TestAtanh(t *testing.T) {
	arithRunUnary(t, "aten::atanh.out", []arithUnaryCase{
		{"float32", tensor(t, []float32{-1.0, -0.5, 0.0, 0.25, 0.9, 1.0, 1.5}, 7), empty(t, executor.Float32, 7),
			[]float64{-arithInf, -0.5493061542510986, 0.0, 0.2554128170013428, 1.4722193479537964, arithInf, arithNaN}},
		{"int32 computes in float32", tensor(t, []int32{-1, 0, 1, 2}, 2, 2), empty(t, executor.Float32, 2, 2),
			[]float64{-arithInf, 0.0, arithInf, arithNaN}},
		{"nan", tensor(t, []float32{float32(arithNaN)}, 1), empty(t, executor.Float32, 1), []float64{arithNaN}},
		{"float64", tensor(t, []float64{0.1, 0.7, -0.3}, 3), empty(t, executor.Float64, 3),
			[]float64{0.10033534773107558, 0.8673005276940531, -0.30951960420311175}},
		{"float16", arithTyped(t, executor.Float16, []float64{0.1, 0.7, -0.3}, 3), empty(t, executor.Float16, 3),
			[]float64{0.10028076171875, 0.86767578125, -0.3095703125}},
		{"bfloat16", arithTyped(t, executor.BFloat16, []float64{0.1, 0.7, -0.3}, 3), empty(t, executor.BFloat16, 3),
			[]float64{0.1005859375, 0.8671875, -0.310546875}},
		{"empty", tensor(t, []float32{}, 0, 2), empty(t, executor.Float32, 0, 2), []float64{}},
	})
	arithFloatOpErrors(t, "aten::atanh.out")
}
