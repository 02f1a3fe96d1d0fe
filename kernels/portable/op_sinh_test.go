package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.sinh (torch 2.15.0).
func TestSinh(t *testing.T) {
	arithRunUnary(t, "aten::sinh.out", []arithUnaryCase{
		{"float32", tensor(t, []float32{-10.0, -1.0, -0.25, 0.0, 0.5, 3.0, 100.0}, 7), empty(t, executor.Float32, 7),
			[]float64{-11013.232421875, -1.175201177597046, -0.25261232256889343, 0.0, 0.5210952758789062, 10.017874717712402, arithInf}},
		{"int32 computes in float32", tensor(t, []int32{-3, 0, 1, 5}, 2, 2), empty(t, executor.Float32, 2, 2),
			[]float64{-10.017874717712402, 0.0, 1.175201177597046, 74.20320892333984}},
		{"nan", tensor(t, []float32{float32(arithNaN)}, 1), empty(t, executor.Float32, 1), []float64{arithNaN}},
		{"float64", tensor(t, []float64{1.1, 1.7, 3.3}, 3), empty(t, executor.Float64, 3),
			[]float64{1.335647470124177, 2.6456319338372323, 13.537877876628322}},
		{"float16", arithTyped(t, executor.Float16, []float64{1.1, 1.7, 3.3}, 3), empty(t, executor.Float16, 3),
			[]float64{1.3349609375, 2.646484375, 13.546875}},
		{"bfloat16", arithTyped(t, executor.BFloat16, []float64{1.1, 1.7, 3.3}, 3), empty(t, executor.BFloat16, 3),
			[]float64{1.3359375, 2.65625, 13.5}},
		{"empty", tensor(t, []float32{}, 0, 2), empty(t, executor.Float32, 0, 2), []float64{}},
	})
	arithFloatOpErrors(t, "aten::sinh.out")
}
