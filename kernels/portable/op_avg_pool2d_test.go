package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// poolSeq returns 0, step, 2*step, ... (n values).
func poolSeq(n int, step float32) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(i) * step
	}
	return v
}

// Expected values from torch.ops.aten.avg_pool2d (torch 2.15).
func TestAvgPool2d(t *testing.T) {
	x33 := func() *executor.Tensor { return tensor(t, []float32{1, 2, 3, 4, 5, 6, 7, 8, 9}, 1, 3, 3) }
	x56 := func() *executor.Tensor { return tensor(t, poolSeq(30, 0.5), 1, 5, 6) }
	xl := func() *executor.Tensor { return tensor(t, []int64{-3, -4, 7, 5, -7, 2}, 1, 2, 3) }
	f16 := func(bf bool) *executor.Tensor {
		v := []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6}
		typ := executor.Float16
		if bf {
			typ = executor.BFloat16
		}
		x := empty(t, typ, 1, 1, 2, 3)
		storeF64(x, v)
		return x
	}
	x64 := func() *executor.Tensor {
		v := make([]float64, 9)
		for i := range v {
			v[i] = float64(i+1) / 3
		}
		return tensor(t, v, 1, 3, 3)
	}
	for _, tc := range []struct {
		name             string
		in               *executor.Tensor
		k, s, p          []int64
		ceil, includePad bool
		divisor          any
		out              *executor.Tensor
		sizes            []int
		want             []float64
	}{
		{"single int kernel, default stride", tensor(t, poolSeq(16, 1), 1, 1, 4, 4), []int64{2}, []int64{}, []int64{0}, false, true, none,
			empty(t, executor.Float32, 1, 1, 2, 2), []int{1, 1, 2, 2}, []float64{2.5, 4.5, 10.5, 12.5}},
		{"padding counted", x33(), []int64{2, 2}, []int64{1}, []int64{1}, false, true, none, empty(t, executor.Float32, 1, 4, 4), []int{1, 4, 4},
			[]float64{0.25, 0.75, 1.25, 0.75, 1.25, 3.0, 4.0, 2.25, 2.75, 6.0, 7.0, 3.75, 1.75, 3.75, 4.25, 2.25}},
		{"padding not counted", x33(), []int64{2, 2}, []int64{1}, []int64{1}, false, false, none, empty(t, executor.Float32, 1, 4, 4), []int{1, 4, 4},
			[]float64{1.0, 1.5, 2.5, 3.0, 2.5, 3.0, 4.0, 4.5, 5.5, 6.0, 7.0, 7.5, 7.0, 7.5, 8.5, 9.0}},
		// H=5: ceil gives 4 windows, but the 4th would start in the right padding, so 3.
		{"ceil mode", x56(), []int64{2, 2}, []int64{2, 2}, []int64{1, 1}, true, true, none, empty(t, executor.Float32, 1, 3, 4), []int{1, 3, 4},
			[]float64{0.0, 0.375, 0.875, 0.625, 2.25, 5.25, 6.25, 3.5, 5.25, 11.25, 12.25, 6.5}},
		{"ceil mode, padding not counted", x56(), []int64{2, 2}, []int64{2, 2}, []int64{1, 1}, true, false, none, empty(t, executor.Float32, 1, 3, 4), []int{1, 3, 4},
			[]float64{0.0, 0.75, 1.75, 2.5, 4.5, 5.25, 6.25, 7.0, 10.5, 11.25, 12.25, 13.0}},
		{"rectangular kernel and stride", x56(), []int64{3, 2}, []int64{2, 1}, []int64{1, 0}, false, true, none, empty(t, executor.Float32, 1, 3, 5), []int{1, 3, 5},
			[]float64{1.1666666269302368, 1.5, 1.8333333730697632, 2.1666667461395264, 2.5, 6.25, 6.75, 7.25, 7.75, 8.25, 7.166666507720947, 7.5, 7.833333492279053, 8.166666984558105, 8.5}},
		{"divisor override", x33(), []int64{2, 2}, []int64{1, 1}, []int64{0, 0}, false, true, 3, empty(t, executor.Float32, 1, 2, 2), []int{1, 2, 2},
			[]float64{4.0, 5.333333492279053, 8.0, 9.333333015441895}},
		{"float64", x64(), []int64{2, 2}, []int64{1, 1}, []int64{1, 1}, false, true, none, empty(t, executor.Float64, 1, 4, 4), []int{1, 4, 4},
			[]float64{0.08333333333333333, 0.25, 0.41666666666666663, 0.25, 0.41666666666666663, 1.0, 1.3333333333333333, 0.75, 0.9166666666666667, 2.0, 2.3333333333333335, 1.25, 0.5833333333333334, 1.25, 1.4166666666666665, 0.75}},
		{"int64 truncates", xl(), []int64{2, 2}, []int64{1, 1}, []int64{1, 1}, false, true, none, empty(t, executor.Int64, 1, 3, 4), []int{1, 3, 4},
			[]float64{0, -1, 0, 1, 0, -2, 0, 2, 1, 0, -1, 0}},
		{"int64 negative divisor", xl(), []int64{2, 2}, []int64{1, 1}, []int64{0, 0}, false, true, -3, empty(t, executor.Int64, 1, 1, 2), []int{1, 1, 2},
			[]float64{3, 0}},
		{"float16", f16(false), []int64{2, 2}, []int64{1, 1}, []int64{0}, false, true, none, empty(t, executor.Float16, 1, 1, 1, 2), []int{1, 1, 1, 2},
			// each sum rounded to float16 as c10::Half does: 0.1+0.2 is a tie that rounds down
			[]float64{0.2998046875, 0.39990234375}},
		{"bfloat16", f16(true), []int64{2, 2}, []int64{1, 1}, []int64{0}, false, true, none, empty(t, executor.BFloat16, 1, 1, 1, 2), []int{1, 1, 1, 2},
			[]float64{0.30078125, 0.400390625}},
		{"batch of planes", tensor(t, poolSeq(16, 1), 2, 2, 2, 2), []int64{2, 1}, []int64{1, 1}, []int64{0}, false, true, none, empty(t, executor.Float32, 2, 2, 1, 2), []int{2, 2, 1, 2},
			[]float64{1, 2, 5, 6, 9, 10, 13, 14}},
		{"empty batch", empty(t, executor.Float32, 0, 1, 2, 2), []int64{2}, []int64{}, []int64{0}, false, true, none, empty(t, executor.Float32, 0, 1, 1, 1), []int{0, 1, 1, 1}, []float64{}},
		{"dynamic out", tensor(t, poolSeq(16, 1), 1, 1, 4, 4), []int64{2}, []int64{}, []int64{0}, false, true, none, dynamic(t, executor.Float32, 1, 1, 4, 4), []int{1, 1, 2, 2},
			[]float64{2.5, 4.5, 10.5, 12.5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := call(t, "aten::avg_pool2d.out", tc.in, tc.k, tc.s, tc.p, tc.ceil, tc.includePad, tc.divisor, tc.out, tc.out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.sizes, tc.want)
		})
	}
}

func TestAvgPool2dErrors(t *testing.T) {
	x := tensor(t, poolSeq(9, 1), 1, 3, 3)
	o := func(s ...int) *executor.Tensor { return empty(t, executor.Float32, s...) }
	k2 := []int64{2, 2}
	avg := func(in any, k, s, p []int64, div any, out *executor.Tensor) error {
		return call(t, "aten::avg_pool2d.out", in, k, s, p, false, true, div, out, out)
	}
	wantErr(t, avg(x, []int64{2, 2, 2}, []int64{}, []int64{0}, none, o(1, 1, 1)), "kernel_size must either be a single int")
	wantErr(t, avg(x, []int64{}, []int64{}, []int64{0}, none, o(1, 1, 1)), "kernel_size must either be a single int")
	wantErr(t, avg(x, k2, []int64{1, 1, 1}, []int64{0}, none, o(1, 2, 2)), "stride must either be omitted")
	wantErr(t, avg(x, k2, []int64{}, []int64{}, none, o(1, 1, 1)), "padding must either be a single int")
	wantErr(t, avg(x, k2, []int64{0}, []int64{0}, none, o(1, 1, 1)), "stride should be greater than zero")
	wantErr(t, avg(x, []int64{0, 2}, []int64{1}, []int64{0}, none, o(1, 1, 1)), "kernel size should be greater than zero")
	wantErr(t, avg(x, k2, []int64{1}, []int64{-1}, none, o(1, 1, 1)), "pad must be non-negative")
	wantErr(t, avg(x, k2, []int64{1}, []int64{2}, none, o(1, 1, 1)), "at most half of kernel size")
	wantErr(t, avg(x, k2, []int64{1}, []int64{0}, 0, o(1, 2, 2)), "divisor must be non-zero")
	wantErr(t, avg(x, []int64{4}, []int64{1}, []int64{0}, none, o(1, 1, 1)), "too small")
	wantErr(t, avg(x, []int64{1 << 62}, []int64{1}, []int64{0}, none, o(1, 1, 1)), "argument 1 (kernel_size): [4611686018427387904] is too large")
	wantErr(t, avg(tensor(t, poolSeq(9, 1), 3, 3), k2, []int64{1}, []int64{0}, none, o(2, 2)), "3D or 4D")
	wantErr(t, avg(empty(t, executor.Float32, 0, 3, 3), k2, []int64{1}, []int64{0}, none, o(0, 2, 2)), "3D or 4D")
	wantErr(t, avg(x, k2, []int64{1}, []int64{0}, none, o(1, 3, 3)), "cannot resize a static tensor")
	wantErr(t, avg(x, k2, []int64{1}, []int64{0}, none, empty(t, executor.Float64, 1, 2, 2)), "want the input's float32")
	wantErr(t, avg(tensor(t, []int32{1, 2, 3, 4}, 1, 2, 2), k2, []int64{1}, []int64{0}, none, empty(t, executor.Int32, 1, 1, 1)), "does not support int32")
	wantErr(t, avg(1, k2, []int64{1}, []int64{0}, none, o(1, 2, 2)), "argument 0 (self): want Tensor")
	wantErr(t, call(t, "aten::avg_pool2d.out", x, k2, []int64{1}, []int64{0}, false, true, 1.5, o(1, 2, 2), none), "argument 6 (divisor_override): want Int")
	wantErr(t, call(t, "aten::avg_pool2d.out", x, k2, []int64{1}, []int64{0}, false, true, none, o(1, 2, 2)), "8 arguments")
}
