package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.ops.aten._native_batch_norm_legit.no_stats (torch 2.15) with
// training=True (torch refuses training=False there; ExecuTorch ignores the flag).
func TestNativeBatchNormLegitNoStats(t *testing.T) {
	in := []float64{1, 2, 3, 4, -1, 0, 5, 9}
	typed := func(dt executor.ScalarType, v []float64, sizes ...int) *executor.Tensor {
		x := empty(t, dt, sizes...)
		storeF64(x, v)
		return x
	}
	for _, tc := range []struct {
		name         string
		in           *executor.Tensor
		weight, bias any
		eps          float64
		want, mean   []float64
		invstd       []float64
	}{
		{"float32", typed(executor.Float32, in, 2, 2, 2), typed(executor.Float32, []float64{2, -1}, 2), typed(executor.Float32, []float64{0.25, 1}, 2), 1e-5,
			[]float64{1.1444236040115356, 2.9332709312438965, 1.9878774881362915, 1.5488208532333374, -2.4332709312438965, -0.6444236040115356, 1.1097642183303833, -0.6464622020721436},
			[]float64{0.5, 5.25}, []float64{0.8944236040115356, 0.4390566051006317}},
		{"float64", typed(executor.Float64, in, 2, 2, 2), typed(executor.Float64, []float64{2, -1}, 2), typed(executor.Float64, []float64{0.25, 1}, 2), 1e-5,
			[]float64{1.144423613312618, 2.9332708399378538, 1.9878773877366958, 1.548820770964831, -2.4332708399378538, -0.644423613312618, 1.1097641541929661, -0.6464623128944933},
			[]float64{0.5, 5.25}, []float64{0.894423613312618, 0.43905661677186486}},
		{"no weight or bias", typed(executor.Float32, in, 2, 2, 2), none, none, 1e-5,
			[]float64{0.4472118020057678, 1.3416354656219482, -0.9878774881362915, -0.5488208532333374, -1.3416354656219482, -0.4472118020057678, -0.10976424813270569, 1.6464622020721436},
			[]float64{0.5, 5.25}, []float64{0.8944236040115356, 0.4390566051006317}},
		{"float16", typed(executor.Float16, in, 2, 2, 2), none, none, 1e-5,
			[]float64{0.447265625, 1.341796875, -0.98779296875, -0.548828125, -1.341796875, -0.447265625, -0.1097412109375, 1.646484375},
			[]float64{0.5, 5.25}, []float64{0.89453125, 0.43896484375}},
		{"rank 2", typed(executor.Float32, []float64{1, 2, 3, 4, 5, 6}, 3, 2), none, none, 0.5,
			[]float64{-1.1239030361175537, -1.1239029169082642, 0, 0.0, 1.1239027976989746, 1.1239029169082642},
			[]float64{3, 4}, []float64{0.5619514584541321, 0.5619514584541321}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dt := tc.in.ScalarType()
			out, o1, o2 := empty(t, dt, tc.in.Sizes()...), empty(t, dt, 2), dynamic(t, dt, 4)
			if err := call(t, "aten::_native_batch_norm_legit.no_stats_out", tc.in, tc.weight, tc.bias, true, 0.1, tc.eps, out, o1, o2, []*executor.Tensor{out, o1, o2}); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, out, tc.in.Sizes(), tc.want)
			wantValuesAny(t, o1, []int{2}, tc.mean)
			wantValuesAny(t, o2, []int{2}, tc.invstd)
			// training=False computes the same (ExecuTorch ignores the flag).
			out2 := empty(t, dt, tc.in.Sizes()...)
			if err := call(t, "aten::_native_batch_norm_legit.no_stats_out", tc.in, tc.weight, tc.bias, false, 0.1, tc.eps, out2, o1, o2, none); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, out2, tc.in.Sizes(), tc.want)
		})
	}
	t.Run("empty batch", func(t *testing.T) {
		out, o1, o2 := empty(t, executor.Float32, 0, 2, 3), empty(t, executor.Float32, 2), empty(t, executor.Float32, 2)
		if err := call(t, "aten::_native_batch_norm_legit.no_stats_out", empty(t, executor.Float32, 0, 2, 3), none, none, true, 0.1, 1e-5, out, o1, o2, none); err != nil {
			t.Fatal(err)
		}
		wantValuesAny(t, out, []int{0, 2, 3}, []float64{})
		wantValuesAny(t, o1, []int{2}, []float64{math.NaN(), math.NaN()})
	})

	x := typed(executor.Float32, in, 2, 2, 2)
	f32 := func(v ...float64) *executor.Tensor { return typed(executor.Float32, v, len(v)) }
	bn := func(in any, w, b any, out, o1 *executor.Tensor) error {
		return call(t, "aten::_native_batch_norm_legit.no_stats_out", in, w, b, true, 0.1, 1e-5, out, o1, empty(t, executor.Float32, 2), none)
	}
	o := empty(t, executor.Float32, 2, 2, 2)
	wantErr(t, bn(x, f32(1, 1, 1), none, o, f32(0, 0)), "argument 1 (weight): sizes [3]")
	wantErr(t, bn(x, none, typed(executor.Float64, []float64{1, 1}, 2), o, f32(0, 0)), "argument 2 (bias): float64 differs")
	wantErr(t, bn(x, none, none, o, f32(0, 0, 0)), "out1: ")
	wantErr(t, bn(x, none, none, empty(t, executor.Float64, 2, 2, 2), f32(0, 0)), "argument 6 (out0): float64 differs")
	wantErr(t, bn(f32(1, 2), none, none, o, f32(0, 0)), "rank 1")
	wantErr(t, bn(tensor(t, []int32{1, 2}, 1, 2), none, none, o, f32(0, 0)), "floating")
	wantErr(t, bn(x, none, none, empty(t, executor.Float32, 2, 2, 3), f32(0, 0)), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::_native_batch_norm_legit.no_stats_out", x, none, none, 1, 0.1, 1e-5, o, f32(0, 0), f32(0, 0), none), "argument 3 (training): want Bool")
	wantErr(t, call(t, "aten::_native_batch_norm_legit.no_stats_out", x, none, none, true, 0.1, 1e-5, o, f32(0, 0), f32(0, 0)), "9 arguments")
}

// Expected values from torch.ops.aten._native_batch_norm_legit (torch 2.15) with
// training=False; ExecuTorch's portable kernel refuses training=True.
func TestNativeBatchNormLegit(t *testing.T) {
	f32 := func(v ...float32) *executor.Tensor { return tensor(t, v, len(v)) }
	x := tensor(t, []float32{1, 2, 3, 4, -1, 0, 5, 9}, 2, 2, 2)
	rm, rv := f32(0.5, 4), f32(1, 4)
	out, o1, o2 := empty(t, executor.Float32, 2, 2, 2), empty(t, executor.Float32, 0), dynamic(t, executor.Float32, 2)
	if err := call(t, "aten::_native_batch_norm_legit.out", x, f32(2, -1), f32(0.25, 1), rm, rv, false, 0.1, 1e-5, out, o1, o2, []*executor.Tensor{out, o1, o2}); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, out, []int{2, 2, 2}, []float64{1.2499949932098389, 3.2499849796295166, 1.4999994039535522, 1.0, -2.7499849796295166, -0.7499949932098389, 0.5000005960464478, -1.4999970197677612})
	wantValuesAny(t, o1, []int{0}, []float64{})
	wantValuesAny(t, o2, []int{0}, []float64{})
	wantValuesAny(t, rm, []int{2}, []float64{0.5, 4}) // running stats untouched
	wantValuesAny(t, rv, []int{2}, []float64{1, 4})

	bn := func(training any, m, v *executor.Tensor, eps any) error {
		return call(t, "aten::_native_batch_norm_legit.out", x, none, none, m, v, training, 0.1, eps, empty(t, executor.Float32, 2, 2, 2), empty(t, executor.Float32, 0), empty(t, executor.Float32, 0), none)
	}
	wantErr(t, bn(true, rm, rv, 1e-5), "argument 5 (training): portable kernels only support inference mode")
	wantErr(t, bn(false, f32(0, 0, 0), rv, 1e-5), "argument 3 (running_mean): sizes [3]")
	wantErr(t, bn(false, rm, tensor(t, []float64{1, 1}, 2), 1e-5), "argument 4 (running_var): float64 differs")
	wantErr(t, bn(false, rm, rv, "x"), "argument 7 (eps): want Double")
	wantErr(t, bn(1, rm, rv, 1e-5), "argument 5 (training): want Bool")
	wantErr(t, call(t, "aten::_native_batch_norm_legit.out", x, none, none, rm, rv, false, 0.1, 1e-5, out, o1, o2), "11 arguments")
}
