package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.ops.aten.upsample_bilinear2d.vec (torch 2.15).
func TestUpsampleBilinear2d(t *testing.T) {
	x := func() *executor.Tensor { return tensor(t, poolSeq(6, 1), 1, 1, 2, 3) }
	third := func(typ executor.ScalarType) *executor.Tensor {
		in := empty(t, typ, 1, 1, 2, 3)
		storeF64(in, []float64{0, 1. / 3, 2. / 3, 1, 4. / 3, 5. / 3})
		return in
	}
	for _, tc := range []struct {
		name   string
		in     *executor.Tensor
		size   any
		align  bool
		scales any
		sizes  []int
		want   []float64
	}{
		{"output size", x(), []int64{3, 5}, false, none, []int{1, 1, 3, 5}, []float64{0.0, 0.40000003576278687, 1.0, 1.6000001430511475, 2.0,
			1.5, 1.899999976158142, 2.5, 3.1000001430511475, 3.5, 3.0, 3.4000000953674316, 4.0, 4.600000381469727, 5.0}},
		{"align corners", x(), []int64{3, 5}, true, none, []int{1, 1, 3, 5}, []float64{0, 0.5, 1, 1.5, 2, 1.5, 2, 2.5, 3, 3.5, 3, 3.5, 4, 4.5, 5}},
		{"scale factors", x(), none, false, []float64{1.5, 2}, []int{1, 1, 3, 6}, []float64{0.0, 0.25, 0.75, 1.25, 1.75, 2.0,
			1.5, 1.75, 2.25, 2.75, 3.25, 3.5, 3.0, 3.25, 3.75, 4.25, 4.750000476837158, 5.0}},
		{"scale factors, align corners", x(), none, true, []float64{1.5, 2}, []int{1, 1, 3, 6}, []float64{0.0, 0.4000000059604645, 0.800000011920929,
			1.2000000476837158, 1.600000023841858, 2.0, 1.5, 1.9000000953674316, 2.299999952316284, 2.6999998092651367, 3.0999999046325684, 3.5,
			3.0, 3.4000000953674316, 3.799999952316284, 4.199999809265137, 4.599999904632568, 5.0}},
		{"downsample", tensor(t, poolSeq(16, 1), 1, 1, 4, 4), []int64{3, 2}, false, none, []int{1, 1, 3, 2},
			[]float64{1.1666667461395264, 3.1666667461395264, 6.5, 8.5, 11.833333969116211, 13.833333969116211}},
		{"downsample to one column, align corners", tensor(t, poolSeq(16, 1), 1, 1, 4, 4), []int64{3, 1}, true, none, []int{1, 1, 3, 1}, []float64{0, 6, 12}},
		{"same size copies", x(), []int64{2, 3}, false, none, []int{1, 1, 2, 3}, []float64{0, 1, 2, 3, 4, 5}},
		{"fractional scale factors", tensor(t, poolSeq(20, 1), 1, 1, 4, 5), none, false, []float64{0.7, 1.3}, []int{1, 1, 2, 6},
			[]float64{1.071428656578064, 1.7252748012542725, 2.4945056438446045, 3.2637364864349365, 4.0329670906066895, 4.80219841003418,
				8.214285850524902, 8.868131637573242, 9.63736343383789, 10.406593322753906, 11.175825119018555, 11.94505500793457}},
		{"float64", third(executor.Float64), []int64{3, 4}, false, none, []int{1, 1, 3, 4}, []float64{0.0, 0.20833333333333331, 0.4583333333333333,
			0.6666666666666666, 0.49999999999999994, 0.7083333333333331, 0.9583333333333333, 1.1666666666666667, 1.0, 1.2083333333333335,
			1.4583333333333335, 1.6666666666666665}},
		{"float16", third(executor.Float16), []int64{3, 4}, false, none, []int{1, 1, 3, 4}, []float64{0.0, 0.208251953125, 0.458251953125,
			0.66650390625, 0.5, 0.7080078125, 0.9580078125, 1.1669921875, 1.0, 1.2080078125, 1.4580078125, 1.6669921875}},
		{"bfloat16", third(executor.BFloat16), []int64{3, 4}, false, none, []int{1, 1, 3, 4}, []float64{0.0, 0.208984375, 0.458984375,
			0.66796875, 0.5, 0.7109375, 0.9609375, 1.1640625, 1.0, 1.2109375, 1.4609375, 1.6640625}},
		// Integers follow ExecuTorch's portable kernel (PyTorch refuses int32): float32
		// interpolation, truncated. These are the "output size" values above, truncated.
		{"int32 truncates", tensor(t, []int32{0, 1, 2, 3, 4, 5}, 1, 1, 2, 3), []int64{3, 5}, false, none, []int{1, 1, 3, 5},
			[]float64{0, 0, 1, 1, 2, 1, 1, 2, 3, 3, 3, 3, 4, 4, 5}},
		{"batch and channels", tensor(t, poolSeq(8, 1), 2, 2, 1, 2), []int64{2, 3}, false, none, []int{2, 2, 2, 3},
			[]float64{0, 0.5, 1, 0, 0.5, 1, 2, 2.5, 3, 2, 2.5, 3, 4, 4.5, 5, 4, 4.5, 5, 6, 6.5, 7, 6, 6.5, 7}},
		{"empty batch", empty(t, executor.Float32, 0, 1, 2, 2), []int64{4, 4}, false, none, []int{0, 1, 4, 4}, []float64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := empty(t, tc.in.ScalarType(), tc.sizes...)
			if err := call(t, "aten::upsample_bilinear2d.vec_out", tc.in, tc.size, tc.align, tc.scales, out, out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, out, tc.sizes, tc.want)
		})
	}
}

func TestUpsampleBilinear2dErrors(t *testing.T) {
	x := tensor(t, poolSeq(4, 1), 1, 1, 2, 2)
	o := func(s ...int) *executor.Tensor { return empty(t, executor.Float32, s...) }
	up := func(in, size, align, scales any, out *executor.Tensor) error {
		return call(t, "aten::upsample_bilinear2d.vec_out", in, size, align, scales, out, out)
	}
	wantErr(t, up(x, []int64{4, 4}, false, []float64{2, 2}, o(1, 1, 4, 4)), "exactly one of output_size and scale_factors")
	wantErr(t, up(x, none, false, none, o(1, 1, 4, 4)), "exactly one of output_size and scale_factors")
	wantErr(t, up(x, []int64{4, 4}, none, none, o(1, 1, 4, 4)), "argument 2 (align_corners): want Bool")
	wantErr(t, up(x, none, false, []float64{0.4, 1}, o(1, 1, 0, 2)), "sizes should be greater than 0")
	wantErr(t, up(tensor(t, poolSeq(4, 1), 1, 2, 2), []int64{4, 4}, false, none, o(1, 4, 4)), "4D")
	wantErr(t, up(x, []int64{4, 4}, false, none, o(1, 1, 4, 5)), "cannot resize a static tensor")
	wantErr(t, up(x, []int64{4, 4}, false, none, empty(t, executor.Float16, 1, 1, 4, 4)), "want the input's float32")
	wantErr(t, call(t, "aten::upsample_bilinear2d.vec_out", x, []int64{4, 4}, false, none, o(1, 1, 4, 4)), "5 arguments")
}
