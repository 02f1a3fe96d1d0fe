package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestUnsafeView(t *testing.T) {
	shapeRun(t, "aten::_unsafe_view.out", []shapeCase{
		{"reshape", []any{shapeIota(t, 2, 3), []int64{3, 2}, empty(t, executor.Float32, 3, 2)}, []int{3, 2}, shapeSeq(0, 6)},
		{"inferred int64", []any{tensor(t, []int64{1, 2, 3, 4}, 4), []int64{-1, 2}, empty(t, executor.Int64, 2, 2)}, []int{2, 2}, []float64{1, 2, 3, 4}},
	})
	out := empty(t, executor.Float32, 4)
	wantErr(t, call(t, "aten::_unsafe_view.out", shapeIota(t, 2, 3), []int64{4}, out, out), "invalid for 6 elements")
}
