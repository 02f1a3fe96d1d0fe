package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.masked_select (torch 2.15).
func TestMaskedSelect(t *testing.T) {
	shapeRun(t, "aten::masked_select.out", []shapeCase{
		{"broadcast mask", []any{shapeIota(t, 2, 3), tensor(t, []bool{true, false, true}, 3), dynamic(t, executor.Float32, 6)}, []int{4}, []float64{0, 2, 3, 5}},
		{"broadcast self", []any{tensor(t, []int64{7, 8}, 2, 1), tensor(t, []bool{true, false, false, true}, 2, 2), dynamic(t, executor.Int64, 4)}, []int{2}, []float64{7, 8}},
		{"nothing selected", []any{shapeIota(t, 3), tensor(t, []bool{false, false, false}, 3), dynamic(t, executor.Float32, 3)}, []int{0}, nil},
	})
	wantErr(t, call(t, "aten::masked_select.out", shapeIota(t, 3), tensor(t, []uint8{1, 0, 1}, 3), dynamic(t, executor.Float32, 3), none), "must be bool")
	wantErr(t, call(t, "aten::masked_select.out", shapeIota(t, 3), tensor(t, []bool{true, true}, 2), dynamic(t, executor.Float32, 3), none), "do not broadcast")
	wantErr(t, call(t, "aten::masked_select.out", shapeIota(t, 3), tensor(t, []bool{true, true, true}, 3), dynamic(t, executor.Float32, 2), none), "capacity")
}
