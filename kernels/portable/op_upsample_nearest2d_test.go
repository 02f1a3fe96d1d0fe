package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.ops.aten.upsample_nearest2d.vec (torch 2.15).
func TestUpsampleNearest2d(t *testing.T) {
	x := func() *executor.Tensor { return tensor(t, poolSeq(6, 1), 1, 1, 2, 3) }
	row10 := func() *executor.Tensor { return tensor(t, poolSeq(10, 1), 1, 1, 1, 10) }
	for _, tc := range []struct {
		name   string
		in     *executor.Tensor
		size   any
		scales any
		sizes  []int
		want   []float64
	}{
		{"output size", x(), []int64{4, 5}, none, []int{1, 1, 4, 5}, []float64{0, 0, 1, 1, 2, 0, 0, 1, 1, 2, 3, 3, 4, 4, 5, 3, 3, 4, 4, 5}},
		{"scale factors", x(), none, []float64{2, 1.5}, []int{1, 1, 4, 4}, []float64{0, 0, 1, 2, 0, 0, 1, 2, 3, 3, 4, 5, 3, 3, 4, 5}},
		{"downsample", tensor(t, poolSeq(16, 1), 1, 1, 4, 4), []int64{3, 2}, none, []int{1, 1, 3, 2}, []float64{0, 2, 4, 6, 8, 10}},
		// 10*2.05 = 20 = 2*10 takes o>>1, not floor(o/2.05).
		{"doubled size shifts", row10(), none, []float64{1, 2.05}, []int{1, 1, 1, 20},
			[]float64{0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9}},
		{"scale factor sets the scale", row10(), none, []float64{1, 0.65}, []int{1, 1, 1, 6}, []float64{0, 1, 3, 4, 6, 7}},
		{"size sets the scale", row10(), []int64{1, 7}, none, []int{1, 1, 1, 7}, []float64{0, 1, 2, 4, 5, 7, 8}},
		{"uint8", tensor(t, []uint8{250, 251, 252, 253, 254, 255}, 1, 1, 2, 3), []int64{3, 4}, none, []int{1, 1, 3, 4},
			[]float64{250, 250, 251, 252, 250, 250, 251, 252, 253, 253, 254, 255}},
		{"int64 keeps every bit", tensor(t, []int64{1<<62 + 1}, 1, 1, 1, 1), []int64{1, 2}, none, []int{1, 1, 1, 2}, []float64{1<<62 + 1, 1<<62 + 1}},
		{"batch and channels", tensor(t, poolSeq(8, 1), 2, 2, 1, 2), []int64{2, 3}, none, []int{2, 2, 2, 3},
			[]float64{0, 0, 1, 0, 0, 1, 2, 2, 3, 2, 2, 3, 4, 4, 5, 4, 4, 5, 6, 6, 7, 6, 6, 7}},
		{"empty batch", empty(t, executor.Float32, 0, 1, 2, 2), []int64{4, 4}, none, []int{0, 1, 4, 4}, []float64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := empty(t, tc.in.ScalarType(), tc.sizes...)
			if err := call(t, "aten::upsample_nearest2d.vec_out", tc.in, tc.size, tc.scales, out, out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, out, tc.sizes, tc.want)
			if tc.in.ScalarType() == executor.Int64 {
				if v, _ := executor.Values[int64](out); v[1] != 1<<62+1 {
					t.Fatalf("int64 copy lost bits: %v", v)
				}
			}
		})
	}
	out := dynamic(t, executor.Float32, 1, 1, 8, 8)
	if err := call(t, "aten::upsample_nearest2d.vec_out", x(), []int64{2, 6}, none, out, out); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, out, []int{1, 1, 2, 6}, []float64{0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5})
}

func TestUpsampleNearest2dErrors(t *testing.T) {
	x := tensor(t, poolSeq(4, 1), 1, 1, 2, 2)
	o := func(s ...int) *executor.Tensor { return empty(t, executor.Float32, s...) }
	up := func(in, size, scales any, out *executor.Tensor) error {
		return call(t, "aten::upsample_nearest2d.vec_out", in, size, scales, out, out)
	}
	wantErr(t, up(x, []int64{4, 4}, []float64{2, 2}, o(1, 1, 4, 4)), "exactly one of output_size and scale_factors")
	wantErr(t, up(x, none, none, o(1, 1, 4, 4)), "exactly one of output_size and scale_factors")
	wantErr(t, up(x, []int64{4}, none, o(1, 1, 4, 4)), "want 2 sizes")
	wantErr(t, up(x, none, []float64{2}, o(1, 1, 4, 4)), "want 2 scales")
	wantErr(t, up(x, []int64{0, 4}, none, o(1, 1, 0, 4)), "sizes should be greater than 0")
	wantErr(t, up(x, none, []float64{0.3, 1}, o(1, 1, 0, 2)), "sizes should be greater than 0")
	wantErr(t, up(x, none, []float64{-1, -2}, o(1, 1, 1, 1)), "sizes should be greater than 0")
	wantErr(t, up(tensor(t, poolSeq(4, 1), 1, 2, 2), []int64{4, 4}, none, o(1, 4, 4)), "4D")
	wantErr(t, up(empty(t, executor.Float32, 1, 0, 2, 2), []int64{4, 4}, none, o(1, 0, 4, 4)), "non-empty")
	wantErr(t, up(x, []int64{4, 4}, none, o(1, 1, 4, 5)), "cannot resize a static tensor")
	wantErr(t, up(x, []int64{4, 4}, none, empty(t, executor.Float64, 1, 1, 4, 4)), "want the input's float32")
	wantErr(t, up(tensor(t, []bool{true}, 1, 1, 1, 1), []int64{2, 2}, none, empty(t, executor.Bool, 1, 1, 2, 2)), "does not support bool")
	wantErr(t, up(x, []int64{4, 4}, 2.0, o(1, 1, 4, 4)), "argument 2 (scale_factors): want DoubleList or None")
	wantErr(t, up(x, 4, none, o(1, 1, 4, 4)), "argument 1 (output_size): want IntList")
	wantErr(t, call(t, "aten::upsample_nearest2d.vec_out", x, []int64{4, 4}, none, o(1, 1, 4, 4)), "4 arguments")
}
