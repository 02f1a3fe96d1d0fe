package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.ops.aten._native_batch_norm_legit_no_training (float32).
func TestNativeBatchNormNoTraining(t *testing.T) {
	in := []float32{1, 2, 3, 4, -1, 0, 5, 9}
	in64 := []float64{1, 2, 3, 4, -1, 0, 5, 9}
	f32 := func(v ...float32) *executor.Tensor { return tensor(t, v, len(v)) }
	f64 := func(v ...float64) *executor.Tensor { return tensor(t, v, len(v)) }
	full := []float64{1.2499949932098389, 3.2499849796295166, 1.4999994039535522, 1.0, -2.7499849796295166, -0.7499949932098389, 0.5000005960464478, -1.4999970197677612}
	plain := []float64{0.49999749660491943, 1.4999924898147583, -0.49999940395355225, 0.0, -1.4999924898147583, -0.49999749660491943, 0.49999940395355225, 2.499997138977051}
	for _, tc := range []struct {
		name         string
		in           *executor.Tensor
		weight, bias any
		mean, vr     *executor.Tensor
		out          *executor.Tensor
		want         []float64
	}{
		{"float32", tensor(t, in, 2, 2, 2), f32(2, -1), f32(0.25, 1), f32(0.5, 4), f32(1, 4), empty(t, executor.Float32, 2, 2, 2), full},
		{"no weight or bias", tensor(t, in, 2, 2, 2), none, none, f32(0.5, 4), f32(1, 4), empty(t, executor.Float32, 2, 2, 2), plain},
		{"float64", tensor(t, in64, 2, 2, 2), f64(2, -1), f64(0.25, 1), f64(0.5, 4), f64(1, 4), empty(t, executor.Float64, 2, 2, 2), full},
		{"rank 2", tensor(t, []float32{1, 2, 3, 4}, 2, 2), none, none, f32(0.5, 4), f32(1, 4), empty(t, executor.Float32, 2, 2),
			[]float64{0.49999749660491943, -0.9999988079071045, 2.4999876022338867, 0}},
		{"empty batch", tensor(t, []float32{}, 0, 2, 3), none, none, f32(0.5, 4), f32(1, 4), empty(t, executor.Float32, 0, 2, 3), []float64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dt := tc.in.ScalarType()
			o1, o2 := empty(t, dt, 0), dynamic(t, dt, 2) // a planned [0] or a dynamic one
			ret := []*executor.Tensor{tc.out, o1, o2}
			if err := call(t, "aten::_native_batch_norm_legit_no_training.out", tc.in, tc.weight, tc.bias, tc.mean, tc.vr, 0.1, 1e-5, tc.out, o1, o2, ret); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.in.Sizes(), tc.want)
			wantValuesAny(t, o1, []int{0}, []float64{})
			wantValuesAny(t, o2, []int{0}, []float64{})
		})
	}
	x := tensor(t, in, 2, 2, 2)
	bn := func(in *executor.Tensor, w, b any, m, v *executor.Tensor, o1 *executor.Tensor) error {
		return call(t, "aten::_native_batch_norm_legit_no_training.out", in, w, b, m, v, 0.1, 1e-5, empty(t, executor.Float32, 2, 2, 2), o1, empty(t, executor.Float32, 0), none)
	}
	z := empty(t, executor.Float32, 0)
	wantErr(t, bn(x, f32(1, 1, 1), none, f32(0, 0), f32(1, 1), z), "argument 1 (weight): sizes [3]")
	wantErr(t, bn(x, none, none, f32(0, 0), f64(1, 1), z), "argument 4 (running_var): float64 differs")
	wantErr(t, bn(x, none, none, tensor(t, []float32{0, 0}, 1, 2), f32(1, 1), z), "running_mean")
	wantErr(t, bn(x, none, none, f32(0, 0), f32(1, 1), empty(t, executor.Float32, 2)), "out1: ")
	wantErr(t, bn(f32(1, 2), none, none, f32(0, 0), f32(1, 1), z), "rank 1")
	wantErr(t, bn(tensor(t, []int32{1, 2}, 1, 2), none, none, f32(0, 0), f32(1, 1), z), "floating")
	wantErr(t, call(t, "aten::_native_batch_norm_legit_no_training.out", x, none, none, f32(0, 0), f32(1, 1), 0.1, 1e-5, empty(t, executor.Float32, 2, 2, 2), z, z), "10 arguments")
}
