package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.sign (NaN gives 0 in PyTorch).
func TestSign(t *testing.T) {
	arithRunUnary(t, "aten::sign.out", []arithUnaryCase{
		{"float32", tensor(t, []float32{-2.5, -0.25, 0, 0.5, 3}, 5), empty(t, executor.Float32, 5), []float64{-1, -1, 0, 1, 1}},
		{"inf and nan", tensor(t, []float64{-arithInf, arithInf, arithNaN}, 3), empty(t, executor.Float64, 3), []float64{-1, 1, 0}},
		{"int32", tensor(t, []int32{-7, 0, 9}, 3), empty(t, executor.Int32, 3), []float64{-1, 0, 1}},
		{"bool unchanged", tensor(t, []bool{true, false}, 2), empty(t, executor.Bool, 2), []float64{1, 0}},
		{"float16", arithTyped(t, executor.Float16, []float64{-3, 0.5}, 2), empty(t, executor.Float16, 2), []float64{-1, 1}},
		{"empty", tensor(t, []int64{}, 0), empty(t, executor.Int64, 0), []float64{}},
	})
	arithKeepOpErrors(t, "aten::sign.out", empty(t, executor.Uint16, 2))
}
