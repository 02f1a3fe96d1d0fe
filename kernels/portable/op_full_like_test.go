package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestFullLike(t *testing.T) {
	x := shapeIota(t, 2, 2)
	shapeRun(t, "aten::full_like.out", []shapeCase{
		{"same dtype", []any{x, 0.5, none, empty(t, executor.Float32, 2, 2)}, []int{2, 2}, []float64{0.5, 0.5, 0.5, 0.5}},
		{"bool out", []any{x, 0, 1, empty(t, executor.Bool, 2, 2)}, []int{2, 2}, []float64{0, 0, 0, 0}},
		{"int64 out", []any{tensor(t, []int8{1, 2, 3}, 3), -7, 0, empty(t, executor.Int64, 3)}, []int{3}, []float64{-7, -7, -7}},
		{"empty", []any{shapeIota(t, 0), 1, none, empty(t, executor.Float32, 0)}, []int{0}, nil},
		{"dynamic", []any{shapeIota(t, 3), 2, none, dynamic(t, executor.Float64, 5)}, []int{3}, []float64{2, 2, 2}},
	})
	wantErr(t, call(t, "aten::full_like.out", x, 1000, none, empty(t, executor.Uint8, 2, 2), none), "overflows uint8")
	wantErr(t, call(t, "aten::full_like.out", x, 1, none, empty(t, executor.Float32, 2, 3), none), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::full_like.out", x, 1, 2, empty(t, executor.Float32, 2, 2), none), "memory format 2")
}
