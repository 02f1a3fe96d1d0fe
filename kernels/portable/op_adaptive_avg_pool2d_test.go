package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.ops.aten._adaptive_avg_pool2d (torch 2.15).
func TestAdaptiveAvgPool2d(t *testing.T) {
	x3 := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, -1, 0, 1, 2, 3, 4, 5, 6, 10}
	typed := func(typ executor.ScalarType, div float64) *executor.Tensor {
		x := empty(t, typ, 2, 3, 3)
		v := make([]float64, len(x3))
		for i := range v {
			v[i] = x3[i] / div
		}
		storeF64(x, v)
		return x
	}
	for _, tc := range []struct {
		name  string
		in    *executor.Tensor
		size  []int64
		out   *executor.Tensor
		sizes []int
		want  []float64
	}{
		{"overlapping windows", tensor(t, poolSeq(35, 0.25), 1, 1, 5, 7), []int64{3, 4}, empty(t, executor.Float32, 1, 1, 3, 4), []int{1, 1, 3, 4},
			[]float64{1.0, 1.375, 1.875, 2.25, 3.625, 4.0, 4.5, 4.875, 6.25, 6.625, 7.125, 7.5}},
		{"rank 3", typed(executor.Float32, 1), []int64{2, 2}, empty(t, executor.Float32, 2, 2, 2), []int{2, 2, 2},
			[]float64{3.0, 4.0, 6.0, 7.0, 1.0, 2.0, 4.0, 5.75}},
		{"larger output", tensor(t, []float32{1, 2, 4, 5}, 1, 2, 2), []int64{3, 3}, empty(t, executor.Float32, 1, 3, 3), []int{1, 3, 3},
			[]float64{1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0}},
		{"float64", typed(executor.Float64, 3), []int64{2, 1}, empty(t, executor.Float64, 2, 2, 1), []int{2, 2, 1},
			[]float64{1.1666666666666667, 2.1666666666666665, 0.5, 1.6666666666666667}},
		{"float16", typed(executor.Float16, 7), []int64{1, 2}, empty(t, executor.Float16, 2, 1, 2), []int{2, 1, 2},
			[]float64{0.642578125, 0.78564453125, 0.357177734375, 0.5712890625}},
		{"bfloat16", typed(executor.BFloat16, 7), []int64{1, 2}, empty(t, executor.BFloat16, 2, 1, 2), []int{2, 1, 2},
			[]float64{0.640625, 0.78515625, 0.357421875, 0.5703125}},
		// Int64 is ExecuTorch-only: sum / count, truncated.
		{"int64", tensor(t, []int64{-3, -4, 7, 5, -7, 2}, 1, 2, 3), []int64{1, 2}, empty(t, executor.Int64, 1, 1, 2), []int{1, 1, 2}, []float64{-2, 0}}, // -9/4, -2/4
		{"empty output", tensor(t, []float32{1, 2, 4, 5}, 1, 1, 2, 2), []int64{0, 2}, empty(t, executor.Float32, 1, 1, 0, 2), []int{1, 1, 0, 2}, []float64{}},
		{"empty batch", empty(t, executor.Float32, 0, 1, 2, 2), []int64{1, 2}, empty(t, executor.Float32, 0, 1, 1, 2), []int{0, 1, 1, 2}, []float64{}},
		{"dynamic out", tensor(t, []float32{1, 2, 4, 5}, 1, 2, 2), []int64{1, 1}, dynamic(t, executor.Float32, 1, 2, 2), []int{1, 1, 1}, []float64{3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := call(t, "aten::_adaptive_avg_pool2d.out", tc.in, tc.size, tc.out, tc.out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.sizes, tc.want)
		})
	}
}

func TestAdaptiveAvgPool2dErrors(t *testing.T) {
	x := tensor(t, poolSeq(8, 1), 2, 2, 2)
	o := func(s ...int) *executor.Tensor { return empty(t, executor.Float32, s...) }
	ad := func(in any, size any, out *executor.Tensor) error {
		return call(t, "aten::_adaptive_avg_pool2d.out", in, size, out, out)
	}
	wantErr(t, ad(x, []int64{2}, o(2, 2, 2)), "want 2 sizes")
	wantErr(t, ad(x, []int64{-1, 2}, o(2, 2, 2)), "non-negative")
	wantErr(t, ad(x, 2, o(2, 2, 2)), "argument 1 (output_size): want IntList")
	wantErr(t, ad(tensor(t, poolSeq(4, 1), 2, 2), []int64{1, 1}, o(1, 1)), "3D or 4D")
	wantErr(t, ad(empty(t, executor.Float32, 1, 0, 2), []int64{1, 1}, o(1, 1, 1)), "non-zero sizes")
	wantErr(t, ad(x, []int64{1, 1}, o(2, 2, 2)), "cannot resize a static tensor")
	wantErr(t, ad(x, []int64{1, 1}, empty(t, executor.Float64, 2, 1, 1)), "want the input's float32")
	wantErr(t, ad(tensor(t, []int32{1, 2, 3, 4}, 1, 2, 2), []int64{1, 1}, empty(t, executor.Int32, 1, 1, 1)), "does not support int32")
	wantErr(t, call(t, "aten::_adaptive_avg_pool2d.out", x, []int64{1, 1}, o(2, 1, 1)), "3 arguments")
}
