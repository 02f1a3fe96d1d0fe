package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestExpandCopy(t *testing.T) {
	f32 := executor.Float32
	shapeRun(t, "aten::expand_copy.out", []shapeCase{
		{"new leading dim and -1", []any{shapeIota(t, 3, 1, 2), []int64{2, 3, -1, 2}, false, empty(t, f32, 2, 3, 1, 2)}, []int{2, 3, 1, 2},
			[]float64{0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5}},
		{"singleton grows", []any{shapeIota(t, 3, 1), []int64{3, 4}, false, empty(t, f32, 3, 4)}, []int{3, 4},
			[]float64{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}},
		{"row", []any{shapeIota(t, 3), []int64{2, 3}, false, empty(t, f32, 2, 3)}, []int{2, 3}, []float64{0, 1, 2, 0, 1, 2}},
		{"0-d", []any{tensor(t, []int32{7}), []int64{2, 2}, false, empty(t, executor.Int32, 2, 2)}, []int{2, 2}, []float64{7, 7, 7, 7}},
		{"same shape", []any{shapeIota(t, 2, 2), []int64{-1, -1}, false, empty(t, f32, 2, 2)}, []int{2, 2}, shapeSeq(0, 4)},
		{"to zero", []any{shapeIota(t, 1, 2), []int64{0, 2}, false, empty(t, f32, 0, 2)}, []int{0, 2}, nil},
		{"implicit", []any{shapeIota(t, 1), []int64{3}, true, empty(t, f32, 3)}, []int{3}, []float64{0, 0, 0}},
		{"dynamic", []any{shapeIota(t, 2, 1), []int64{2, 3}, false, dynamic(t, f32, 4, 4)}, []int{2, 3}, []float64{0, 0, 0, 1, 1, 1}},
		{"channels-last out", []any{tensor(t, []float32{1, 2, 3}, 1, 3, 1, 1), []int64{1, 3, 2, 2}, false, shapeOrderedEmpty(t, f32, []int{1, 3, 2, 2}, channelsLast)},
			[]int{1, 3, 2, 2}, []float64{1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}},
	})
}

func TestExpandCopyErrors(t *testing.T) {
	x := shapeIota(t, 3, 1)
	out := empty(t, executor.Float32, 3, 4)
	wantErr(t, call(t, "aten::expand_copy.out", x, []int64{2, 4}, false, out, out), "must match the existing size 3")
	wantErr(t, call(t, "aten::expand_copy.out", x, []int64{4}, false, out, out), "at least as many")
	wantErr(t, call(t, "aten::expand_copy.out", x, []int64{-1, 3, 4}, false, empty(t, executor.Float32, 1, 3, 4), none), "new leading dimension")
	wantErr(t, call(t, "aten::expand_copy.out", x, []int64{3, -2}, false, out, out), "invalid size -2")
	wantErr(t, call(t, "aten::expand_copy.out", x, []int64{3, 5}, false, out, out), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::expand_copy.out", x, []int64{3, 4}, 0, out, out), "argument 2 (implicit): want Bool")
}
