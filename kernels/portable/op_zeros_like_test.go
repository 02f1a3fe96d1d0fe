package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestZerosLike(t *testing.T) {
	shapeRun(t, "aten::zeros_like.out", []shapeCase{
		{"float32", []any{shapeIota(t, 2, 2), none, tensor(t, []float32{9, 9, 9, 9}, 2, 2)}, []int{2, 2}, []float64{0, 0, 0, 0}},
		{"int16 out of a bool", []any{tensor(t, []bool{true}, 1), 1, tensor(t, []int16{5}, 1)}, []int{1}, []float64{0}},
		{"empty", []any{shapeIota(t, 0, 1), none, empty(t, executor.Float32, 0, 1)}, []int{0, 1}, nil},
	})
	wantErr(t, call(t, "aten::zeros_like.out", shapeIota(t, 2), none, empty(t, executor.Float32, 3), none), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::zeros_like.out", shapeIota(t, 2), none, empty(t, executor.Float32, 2)), "3 arguments")
}
