package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestUnsqueezeCopy(t *testing.T) {
	f32 := executor.Float32
	shapeRun(t, "aten::unsqueeze_copy.out", []shapeCase{
		{"front", []any{shapeIota(t, 2, 3), 0, empty(t, f32, 1, 2, 3)}, []int{1, 2, 3}, shapeSeq(0, 6)},
		{"middle", []any{shapeIota(t, 2, 3), 1, empty(t, f32, 2, 1, 3)}, []int{2, 1, 3}, shapeSeq(0, 6)},
		{"end by -1", []any{shapeIota(t, 2, 3), -1, empty(t, f32, 2, 3, 1)}, []int{2, 3, 1}, shapeSeq(0, 6)},
		{"-3 is the front", []any{shapeIota(t, 2, 3), -3, empty(t, f32, 1, 2, 3)}, []int{1, 2, 3}, shapeSeq(0, 6)},
		{"0-d", []any{tensor(t, []bool{true}), 0, empty(t, executor.Bool, 1)}, []int{1}, []float64{1}},
		{"empty", []any{shapeIota(t, 0), 0, empty(t, f32, 1, 0)}, []int{1, 0}, nil},
	})
}

func TestUnsqueezeCopyErrors(t *testing.T) {
	x := shapeIota(t, 2, 3)
	out := empty(t, executor.Float32, 2, 3, 1)
	wantErr(t, call(t, "aten::unsqueeze_copy.out", x, 3, out, out), "out of range")
	wantErr(t, call(t, "aten::unsqueeze_copy.out", x, -4, out, out), "out of range")
	wantErr(t, call(t, "aten::unsqueeze_copy.out", x, 0, out, out), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::unsqueeze_copy.out", x, 2, empty(t, executor.Int64, 2, 3, 1), none), "keeps the dtype")
}
