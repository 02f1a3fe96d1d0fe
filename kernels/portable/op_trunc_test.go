package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.trunc.
func TestTrunc(t *testing.T) {
	arithRunUnary(t, "aten::trunc.out", []arithUnaryCase{
		{"float32", tensor(t, []float32{-2.5, -1, -0.25, 0, 0.5, 1, 3.75}, 7), empty(t, executor.Float32, 7), []float64{-2, -1, 0, 0, 0, 1, 3}},
		{"int16 unchanged", tensor(t, []int16{-7, 0, 9}, 3), empty(t, executor.Int16, 3), []float64{-7, 0, 9}},
		{"float64", tensor(t, []float64{-1e300, 1e-300, arithInf}, 3), empty(t, executor.Float64, 3), []float64{-1e300, 0, arithInf}},
		{"bfloat16", arithTyped(t, executor.BFloat16, []float64{-1.5, 2.75}, 2), empty(t, executor.BFloat16, 2), []float64{-1, 2}},
	})
	arithKeepOpErrors(t, "aten::trunc.out", tensor(t, []bool{true}, 1))
}
