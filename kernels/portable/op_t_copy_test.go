package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestTCopy(t *testing.T) {
	f32 := executor.Float32
	shapeRun(t, "aten::t_copy.out", []shapeCase{
		{"matrix", []any{shapeIota(t, 2, 3), empty(t, f32, 3, 2)}, []int{3, 2}, []float64{0, 3, 1, 4, 2, 5}},
		{"vector", []any{shapeIota(t, 3), empty(t, f32, 3)}, []int{3}, []float64{0, 1, 2}},
		{"0-d", []any{tensor(t, []int64{-3}), empty(t, executor.Int64)}, []int{}, []float64{-3}},
		{"int32", []any{tensor(t, []int32{1, 2}, 1, 2), empty(t, executor.Int32, 2, 1)}, []int{2, 1}, []float64{1, 2}},
	})
	wantErr(t, call(t, "aten::t_copy.out", shapeIota(t, 1, 2, 3), empty(t, f32, 1, 2, 3), none), "at most 2 dimensions")
	wantErr(t, call(t, "aten::t_copy.out", shapeIota(t, 2, 3), empty(t, f32, 2, 3), none), "cannot resize a static tensor")
}
