package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestCumsum(t *testing.T) {
	x := func() *executor.Tensor { return tensor(t, []float32{1, 2, 3, 4, 5, 6}, 2, 3) }
	for _, tc := range []struct {
		name  string
		in    *executor.Tensor
		dim   int
		dtype any
		out   *executor.Tensor
		want  []float64
	}{
		{"dim 1", x(), 1, none, empty(t, executor.Float32, 2, 3), []float64{1, 3, 6, 4, 9, 15}},
		{"dim -1", x(), -1, none, empty(t, executor.Float32, 2, 3), []float64{1, 3, 6, 4, 9, 15}},
		{"dim 0", x(), 0, none, empty(t, executor.Float32, 2, 3), []float64{1, 2, 3, 5, 7, 9}},
		{"int32 into int64 with dtype", tensor(t, []int32{1, 2, 3}, 3), 0, int64(executor.Int64), empty(t, executor.Int64, 3), []float64{1, 3, 6}},
		// Cast to out's dtype first, as PyTorch.
		{"float into int64", tensor(t, []float32{2.5, 2.5, 2.5}, 3), 0, none, empty(t, executor.Int64, 3), []float64{2, 4, 6}},
		{"bool", tensor(t, []bool{false, true, false}, 3), 0, none, empty(t, executor.Bool, 3), []float64{0, 1, 1}},
		{"int8 wraps", tensor(t, []int8{100, 100}, 2), 0, none, empty(t, executor.Int8, 2), []float64{100, -56}},
		{"float16", reduceHalf(t, executor.Float16, 0.5, 2, 4), 0, none, empty(t, executor.Float16, 3), []float64{0.5, 2.5, 6.5}},
		{"rank 0", tensor(t, []float64{7}), -1, none, empty(t, executor.Float64), []float64{7}},
		{"empty", tensor(t, []float32{}, 0, 3), 1, none, empty(t, executor.Float32, 0, 3), []float64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := call(t, "aten::cumsum.out", tc.in, tc.dim, tc.dtype, tc.out, tc.out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.in.Sizes(), tc.want)
		})
	}
	wantErr(t, call(t, "aten::cumsum.out", x(), 2, none, empty(t, executor.Float32, 2, 3), none), "out of range")
	wantErr(t, call(t, "aten::cumsum.out", x(), 1, int64(executor.Float64), empty(t, executor.Float32, 2, 3), none), "differs from out's")
	wantErr(t, call(t, "aten::cumsum.out", x(), 1, none, empty(t, executor.Float32, 3, 2), none), "cannot resize")
	wantErr(t, call(t, "aten::cumsum.out", x(), none, none, empty(t, executor.Float32, 2, 3), none), "want Int")
}
