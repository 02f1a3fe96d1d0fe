package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestDetachCopy(t *testing.T) {
	shapeRun(t, "aten::detach_copy.out", []shapeCase{
		{"float32", []any{shapeIota(t, 2, 3), empty(t, executor.Float32, 2, 3)}, []int{2, 3}, shapeSeq(0, 6)},
		{"int64", []any{tensor(t, []int64{-7, 1 << 40}, 2), empty(t, executor.Int64, 2)}, []int{2}, []float64{-7, 1 << 40}},
		{"bool", []any{tensor(t, []bool{true, false}, 2), empty(t, executor.Bool, 2)}, []int{2}, []float64{1, 0}},
		{"dynamic out", []any{shapeIota(t, 3), dynamic(t, executor.Float32, 8)}, []int{3}, shapeSeq(0, 3)},
		{"empty", []any{shapeIota(t, 0, 2), empty(t, executor.Float32, 0, 2)}, []int{0, 2}, nil},
	})
	wantErr(t, call(t, "aten::detach_copy.out", shapeIota(t, 2), empty(t, executor.Int32, 2), none), "keeps the dtype")
	wantErr(t, call(t, "aten::detach_copy.out", shapeIota(t, 2), empty(t, executor.Float32, 3), none), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::detach_copy.out", shapeIota(t, 2), empty(t, executor.Float32, 2)), "takes 3 (with the return slot)")
}
