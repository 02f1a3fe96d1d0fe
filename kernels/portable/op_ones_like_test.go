package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestOnesLike(t *testing.T) {
	shapeRun(t, "aten::ones_like.out", []shapeCase{
		{"float32", []any{shapeIota(t, 2, 2), none, empty(t, executor.Float32, 2, 2)}, []int{2, 2}, []float64{1, 1, 1, 1}},
		{"bool", []any{shapeIota(t, 2), 0, empty(t, executor.Bool, 2)}, []int{2}, []float64{1, 1}},
		{"bfloat16", []any{shapeIota(t, 1), none, empty(t, executor.BFloat16, 1)}, []int{1}, []float64{1}},
		{"empty", []any{shapeIota(t, 0), none, empty(t, executor.Int64, 0)}, []int{0}, nil},
	})
	wantErr(t, call(t, "aten::ones_like.out", shapeIota(t, 2), none, empty(t, executor.Float32, 2, 1), none), "cannot resize a rank-2 tensor")
}
