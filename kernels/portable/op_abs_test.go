package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestAbs(t *testing.T) {
	arithRunUnary(t, "aten::abs.out", []arithUnaryCase{
		{"float32", tensor(t, []float32{-2.5, -1, -0.25, 0, 0.5, 1, 3}, 7), empty(t, executor.Float32, 7), []float64{2.5, 1, 0.25, 0, 0.5, 1, 3}},
		{"inf and nan", tensor(t, []float32{float32(-arithInf), float32(arithInf), float32(arithNaN)}, 3), empty(t, executor.Float32, 3), []float64{arithInf, arithInf, arithNaN}},
		{"int8 wraps", tensor(t, []int8{-128, -5, 7}, 3), empty(t, executor.Int8, 3), []float64{-128, 5, 7}},
		{"int32 2-d", tensor(t, []int32{-1, 2, -3, 4}, 2, 2), empty(t, executor.Int32, 2, 2), []float64{1, 2, 3, 4}},
		{"bfloat16", arithTyped(t, executor.BFloat16, []float64{-1.5, 0.25}, 2), empty(t, executor.BFloat16, 2), []float64{1.5, 0.25}},
		{"empty", tensor(t, []float64{}, 0, 3), empty(t, executor.Float64, 0, 3), []float64{}},
	})
	arithKeepOpErrors(t, "aten::abs.out", tensor(t, []bool{true}, 1))
}
