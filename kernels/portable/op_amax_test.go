package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestAmax(t *testing.T) {
	nan := math.NaN()
	x := func() *executor.Tensor { return tensor(t, []float32{1, 7, 3, -4, 5, 6}, 2, 3) }
	for _, tc := range []struct {
		name    string
		in      *executor.Tensor
		dim     []int64
		keepdim bool
		out     *executor.Tensor
		sizes   []int
		want    []float64
	}{
		{"dim 1", x(), []int64{1}, false, empty(t, executor.Float32, 2), []int{2}, []float64{7, 6}},
		{"dim -2 keepdim", x(), []int64{-2}, true, empty(t, executor.Float32, 1, 3), []int{1, 3}, []float64{1, 7, 6}},
		{"[] is every dim", x(), []int64{}, false, empty(t, executor.Float32), []int{}, []float64{7}},
		{"NaN propagates", tensor(t, []float64{1, nan, 3, 2}, 2, 2), []int64{1}, false, empty(t, executor.Float64, 2), []int{2}, []float64{nan, 3}},
		{"bool", tensor(t, []bool{false, true, false, false}, 2, 2), []int64{1}, false, empty(t, executor.Bool, 2), []int{2}, []float64{1, 0}},
		{"empty kept dim", tensor(t, []float32{}, 0, 3), []int64{1}, false, empty(t, executor.Float32, 0), []int{0}, []float64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := call(t, "aten::amax.out", tc.in, tc.dim, tc.keepdim, tc.out, tc.out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.sizes, tc.want)
		})
	}
	// Integers compare exactly (not through float64).
	big := empty(t, executor.Int64)
	if err := call(t, "aten::amax.out", tensor(t, []int64{math.MaxInt64 - 1, math.MaxInt64}, 2), []int64{0}, false, big, big); err != nil {
		t.Fatal(err)
	}
	if v := executor.Data[int64](big)[0]; v != math.MaxInt64 {
		t.Fatalf("amax = %d, want MaxInt64", v)
	}
	wantErr(t, call(t, "aten::amax.out", tensor(t, []float32{}, 0, 3), []int64{0}, false, empty(t, executor.Float32, 3), none), "zero size")
	wantErr(t, call(t, "aten::amax.out", x(), []int64{1}, false, empty(t, executor.Float64, 2), none), "input's dtype float32")
	wantErr(t, call(t, "aten::amax.out", x(), []int64{1, 1}, false, empty(t, executor.Float32, 2), none), "more than once")
	wantErr(t, call(t, "aten::amax.out", x(), none, false, empty(t, executor.Float32), none), "want IntList")
	wantErr(t, call(t, "aten::amax.out", x(), []int64{1}, false, empty(t, executor.Float32, 3), none), "cannot resize")
}
