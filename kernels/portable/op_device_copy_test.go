package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestDeviceCopy(t *testing.T) {
	for _, op := range []string{"et_copy::_h2d_copy.out", "et_copy::_d2h_copy.out"} {
		shapeRun(t, op, []shapeCase{
			{"float32", []any{shapeIota(t, 2, 3), empty(t, executor.Float32, 2, 3)}, []int{2, 3}, shapeSeq(0, 6)},
			{"int8", []any{tensor(t, []int8{-1, 5}, 2), empty(t, executor.Int8, 2)}, []int{2}, []float64{-1, 5}},
		})
		wantErr(t, call(t, op, shapeIota(t, 2), empty(t, executor.Int32, 2), none), "keeps the dtype")
	}
}
