package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.cosh (torch 2.15.0).
func TestCosh(t *testing.T) {
	arithRunUnary(t, "aten::cosh.out", []arithUnaryCase{
		{"float32", tensor(t, []float32{-10.0, -1.0, -0.25, 0.0, 0.5, 3.0, 100.0}, 7), empty(t, executor.Float32, 7),
			[]float64{11013.232421875, 1.5430805683135986, 1.0314130783081055, 1.0, 1.1276259422302246, 10.067662239074707, arithInf}},
		{"int32 computes in float32", tensor(t, []int32{-3, 0, 1, 5}, 2, 2), empty(t, executor.Float32, 2, 2),
			[]float64{10.067662239074707, 1.0, 1.5430805683135986, 74.20995330810547}},
		{"nan", tensor(t, []float32{float32(arithNaN)}, 1), empty(t, executor.Float32, 1), []float64{arithNaN}},
		{"float64", tensor(t, []float64{1.1, 1.7, 3.3}, 3), empty(t, executor.Float64, 3),
			[]float64{1.6685185538222564, 2.828315457889967, 13.574761044029561}},
		{"float16", arithTyped(t, executor.Float16, []float64{1.1, 1.7, 3.3}, 3), empty(t, executor.Float16, 3),
			[]float64{1.66796875, 2.828125, 13.5859375}},
		{"bfloat16", arithTyped(t, executor.BFloat16, []float64{1.1, 1.7, 3.3}, 3), empty(t, executor.BFloat16, 3),
			[]float64{1.671875, 2.84375, 13.5625}},
		{"empty", tensor(t, []float32{}, 0, 2), empty(t, executor.Float32, 0, 2), []float64{}},
	})
	arithFloatOpErrors(t, "aten::cosh.out")
}
