package portable

import (
	"math"
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.ops.aten.max_pool2d_with_indices (torch 2.15), except with NaN,
// where the official runtime differs (testdata/nan/ops/pool).
func TestMaxPool2dWithIndices(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	x55 := func() *executor.Tensor {
		v := make([]float32, 25)
		for i := range v {
			v[i] = float32(i * 7 % 11)
		}
		return tensor(t, v, 1, 5, 5)
	}
	half := func(typ executor.ScalarType) *executor.Tensor {
		x := empty(t, typ, 1, 1, 2, 3)
		storeF64(x, []float64{0.1, -0.2, 0.3, 0.4, 0.5, -0.6})
		return x
	}
	for _, tc := range []struct {
		name       string
		in         *executor.Tensor
		k, s, p, d []int64
		ceil       bool
		sizes      []int
		want       []float64
		wantIdx    []int64
	}{
		{"single int kernel, default stride", tensor(t, []float32{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3}, 1, 1, 4, 4),
			[]int64{2}, []int64{}, []int64{0}, []int64{1}, false, []int{1, 1, 2, 2}, []float64{9, 6, 9, 9}, []int64{5, 7, 12, 14}},
		{"stride, padding, dilation", x55(), []int64{3, 3}, []int64{2, 2}, []int64{1, 1}, []int64{2, 2}, false, []int{1, 2, 2},
			[]float64{9, 9, 9, 9}, []int64{6, 6, 6, 6}},
		// H=W=5: ceil gives 4 windows, the 4th would start in the right padding, so 3.
		{"ceil mode", x55(), []int64{2, 2}, []int64{2, 2}, []int64{1, 1}, []int64{1}, true, []int{1, 3, 3},
			[]float64{0, 7, 10, 4, 9, 10, 8, 9, 7}, []int64{0, 1, 3, 10, 6, 14, 20, 17, 23}},
		{"rectangular window", x55(), []int64{2, 3}, []int64{1, 2}, []int64{1, 0}, []int64{1, 1}, false, []int{1, 6, 2},
			[]float64{7, 10, 9, 10, 9, 10, 9, 10, 9, 9, 8, 7}, []int64{1, 3, 6, 3, 6, 14, 17, 14, 17, 17, 20, 23}},
		// The official runtime, not eager (which gives NaN, NaN, NaN, 9 at the last NaN's index):
		// the first tap starts the window, a NaN there stays, a NaN later never compares greater.
		{"a NaN first tap stays, a later NaN loses", tensor(t, []float32{1, float32(nan), 3, float32(nan), 5, 6, 7, 8, 9}, 1, 3, 3),
			[]int64{2, 2}, []int64{1, 1}, []int64{0}, []int64{1}, false, []int{1, 2, 2}, []float64{5, nan, nan, 9}, []int64{4, 1, 3, 8}},
		{"ties keep the first", tensor(t, []float32{2, 2, 2, 2}, 1, 2, 2), []int64{2, 2}, []int64{1, 1}, []int64{1, 1}, []int64{1}, false, []int{1, 3, 3},
			[]float64{2, 2, 2, 2, 2, 2, 2, 2, 2}, []int64{0, 0, 1, 0, 0, 1, 2, 2, 3}},
		{"all -Inf", tensor(t, []float32{float32(-inf), float32(-inf), float32(-inf), float32(-inf)}, 1, 2, 2), []int64{2, 2}, []int64{1, 1}, []int64{1, 1}, []int64{1}, false, []int{1, 3, 3},
			[]float64{-inf, -inf, -inf, -inf, -inf, -inf, -inf, -inf, -inf}, []int64{0, 0, 1, 0, 0, 1, 2, 2, 3}},
		{"int32 with padding", tensor(t, []int32{-5, -2, -9, -7, -1, -3}, 1, 2, 3), []int64{2, 2}, []int64{1, 1}, []int64{1, 1}, []int64{1}, false, []int{1, 3, 4},
			[]float64{-5, -2, -2, -9, -5, -1, -1, -3, -7, -1, -1, -3}, []int64{0, 1, 1, 2, 0, 4, 4, 5, 3, 4, 4, 5}},
		{"uint8", tensor(t, []uint8{200, 3, 255, 17}, 1, 2, 2), []int64{1, 2}, []int64{1, 1}, []int64{0}, []int64{1}, false, []int{1, 2, 1},
			[]float64{200, 255}, []int64{0, 2}},
		{"float16", half(executor.Float16), []int64{2, 2}, []int64{1, 1}, []int64{0}, []int64{1}, false, []int{1, 1, 1, 2}, []float64{0.5, 0.5}, []int64{4, 4}},
		{"bfloat16", half(executor.BFloat16), []int64{2, 2}, []int64{1, 1}, []int64{0}, []int64{1}, false, []int{1, 1, 1, 2}, []float64{0.5, 0.5}, []int64{4, 4}},
		{"float64", tensor(t, []float64{0.1, -0.2, 0.3, 0.4, 0.5, -0.6}, 1, 1, 2, 3), []int64{2, 2}, []int64{1, 1}, []int64{0}, []int64{1}, false, []int{1, 1, 1, 2},
			[]float64{0.5, 0.5}, []int64{4, 4}},
		// The only window holds input rows/cols -1 and 2 of a 1×1 input: no element. ExecuTorch's
		// kernel gives 0 at index 0 (torch: the lowest value at index 4).
		{"window outside the input", tensor(t, []float32{1}, 1, 1, 1, 1), []int64{2, 2}, []int64{2, 2}, []int64{1, 1}, []int64{3, 3}, true, []int{1, 1, 1, 1},
			[]float64{0}, []int64{0}},
		{"window outside the input, int16", tensor(t, []int16{1}, 1, 1, 1, 1), []int64{2, 2}, []int64{2, 2}, []int64{1, 1}, []int64{3, 3}, true, []int{1, 1, 1, 1},
			[]float64{0}, []int64{0}},
		// Rows -1 and 2 of a 2-row input: no element in either window (the official runtime: 0 0
		// at 0 0; torch: -inf -inf at 4 5).
		{"dilated rows outside the input", tensor(t, []float32{1, 2, 3, 4}, 1, 2, 2), []int64{2, 1}, []int64{1, 1}, []int64{1, 0}, []int64{3, 1}, false, []int{1, 1, 2},
			[]float64{0, 0}, []int64{0, 0}},
		{"empty batch", empty(t, executor.Float32, 0, 1, 2, 2), []int64{2}, []int64{}, []int64{0}, []int64{1}, false, []int{0, 1, 1, 1}, []float64{}, []int64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := empty(t, tc.in.ScalarType(), tc.sizes...)
			idx := empty(t, executor.Int64, tc.sizes...)
			ret := []*executor.Tensor{out, idx}
			if err := call(t, "aten::max_pool2d_with_indices.out", tc.in, tc.k, tc.s, tc.p, tc.d, tc.ceil, out, idx, ret); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, out, tc.sizes, tc.want)
			if got, _ := executor.Values[int64](idx); !slices.Equal(got, tc.wantIdx) || !slices.Equal(idx.Sizes(), tc.sizes) {
				t.Fatalf("indices %v %v, want %v %v", idx.Sizes(), got, tc.sizes, tc.wantIdx)
			}
		})
	}
}

func TestMaxPool2dWithIndicesInt64Exact(t *testing.T) {
	in := tensor(t, []int64{1<<62 + 1, 1 << 62, -1 << 62, 1<<62 + 3}, 1, 2, 2)
	out, idx := dynamic(t, executor.Int64, 1, 2, 2), dynamic(t, executor.Int64, 1, 2, 2)
	if err := call(t, "aten::max_pool2d_with_indices.out", in, []int64{2, 1}, []int64{1, 1}, []int64{0}, []int64{1}, false, out, idx, []*executor.Tensor{out, idx}); err != nil {
		t.Fatal(err)
	}
	got, _ := executor.Values[int64](out)
	gi, _ := executor.Values[int64](idx)
	if !slices.Equal(got, []int64{1<<62 + 1, 1<<62 + 3}) || !slices.Equal(gi, []int64{0, 3}) || !slices.Equal(out.Sizes(), []int{1, 1, 2}) {
		t.Fatalf("got %v %v %v", out.Sizes(), got, gi)
	}
}

func TestMaxPool2dWithIndicesErrors(t *testing.T) {
	x := tensor(t, poolSeq(9, 1), 1, 3, 3)
	k2, one, zero := []int64{2, 2}, []int64{1}, []int64{0}
	mp := func(in any, k, s, p, d []int64, out, idx *executor.Tensor) error {
		return call(t, "aten::max_pool2d_with_indices.out", in, k, s, p, d, false, out, idx, []*executor.Tensor{out, idx})
	}
	o := func(s ...int) *executor.Tensor { return empty(t, executor.Float32, s...) }
	i := func(s ...int) *executor.Tensor { return empty(t, executor.Int64, s...) }
	wantErr(t, mp(x, k2, one, zero, one, o(1, 2, 2), empty(t, executor.Int32, 1, 2, 2)), "argument 7 (indices): want Int64")
	wantErr(t, mp(x, k2, one, zero, one, empty(t, executor.Float64, 1, 2, 2), i(1, 2, 2)), "want the input's float32")
	wantErr(t, mp(x, k2, one, zero, one, o(1, 2, 2), i(1, 3, 3)), "indices: ")
	wantErr(t, mp(x, k2, one, zero, one, o(1, 3, 3), i(1, 2, 2)), "out: ")
	wantErr(t, mp(x, []int64{1, 2, 3}, one, zero, one, o(1, 2, 2), i(1, 2, 2)), "max_pool2d: kernel_size must either be a single int")
	wantErr(t, mp(x, k2, one, zero, []int64{1, 1, 1}, o(1, 2, 2), i(1, 2, 2)), "dilation must either be a single int")
	wantErr(t, mp(x, k2, one, zero, zero, o(1, 2, 2), i(1, 2, 2)), "dilation should be greater than zero")
	wantErr(t, mp(x, k2, zero, zero, one, o(1, 2, 2), i(1, 2, 2)), "stride should be greater than zero")
	wantErr(t, mp(x, k2, one, []int64{2}, []int64{3}, o(1, 2, 2), i(1, 2, 2)), "at most half of kernel size")
	wantErr(t, mp(x, []int64{2}, one, zero, []int64{3}, o(1, 2, 2), i(1, 2, 2)), "too small")
	wantErr(t, mp(tensor(t, []bool{true, false, true, false}, 1, 2, 2), k2, one, zero, one, empty(t, executor.Bool, 1, 1, 1), i(1, 1, 1)), "does not support bool")
	wantErr(t, mp(tensor(t, poolSeq(4, 1), 2, 2), k2, one, zero, one, o(1, 1), i(1, 1)), "3D or 4D")
	wantErr(t, mp(x, k2, one, zero, one, o(1, 2, 2), nil), "argument 7 (indices)")
	wantErr(t, call(t, "aten::max_pool2d_with_indices.out", x, k2, one, zero, one, false, o(1, 2, 2), i(1, 2, 2)), "8 arguments")
}
