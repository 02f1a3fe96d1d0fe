package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestSumIntList(t *testing.T) {
	x := func() *executor.Tensor { return tensor(t, []float32{1, 2, 3, 4, 5, 6}, 2, 3) }
	f64 := int64(executor.Float64)
	for _, tc := range []struct {
		name    string
		in      *executor.Tensor
		dim     any
		keepdim bool
		dtype   any
		out     *executor.Tensor
		sizes   []int
		want    []float64
	}{
		{"dim 1", x(), []int64{1}, false, none, empty(t, executor.Float32, 2), []int{2}, []float64{6, 15}},
		{"dim -1", x(), []int64{-1}, false, none, empty(t, executor.Float32, 2), []int{2}, []float64{6, 15}},
		{"dim 0 keepdim", x(), []int64{0}, true, none, empty(t, executor.Float32, 1, 3), []int{1, 3}, []float64{5, 7, 9}},
		{"None sums all", x(), none, false, none, empty(t, executor.Float32), []int{}, []float64{21}},
		{"[] sums all", x(), []int64{}, false, none, empty(t, executor.Float32), []int{}, []float64{21}},
		{"both dims keepdim", x(), []int64{1, 0}, true, none, empty(t, executor.Float32, 1, 1), []int{1, 1}, []float64{21}},
		{"int32 into int64", tensor(t, []int32{1, 2, 3, 4, 5, 6}, 2, 3), []int64{0}, false, none, empty(t, executor.Int64, 3), []int{3}, []float64{5, 7, 9}},
		{"bool counts", tensor(t, []bool{true, false, true, true}, 4), none, false, none, empty(t, executor.Int64), []int{}, []float64{3}},
		{"dtype float64", tensor(t, []int32{1, 2, 3}, 3), []int64{0}, false, f64, empty(t, executor.Float64), []int{}, []float64{6}},
		// PyTorch casts the input to out's dtype first: 0 + 0 + 0.
		{"float into int64 truncates first", tensor(t, []float32{0.5, 0.5, 0.7}, 3), none, false, none, empty(t, executor.Int64), []int{}, []float64{0}},
		{"float into bool is truthiness", tensor(t, []float32{0.5, 0}, 2), none, false, none, empty(t, executor.Bool), []int{}, []float64{1}},
		{"int8 wraps", tensor(t, []int8{100, 100}, 2), none, false, none, empty(t, executor.Int8), []int{}, []float64{-56}},
		{"float16", reduceHalf(t, executor.Float16, 1, 2, 3), none, false, none, empty(t, executor.Float16), []int{}, []float64{6}},
		{"empty dim", tensor(t, []float32{}, 0, 3), []int64{0}, false, none, empty(t, executor.Float32, 3), []int{3}, []float64{0, 0, 0}},
		{"rank 0", tensor(t, []float64{2.5}), []int64{0}, false, none, empty(t, executor.Float64), []int{}, []float64{2.5}},
		{"dynamic out", x(), []int64{1}, true, none, dynamic(t, executor.Float32, 4, 4), []int{2, 1}, []float64{6, 15}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := call(t, "aten::sum.IntList_out", tc.in, tc.dim, tc.keepdim, tc.dtype, tc.out, tc.out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.sizes, tc.want)
		})
	}
	f := x()
	wantErr(t, call(t, "aten::sum.IntList_out", f, []int64{2}, false, none, empty(t, executor.Float32, 2), none), "dimension 2 out of range")
	wantErr(t, call(t, "aten::sum.IntList_out", f, []int64{0, -2}, false, none, empty(t, executor.Float32, 3), none), "appears more than once")
	wantErr(t, call(t, "aten::sum.IntList_out", f, []int64{1}, false, none, empty(t, executor.Float32, 3), none), "cannot resize")
	wantErr(t, call(t, "aten::sum.IntList_out", f, []int64{1}, false, f64, empty(t, executor.Float32, 2), none), "dtype float64 differs")
	wantErr(t, call(t, "aten::sum.IntList_out", f, 1, false, none, empty(t, executor.Float32, 2), none), "argument 1 (dim): want IntList")
	wantErr(t, call(t, "aten::sum.IntList_out", f, []int64{1}, false, none, empty(t, executor.Float32, 2)), "5 arguments")
}
