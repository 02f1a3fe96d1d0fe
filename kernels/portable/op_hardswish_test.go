package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.nn.functional.hardswish.
func TestHardswish(t *testing.T) {
	arithRunUnary(t, "aten::hardswish.out", []arithUnaryCase{
		{"float32", tensor(t, []float32{-2.5, -1, -0.25, 0, 0.5, 1, 3}, 7), empty(t, executor.Float32, 7),
			[]float64{-0.2083333283662796, -0.3333333432674408, -0.1145833358168602, 0.0, 0.2916666567325592, 0.6666666865348816, 3.0}},
		{"float64", tensor(t, []float64{-4, -1, 0, 1, 3.5}, 5), empty(t, executor.Float64, 5),
			[]float64{0, -0.3333333333333333, 0.0, 0.6666666666666666, 3.5}},
		{"float16", arithTyped(t, executor.Float16, []float64{0.1, 1.7, -3.3}, 3), empty(t, executor.Float16, 3), []float64{0.051666259765625, 1.33203125, 0}},
		{"inf and nan", tensor(t, []float32{float32(-arithInf), float32(arithInf), float32(arithNaN)}, 3), empty(t, executor.Float32, 3), []float64{arithNaN, arithInf, arithNaN}},
		{"empty", tensor(t, []float32{}, 0), empty(t, executor.Float32, 0), []float64{}},
	})
	arithKeepOpErrors(t, "aten::hardswish.out", tensor(t, []int64{1}, 1))
}
