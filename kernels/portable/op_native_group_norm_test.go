package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.ops.aten.native_group_norm (float32).
func TestNativeGroupNorm(t *testing.T) {
	in := []float32{1, 2, 3, 2, 4, 8, 0, -1, 5, 3, 3, 3}
	in64 := make([]float64, len(in))
	for i, v := range in {
		in64[i] = float64(v)
	}
	w, b := tensor(t, []float32{1, 2, 0.5, -1}, 4), tensor(t, []float32{0, 1, 2, 3}, 4)
	wb := []float64{-1.0210540294647217, -0.5834594368934631, -0.14586487412452698, -0.16691899299621582, 1.5834592580795288, 5.0842156410217285,
		1.467499852180481, 1.2217305898666382, 2.6963462829589844, 2.5903844833374023, 2.5903844833374023, 2.5903844833374023}
	plain := []float64{-1.0210540294647217, -0.5834594964981079, -0.14586491882801056, -0.5834594964981079, 0.2917296290397644, 2.0421078205108643,
		-1.065000295639038, -1.5565388202667236, 1.3926925659179688, 0.4096154272556305, 0.4096154272556305, 0.4096154272556305}
	mean, rstd := []float64{3.3333334922790527, 2.1666667461395264}, []float64{0.43759456276893616, 0.49153855443000793}
	// Batch of two (the second sample is -2x the first), one group, weight only, rank 4.
	batch := make([]float32, 0, 24)
	for _, s := range []float32{1, -2} {
		for _, v := range in {
			batch = append(batch, s*v)
		}
	}
	for _, tc := range []struct {
		name               string
		in                 *executor.Tensor
		weight, bias       any
		n, c, hxw, g       int
		out, mean, rstd    *executor.Tensor
		want, wMean, wRstd []float64
		statSizes          []int
	}{
		{"weight and bias", tensor(t, in, 1, 4, 3), w, b, 1, 4, 3, 2,
			empty(t, executor.Float32, 1, 4, 3), empty(t, executor.Float32, 1, 2), empty(t, executor.Float32, 1, 2), wb, mean, rstd, []int{1, 2}},
		{"no weight or bias", tensor(t, in, 1, 4, 3), none, none, 1, 4, 3, 2,
			empty(t, executor.Float32, 1, 4, 3), empty(t, executor.Float32, 1, 2), empty(t, executor.Float32, 1, 2), plain, mean, rstd, []int{1, 2}},
		{"float64", tensor(t, in64, 1, 4, 3), tensor(t, []float64{1, 2, 0.5, -1}, 4), tensor(t, []float64{0, 1, 2, 3}, 4), 1, 4, 3, 2,
			empty(t, executor.Float64, 1, 4, 3), empty(t, executor.Float64, 1, 2), empty(t, executor.Float64, 1, 2), wb, mean, rstd, []int{1, 2}},
		{"batch of 2, one group, rank 4", tensor(t, batch, 2, 4, 3, 1), w, none, 2, 4, 3, 1,
			empty(t, executor.Float32, 2, 4, 3, 1), empty(t, executor.Float32, 2, 1), empty(t, executor.Float32, 2, 1),
			[]float64{-0.7809975743293762, -0.3347132205963135, 0.11157113313674927, -0.669426441192627, 1.115710973739624, 4.685985565185547,
				-0.6136409640312195, -0.8367831707000732, 0.5020699501037598, -0.11157113313674927, -0.11157113313674927, -0.11157113313674927,
				0.7809982299804688, 0.33471351861953735, -0.11157116293907166, 0.6694270372390747, -1.1157116889953613, -4.6859893798828125,
				0.6136414408683777, 0.836783766746521, -0.5020702481269836, 0.11157116293907166, 0.11157116293907166, 0.11157116293907166},
			[]float64{2.75, -5.5}, []float64{0.44628435373306274, 0.2231423407793045}, []int{2, 1}},
		{"empty groups", tensor(t, []float32{}, 1, 2, 0), none, none, 1, 2, 0, 2,
			empty(t, executor.Float32, 1, 2, 0), empty(t, executor.Float32, 1, 2), empty(t, executor.Float32, 1, 2), []float64{}, []float64{0, 0}, []float64{math.NaN(), math.NaN()}, []int{1, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ret := []*executor.Tensor{tc.out, tc.mean, tc.rstd}
			if err := call(t, "aten::native_group_norm.out", tc.in, tc.weight, tc.bias, tc.n, tc.c, tc.hxw, tc.g, 1e-5, tc.out, tc.mean, tc.rstd, ret); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.in.Sizes(), tc.want)
			wantValuesAny(t, tc.mean, tc.statSizes, tc.wMean)
			wantValuesAny(t, tc.rstd, tc.statSizes, tc.wRstd)
		})
	}
	x := tensor(t, in, 1, 4, 3)
	gn := func(w any, n, c, hxw, g int, m *executor.Tensor) error {
		return call(t, "aten::native_group_norm.out", x, w, none, n, c, hxw, g, 1e-5,
			empty(t, executor.Float32, 1, 4, 3), m, empty(t, executor.Float32, 1, 2), none)
	}
	m := empty(t, executor.Float32, 1, 2)
	wantErr(t, gn(none, 2, 4, 3, 2, m), "argument 3 (N)")
	wantErr(t, gn(none, 1, 3, 3, 2, m), "argument 4 (C)")
	wantErr(t, gn(none, 1, 4, 2, 2, m), "argument 5 (HxW)")
	wantErr(t, gn(none, 1, 4, 3, 0, m), "at least 1")
	wantErr(t, gn(none, 1, 4, 3, 3, m), "not divisible")
	wantErr(t, gn(tensor(t, []float32{1, 1}, 2), 1, 4, 3, 2, m), "argument 1 (weight): sizes [2]")
	wantErr(t, gn(none, 1, 4, 3, 2, empty(t, executor.Float32, 2, 1)), "out1 (mean): ")
	wantErr(t, gn(none, 1, 4, 3, 2, empty(t, executor.Float64, 1, 2)), "argument 9 (out1)")
	wantErr(t, call(t, "aten::native_group_norm.out", x, none, none, 1, 4, 3, 2.0, 1e-5, m, m, m, none), "argument 6 (group): want Int")
}
