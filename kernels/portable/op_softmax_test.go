package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.softmax (torch 2.x, float32).
func TestSoftmax(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	y := []float32{0.5, -1.25, 3.0, 2.0, 2.0, -7.5}
	d1 := []float64{0.07487121224403381, 0.013010665774345398, 0.912118136882782, 0.4999812841415405, 0.4999812841415405, 3.742451372090727e-05}
	d0 := []float64{0.18242551386356354, 0.037326883524656296, 0.9999724626541138, 0.8175744414329529, 0.9626730680465698, 2.7535690605873242e-05}
	y64 := make([]float64, len(y))
	for i, v := range y {
		y64[i] = float64(v)
	}
	for _, tc := range []struct {
		name string
		in   *executor.Tensor
		dim  int
		out  *executor.Tensor
		want []float64
	}{
		{"float32 last dim", tensor(t, y, 2, 3), 1, empty(t, executor.Float32, 2, 3), d1},
		{"float32 dim 0", tensor(t, y, 2, 3), -2, empty(t, executor.Float32, 2, 3), d0},
		{"float64", tensor(t, y64, 2, 3), -1, empty(t, executor.Float64, 2, 3), d1},
		{"middle dim", tensor(t, []float32{0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.25, 2.5, 2.75}, 2, 3, 2), 1, empty(t, executor.Float32, 2, 3, 2),
			[]float64{0.18632373213768005, 0.18632373213768005, 0.30719590187072754, 0.30719590187072754, 0.5064803957939148, 0.5064803957939148,
				0.18632373213768005, 0.18632373213768005, 0.30719590187072754, 0.30719590187072754, 0.5064803957939148, 0.5064803957939148}},
		{"large values are stable", tensor(t, []float32{1000, 1001, 1002}, 3), 0, empty(t, executor.Float32, 3), []float64{0.09003057330846786, 0.2447284758090973, 0.6652409434318542}},
		{"-inf is zero", tensor(t, []float32{float32(math.Inf(-1)), 0}, 2), 0, empty(t, executor.Float32, 2), []float64{0, 1}},
		{"+inf gives NaN", tensor(t, []float32{float32(inf), 1}, 2), 0, empty(t, executor.Float32, 2), []float64{nan, nan}},
		{"NaN row", tensor(t, []float64{nan, 1, 2, 3}, 2, 2), 1, empty(t, executor.Float64, 2, 2), []float64{nan, nan, 0.26894142136999516, 0.7310585786300049}},
		{"bfloat16", reduceHalf(t, executor.BFloat16, 0, 0, 0, 0), 0, empty(t, executor.BFloat16, 4), []float64{0.25, 0.25, 0.25, 0.25}},
		{"rank 0", tensor(t, []float32{3}), 0, empty(t, executor.Float32), []float64{1}},
		{"empty", tensor(t, []float32{}, 0, 3), 1, empty(t, executor.Float32, 0, 3), []float64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := call(t, "aten::_softmax.out", tc.in, tc.dim, false, tc.out, tc.out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.in.Sizes(), tc.want)
		})
	}
	x := tensor(t, y, 2, 3)
	wantErr(t, call(t, "aten::_softmax.out", x, 1, true, empty(t, executor.Float32, 2, 3), none), "half to float")
	wantErr(t, call(t, "aten::_softmax.out", x, 2, false, empty(t, executor.Float32, 2, 3), none), "out of range")
	wantErr(t, call(t, "aten::_softmax.out", x, 1, false, empty(t, executor.Float64, 2, 3), none), "input's dtype")
	wantErr(t, call(t, "aten::_softmax.out", tensor(t, []int64{1, 2}, 2), 0, false, empty(t, executor.Int64, 2), none), "floating")
	wantErr(t, call(t, "aten::_softmax.out", x, 1, false, empty(t, executor.Float32, 3, 2), none), "cannot resize")
}
