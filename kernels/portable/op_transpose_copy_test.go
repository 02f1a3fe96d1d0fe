package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestTransposeCopy(t *testing.T) {
	f32 := executor.Float32
	shapeRun(t, "aten::transpose_copy.int_out", []shapeCase{
		{"0 and 2", []any{shapeIota(t, 2, 3, 4), 0, 2, empty(t, f32, 4, 3, 2)}, []int{4, 3, 2},
			[]float64{0, 12, 4, 16, 8, 20, 1, 13, 5, 17, 9, 21, 2, 14, 6, 18, 10, 22, 3, 15, 7, 19, 11, 23}},
		{"negative", []any{shapeIota(t, 2, 3), -1, -2, empty(t, f32, 3, 2)}, []int{3, 2}, []float64{0, 3, 1, 4, 2, 5}},
		{"same dim", []any{shapeIota(t, 2, 3), 1, 1, empty(t, f32, 2, 3)}, []int{2, 3}, shapeSeq(0, 6)},
		{"0-d", []any{tensor(t, []float64{2.5}), 0, -1, empty(t, executor.Float64)}, []int{}, []float64{2.5}},
		{"uint8", []any{tensor(t, []uint8{1, 2, 3, 4}, 2, 2), 0, 1, empty(t, executor.Uint8, 2, 2)}, []int{2, 2}, []float64{1, 3, 2, 4}},
		{"empty", []any{shapeIota(t, 0, 2), 0, 1, empty(t, f32, 2, 0)}, []int{2, 0}, nil},
	})
}

func TestTransposeCopyErrors(t *testing.T) {
	x := shapeIota(t, 2, 3)
	out := empty(t, executor.Float32, 3, 2)
	wantErr(t, call(t, "aten::transpose_copy.int_out", x, 0, 2, out, out), "argument 2 (dim1): dimension 2 out of range")
	wantErr(t, call(t, "aten::transpose_copy.int_out", x, 0, 0, out, out), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::transpose_copy.int_out", x, 0, 1, empty(t, executor.Bool, 3, 2), none), "keeps the dtype")
}
