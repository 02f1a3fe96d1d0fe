package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.ops.aten.native_layer_norm (float32).
func TestNativeLayerNorm(t *testing.T) {
	in := []float32{1, 2, 4, -3, 0, 9}
	in64 := []float64{1, 2, 4, -3, 0, 9}
	wb := []float64{-0.53452068567276, 0.7327396869659424, 1.6726036071777344, -0.49029025435447693, 0.6077678203582764, 1.7456254959106445}
	plain := []float64{-1.06904137134552, -0.26726028323173523, 1.3363018035888672, -0.9805805087089539, -0.392232209444046, 1.3728127479553223}
	mean, rstd := []float64{2.3333332538604736, 2.0}, []float64{0.8017810583114624, 0.196116104722023}
	for _, tc := range []struct {
		name             string
		in               *executor.Tensor
		shape            []int64
		weight, bias     any
		out, mean, rstd  *executor.Tensor
		statSizes        []int
		want, wMean, wRs []float64
	}{
		{"weight and bias", tensor(t, in, 2, 3), []int64{3}, tensor(t, []float32{0.5, 1, 2}, 3), tensor(t, []float32{0, 1, -1}, 3),
			empty(t, executor.Float32, 2, 3), empty(t, executor.Float32, 2, 1), empty(t, executor.Float32, 2, 1), []int{2, 1}, wb, mean, rstd},
		{"no weight or bias", tensor(t, in, 2, 3), []int64{3}, none, none,
			empty(t, executor.Float32, 2, 3), empty(t, executor.Float32, 2, 1), empty(t, executor.Float32, 2, 1), []int{2, 1}, plain, mean, rstd},
		{"float64", tensor(t, in64, 2, 3), []int64{3}, tensor(t, []float64{0.5, 1, 2}, 3), tensor(t, []float64{0, 1, -1}, 3),
			empty(t, executor.Float64, 2, 3), empty(t, executor.Float64, 2, 1), empty(t, executor.Float64, 2, 1), []int{2, 1}, wb, mean, rstd},
		{"two normalized dims", tensor(t, in, 1, 2, 3), []int64{2, 3}, none, none,
			empty(t, executor.Float32, 1, 2, 3), empty(t, executor.Float32, 1, 1, 1), empty(t, executor.Float32, 1, 1, 1), []int{1, 1, 1},
			[]float64{-0.31399282813072205, -0.04485613852739334, 0.49341726303100586, -1.3905396461486816, -0.5831295251846313, 1.83910071849823},
			[]float64{2.1666667461395264}, []float64{0.2691366970539093}},
		{"weight only, dynamic stats", tensor(t, in, 2, 3), []int64{3}, tensor(t, []float32{1, 1, 1}, 3), none,
			empty(t, executor.Float32, 2, 3), dynamic(t, executor.Float32, 4, 4), dynamic(t, executor.Float32, 4, 4), []int{2, 1}, plain, mean, rstd},
		{"empty rows", tensor(t, []float32{}, 2, 0), []int64{0}, none, none,
			empty(t, executor.Float32, 2, 0), empty(t, executor.Float32, 2, 1), empty(t, executor.Float32, 2, 1), []int{2, 1}, []float64{}, []float64{0, 0}, []float64{math.NaN(), math.NaN()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ret := []*executor.Tensor{tc.out, tc.mean, tc.rstd}
			if err := call(t, "aten::native_layer_norm.out", tc.in, tc.shape, tc.weight, tc.bias, 1e-5, tc.out, tc.mean, tc.rstd, ret); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.in.Sizes(), tc.want)
			wantValuesAny(t, tc.mean, tc.statSizes, tc.wMean)
			wantValuesAny(t, tc.rstd, tc.statSizes, tc.wRs)
		})
	}
	x := tensor(t, in, 2, 3)
	o, m, r := empty(t, executor.Float32, 2, 3), empty(t, executor.Float32, 2, 1), empty(t, executor.Float32, 2, 1)
	ln := func(shape []int64, w, b any, o, m, r *executor.Tensor) error {
		return call(t, "aten::native_layer_norm.out", x, shape, w, b, 1e-5, o, m, r, none)
	}
	wantErr(t, ln([]int64{2}, none, none, o, m, r), "does not match")
	wantErr(t, ln([]int64{}, none, none, o, m, r), "must name 1 to 2 trailing dims")
	wantErr(t, ln([]int64{1, 2, 3}, none, none, o, m, r), "must name 1 to 2 trailing dims")
	wantErr(t, ln([]int64{3}, tensor(t, []float32{1, 1}, 2), none, o, m, r), "argument 2 (weight): sizes [2]")
	wantErr(t, ln([]int64{3}, none, tensor(t, []float64{1, 1, 1}, 3), o, m, r), "argument 3 (bias): float64 differs")
	wantErr(t, ln([]int64{3}, none, none, o, empty(t, executor.Float64, 2, 1), r), "argument 6 (out1)")
	wantErr(t, ln([]int64{3}, none, none, o, m, empty(t, executor.Float32, 2)), "out2 (rstd): ")
	wantErr(t, call(t, "aten::native_layer_norm.out", tensor(t, []int32{1}, 1), []int64{1}, none, none, 1e-5, o, m, r, none), "floating")
	wantErr(t, call(t, "aten::native_layer_norm.out", x, []int64{3}, none, none, 1e-5, o, m, r), "8 arguments")
}
