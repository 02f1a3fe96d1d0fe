package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

// native_dropout in training is random (ExecuTorch's kernel and PyTorch's draw from unseeded
// generators): the test checks the mask's statistics and that kept elements equal the input.
// ExecuTorch's kernel, which etgo follows, does not scale kept elements by 1/(1-p) as PyTorch
// does. The deterministic cases (train=False, p=0, p=1) match torch.ops.aten.native_dropout
// (torch 2.15) but for that scaling.
func TestNativeDropout(t *testing.T) {
	const n = 200000
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(i%97) - 40.5
	}
	for _, tc := range []struct {
		name  string
		dt    executor.ScalarType
		p     float64
		train any
	}{
		{"float32 p=0.3", executor.Float32, 0.3, true},
		{"float64 p=0.5 train None", executor.Float64, 0.5, none},
		{"float16 p=0.9", executor.Float16, 0.9, true},
		{"bfloat16 p=0.1", executor.BFloat16, 0.1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := empty(t, tc.dt, n)
			storeF64(in, poolF64(x))
			out, mask := empty(t, tc.dt, n), dynamic(t, executor.Bool, n)
			if err := call(t, "aten::native_dropout.out", in, tc.p, tc.train, out, mask, []*executor.Tensor{out, mask}); err != nil {
				t.Fatal(err)
			}
			xv, y := loadF64(in), loadF64(out)
			m, _ := executor.Values[bool](mask)
			kept := 0.0
			for i := range y {
				switch {
				case m[i] && y[i] != xv[i]:
					t.Fatalf("kept element %d = %v, want the input's %v (no scaling)", i, y[i], xv[i])
				case !m[i] && y[i] != 0:
					t.Fatalf("dropped element %d = %v, want 0", i, y[i])
				}
				if m[i] {
					kept++
				}
			}
			// The kept fraction's standard error is at most 0.0012.
			if f := kept / n; math.Abs(f-(1-tc.p)) > 0.008 {
				t.Fatalf("kept %v of the elements, want %v", f, 1-tc.p)
			}
		})
	}
	small := tensor(t, []float32{1, -2, 3.5, 0}, 2, 2)
	for _, tc := range []struct {
		name  string
		in    *executor.Tensor
		p     float64
		train any
		want  []float64
		mask  []float64
	}{
		{"p=0 copies", small, 0, true, []float64{1, -2, 3.5, 0}, []float64{1, 1, 1, 1}},
		{"p=1 drops all", small, 1, true, []float64{0, 0, 0, 0}, []float64{0, 0, 0, 0}},
		{"eval copies", small, 0.7, false, []float64{1, -2, 3.5, 0}, []float64{1, 1, 1, 1}},
		{"eval copies int64", tensor(t, []int64{1 << 60, -3, 5, 7}, 2, 2), 0.5, false, []float64{1 << 60, -3, 5, 7}, []float64{1, 1, 1, 1}},
		{"empty", empty(t, executor.Float32, 0, 2), 0.5, true, []float64{}, []float64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, mask := empty(t, tc.in.ScalarType(), tc.in.Sizes()...), empty(t, executor.Bool, tc.in.Sizes()...)
			if err := call(t, "aten::native_dropout.out", tc.in, tc.p, tc.train, out, mask, none); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, out, tc.in.Sizes(), tc.want)
			wantValuesAny(t, mask, tc.in.Sizes(), tc.mask)
			if tc.in.ScalarType() == executor.Int64 {
				if v, _ := executor.Values[int64](out); v[0] != 1<<60 {
					t.Fatalf("int64 copy lost bits: %v", v)
				}
			}
		})
	}
	o, mk := empty(t, executor.Float32, 2, 2), empty(t, executor.Bool, 2, 2)
	nd := func(in any, p float64, train any, out, mask *executor.Tensor) error {
		return call(t, "aten::native_dropout.out", in, p, train, out, mask, none)
	}
	wantErr(t, nd(small, -0.1, true, o, mk), "argument 1 (p): dropout probability has to be between 0 and 1")
	wantErr(t, nd(small, 1.5, true, o, mk), "between 0 and 1, but got 1.5")
	wantErr(t, nd(small, math.NaN(), false, o, mk), "argument 1 (p)")
	wantErr(t, nd(small, 0.5, true, o, empty(t, executor.Uint8, 2, 2)), "argument 4 (out1): the mask must be Bool")
	wantErr(t, nd(small, 0.5, true, empty(t, executor.Float64, 2, 2), mk), "out0 is float64, want the input's float32")
	wantErr(t, nd(tensor(t, []int32{1, 2, 3, 4}, 2, 2), 0.5, true, empty(t, executor.Int32, 2, 2), mk), "dropout in training supports floating dtypes")
	wantErr(t, nd(small, 0.5, true, o, empty(t, executor.Bool, 4)), "out1: ")
	wantErr(t, nd(small, 0.5, true, empty(t, executor.Float32, 2, 3), mk), "cannot resize a static tensor")
	wantErr(t, nd(small, 0.5, 1, o, mk), "argument 2 (train): want Bool")
	wantErr(t, call(t, "aten::native_dropout.out", small, 0.5, true, o, mk), "5 arguments")
}
