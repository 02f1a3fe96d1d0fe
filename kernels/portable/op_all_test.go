package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestAll(t *testing.T) {
	x := func() *executor.Tensor { return tensor(t, []float32{2, 0, -1, 0, 0, 0}, 2, 3) }
	u := func() *executor.Tensor { return tensor(t, []uint8{0, 3, 1, 4}, 2, 2) }
	for _, tc := range []struct {
		name  string
		op    string
		args  []any // up to out
		out   *executor.Tensor
		sizes []int
		want  []float64
	}{
		{"dim 1", "out", []any{x(), 1, false}, empty(t, executor.Bool, 2), []int{2}, []float64{0, 0}},
		{"dim -2 keepdim", "out", []any{x(), -2, true}, empty(t, executor.Bool, 1, 3), []int{1, 3}, []float64{0, 0, 0}},
		{"uint8 out", "out", []any{u(), 1, false}, empty(t, executor.Uint8, 2), []int{2}, []float64{0, 1}},
		{"dims list", "dims_out", []any{x(), []int64{1}, false}, empty(t, executor.Bool, 2), []int{2}, []float64{0, 0}},
		{"dims None", "dims_out", []any{x(), none, true}, empty(t, executor.Bool, 1, 1), []int{1, 1}, []float64{0}},
		{"dims [] is elementwise", "dims_out", []any{x(), []int64{}, false}, empty(t, executor.Bool, 2, 3), []int{2, 3}, []float64{1, 0, 1, 0, 0, 0}},
		{"all elements", "all_out", []any{x()}, empty(t, executor.Bool), []int{}, []float64{0}},
		{"NaN is true", "all_out", []any{tensor(t, []float64{math.NaN()}, 1)}, empty(t, executor.Bool), []int{}, []float64{1}},
		{"empty", "all_out", []any{tensor(t, []int32{}, 0)}, empty(t, executor.Bool), []int{}, []float64{1}},
		{"bool input", "dims_out", []any{tensor(t, []bool{true, true, false, true}, 2, 2), []int64{0}, false}, empty(t, executor.Bool, 2), []int{2}, []float64{0, 1}},
		{"bool input over the last dim, keepdim (rows)", "out", []any{tensor(t, []bool{true, true, true, false, false, false}, 3, 2), -1, true}, empty(t, executor.Bool, 3, 1), []int{3, 1}, []float64{1, 0, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append(append([]any{}, tc.args...), tc.out, tc.out)
			if err := call(t, "aten::all."+tc.op, args...); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.sizes, tc.want)
		})
	}
	wantErr(t, call(t, "aten::all.out", x(), 1, false, empty(t, executor.Int32, 2), none), "bool or uint8")
	wantErr(t, call(t, "aten::all.all_out", x(), empty(t, executor.Float32), none), "bool or uint8")
	wantErr(t, call(t, "aten::all.out", x(), 2, false, empty(t, executor.Bool, 2), none), "out of range")
	wantErr(t, call(t, "aten::all.dims_out", x(), []int64{0, 0}, false, empty(t, executor.Bool, 3), none), "more than once")
	wantErr(t, call(t, "aten::all.dims_out", x(), []int64{}, false, empty(t, executor.Bool, 3), none), "cannot resize")
	wantErr(t, call(t, "aten::all.all_out", x(), empty(t, executor.Bool)), "2 arguments")
}
