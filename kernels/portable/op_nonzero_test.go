package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.nonzero (torch 2.15); NaN counts as non-zero.
func TestNonzero(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    *executor.Tensor
		sizes []int
		want  []float64
	}{
		{"float32 with NaN", tensor(t, []float32{0, 1.5, 0, float32(arithNaN), 0, -2}, 2, 3), []int{3, 2}, []float64{0, 1, 1, 0, 1, 2}},
		{"bool", tensor(t, []bool{false, true, true}, 3), []int{2, 1}, []float64{1, 2}},
		{"non-zero scalar", tensor(t, []float32{3}), []int{1, 0}, nil},
		{"zero scalar", tensor(t, []float32{0}), []int{0, 0}, nil},
		{"empty", tensor(t, []int32{}, 2, 0), []int{0, 2}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := dynamic(t, executor.Int64, 8, 4)
			if err := call(t, "aten::nonzero.out", tc.in, out, out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, out, tc.sizes, tc.want)
		})
	}
	wantErr(t, call(t, "aten::nonzero.out", shapeIota(t, 3), dynamic(t, executor.Int32, 3, 1), none), "must be int64")
	wantErr(t, call(t, "aten::nonzero.out", shapeIota(t, 3), dynamic(t, executor.Int64, 3), none), "2 dimensions")
	wantErr(t, call(t, "aten::nonzero.out", shapeIota(t, 9), dynamic(t, executor.Int64, 4, 1), none), "capacity")
}
