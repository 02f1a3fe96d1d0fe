package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestNeg(t *testing.T) {
	arithRunUnary(t, "aten::neg.out", []arithUnaryCase{
		{"float32", tensor(t, []float32{-2.5, -1, 0, 3, float32(arithNaN)}, 5), empty(t, executor.Float32, 5), []float64{2.5, 1, 0, -3, arithNaN}},
		{"float64 2-d", tensor(t, []float64{1, -2, 3, -4}, 2, 2), empty(t, executor.Float64, 2, 2), []float64{-1, 2, -3, 4}},
		{"int8 wraps", tensor(t, []int8{-128, 5, 0}, 3), empty(t, executor.Int8, 3), []float64{-128, -5, 0}},
		{"int64", tensor(t, []int64{7, -9}, 2), empty(t, executor.Int64, 2), []float64{-7, 9}},
		{"float16", arithTyped(t, executor.Float16, []float64{1.5, -0.25}, 2), empty(t, executor.Float16, 2), []float64{-1.5, 0.25}},
		{"empty", tensor(t, []float32{}, 0), empty(t, executor.Float32, 0), []float64{}},
		{"dynamic out", tensor(t, []float32{1, 2}, 2), dynamic(t, executor.Float32, 8), []float64{-1, -2}},
	})
	arithKeepOpErrors(t, "aten::neg.out", tensor(t, []bool{true}, 1))
}
