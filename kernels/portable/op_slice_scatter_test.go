package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.slice_scatter / select_scatter (torch 2.15) into zeros(4, 5).
func TestSliceScatter(t *testing.T) {
	z := func() *executor.Tensor { return empty(t, executor.Float32, 4, 5) }
	ones := tensor(t, []float32{1, 1, 1, 1, 1, 1, 1, 1}, 4, 2)
	shapeRun(t, "aten::slice_scatter.out", []shapeCase{
		{"strided columns", []any{z(), ones, 1, 1, 5, 2, z()}, []int{4, 5},
			[]float64{0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0}},
		{"negative start, no end", []any{z(), shapeIota(t, 2, 5), 0, -2, none, 1, z()}, []int{4, 5},
			[]float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
		{"end past the size clamps", []any{z(), shapeIota(t, 4, 1), 1, 4, 99, 1, z()}, []int{4, 5},
			[]float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3}},
	})
	wantErr(t, call(t, "aten::slice_scatter.out", z(), shapeIota(t, 4, 3), 1, 1, 5, 2, z(), none), "sizes [4 3], want [4 2]")
	wantErr(t, call(t, "aten::slice_scatter.out", z(), ones, 1, 1, 5, 0, z(), none), "step must be positive")
	wantErr(t, call(t, "aten::slice_scatter.out", z(), tensor(t, []int32{1}, 1), 0, 0, 1, 1, z(), none), "dtype int32")
}

func TestSelectScatter(t *testing.T) {
	z := func() *executor.Tensor { return empty(t, executor.Float32, 4, 5) }
	shapeRun(t, "aten::select_scatter.out", []shapeCase{
		{"last column", []any{z(), shapeIota(t, 4), 1, -1, z()}, []int{4, 5},
			[]float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3}},
		{"first row", []any{z(), shapeIota(t, 5), 0, 0, z()}, []int{4, 5},
			[]float64{0, 1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	})
	wantErr(t, call(t, "aten::select_scatter.out", z(), shapeIota(t, 5), 1, 0, z(), none), "want [4]")
	wantErr(t, call(t, "aten::select_scatter.out", z(), shapeIota(t, 4), 1, 5, z(), none), "out of bounds")
}
