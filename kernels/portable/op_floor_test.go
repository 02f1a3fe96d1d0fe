package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.floor.
func TestFloor(t *testing.T) {
	arithRunUnary(t, "aten::floor.out", []arithUnaryCase{
		{"float32", tensor(t, []float32{-2.5, -1, -0.25, 0, 0.5, 1, 3}, 7), empty(t, executor.Float32, 7), []float64{-3, -1, -1, 0, 0, 1, 3}},
		{"inf and nan", tensor(t, []float64{-arithInf, arithInf, arithNaN}, 3), empty(t, executor.Float64, 3), []float64{-arithInf, arithInf, arithNaN}},
		{"int32 unchanged", tensor(t, []int32{-7, 0, 9}, 3), empty(t, executor.Int32, 3), []float64{-7, 0, 9}},
		{"float16", arithTyped(t, executor.Float16, []float64{-1.5, 2.75}, 2), empty(t, executor.Float16, 2), []float64{-2, 2}},
		{"empty", tensor(t, []float32{}, 0), empty(t, executor.Float32, 0), []float64{}},
	})
	arithKeepOpErrors(t, "aten::floor.out", tensor(t, []bool{true}, 1))
}
