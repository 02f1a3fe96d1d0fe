package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.nn.functional.silu.
func TestSilu(t *testing.T) {
	arithRunUnary(t, "aten::silu.out", []arithUnaryCase{
		{"float32", tensor(t, []float32{-2.5, -1, -0.25, 0, 0.5, 1, 3}, 7), empty(t, executor.Float32, 7),
			[]float64{-0.189645454287529, -0.2689414322376251, -0.10945587605237961, 0.0, 0.3112296760082245, 0.7310585975646973, 2.857722520828247}},
		{"float64", tensor(t, []float64{-4, -1, 0, 1, 3.5}, 5), empty(t, executor.Float64, 5),
			[]float64{-0.07194483984836623, -0.2689414213699951, 0.0, 0.7310585786300049, 3.3974071923702525}},
		{"float16", arithTyped(t, executor.Float16, []float64{0.1, 1.7, -3.3}, 3), empty(t, executor.Float16, 3), []float64{0.052490234375, 1.4375, -0.1173095703125}},
		{"bfloat16", arithTyped(t, executor.BFloat16, []float64{0.1, 1.7, -3.3}, 3), empty(t, executor.BFloat16, 3), []float64{0.052490234375, 1.4375, -0.11767578125}},
		{"inf and nan", tensor(t, []float32{float32(-arithInf), float32(arithInf), float32(arithNaN)}, 3), empty(t, executor.Float32, 3), []float64{arithNaN, arithInf, arithNaN}},
		{"empty", tensor(t, []float32{}, 0, 4), empty(t, executor.Float32, 0, 4), []float64{}},
	})
	arithKeepOpErrors(t, "aten::silu.out", tensor(t, []int32{1}, 1))
}
