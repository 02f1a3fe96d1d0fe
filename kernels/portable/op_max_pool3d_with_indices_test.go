package portable

import (
	"math"
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

// poolSeq3d is the 3-D pool tests' input: ((i·37) mod 29 − 14)·0.29 as float32, values in
// [-4.06, 4.06] with few ties, none exact in binary; specials overwrite some (NaN, ±Inf).
func poolSeq3d(n int, specials map[int]float64) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(float64((i*37)%29-14) * 0.29)
	}
	for i, x := range specials {
		v[i] = float32(x)
	}
	return v
}

// poolSeq3dAs is poolSeq3d(n, nil) in dtype: integers take it times 10, rounded (uint8 plus
// 50), as tools/reference/print_3d_kernel_cases.py does.
func poolSeq3dAs(t *testing.T, dtype executor.ScalarType, sizes ...int) *executor.Tensor {
	v := poolSeq3d(linalgNumel(sizes), nil)
	f := make([]float64, len(v))
	for i, x := range v {
		f[i] = float64(x)
		if !isFloat(dtype) {
			f[i] = math.RoundToEven(float64(x * 10))
			if dtype == executor.Uint8 {
				f[i] += 50
			}
		}
	}
	x := empty(t, dtype, sizes...)
	storeF64(x, f)
	return x
}

// Expected values from eager PyTorch, torch.ops.aten.max_pool3d_with_indices (torch 2.15;
// tools/reference/print_3d_kernel_cases.py maxpool): the official runtime has no kernel.
func TestMaxPool3dWithIndices(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, tc := range []struct {
		name       string
		in         []int
		specials   map[int]float64
		k, s, p, d []int64
		ceil       bool
		sizes      []int
		want       []float64
		wantIdx    []int64
	}{
		{"cube kernel, default stride", []int{1, 1, 4, 4, 4}, nil, []int64{2}, []int64{}, []int64{0}, []int64{1}, false,
			[]int{1, 1, 2, 2, 2}, []float64{2.6099999, 4.05999994, 3.48000002, 3.19000006, 3.76999998, 3.48000002, 2.9000001, 4.05999994},
			[]int64{21, 18, 25, 14, 36, 54, 61, 47}},
		{"padding = kernel/2, stride 1", []int{1, 2, 3, 3, 4}, nil, []int64{3, 3, 3}, []int64{1, 1, 1}, []int64{1, 1, 1}, []int64{1}, false,
			[]int{1, 2, 3, 3, 4}, []float64{1.74000001, 4.05999994, 4.05999994, 4.05999994, 2.6099999, 4.05999994, 4.05999994, 4.05999994, 2.6099999, 4.05999994, 4.05999994, 4.05999994, 3.48000002, 4.05999994, 4.05999994, 4.05999994, 3.48000002, 4.05999994, 4.05999994, 4.05999994, 2.9000001, 4.05999994, 4.05999994, 4.05999994, 3.48000002, 4.05999994, 4.05999994, 4.05999994, 3.48000002, 4.05999994, 4.05999994, 4.05999994, 2.9000001, 4.05999994, 4.05999994, 4.05999994, 3.76999998, 3.76999998, 3.48000002, 3.48000002, 3.76999998, 3.76999998, 4.05999994, 4.05999994, 2.02999997, 3.48000002, 4.05999994, 4.05999994, 3.76999998, 3.76999998, 3.76999998, 3.48000002, 3.76999998, 3.76999998, 4.05999994, 4.05999994, 3.76999998, 3.76999998, 4.05999994, 4.05999994, 3.76999998, 3.76999998, 3.76999998, 3.48000002, 3.76999998, 3.76999998, 3.76999998, 3.48000002, 3.76999998, 3.76999998, 3.76999998, 3.48000002},
			[]int64{17, 18, 18, 18, 21, 18, 18, 18, 21, 18, 18, 18, 25, 18, 18, 18, 25, 18, 18, 18, 32, 18, 18, 18, 25, 18, 18, 18, 25, 18, 18, 18, 32, 18, 18, 18, 0, 0, 18, 18, 0, 0, 11, 11, 21, 18, 11, 11, 0, 0, 29, 18, 0, 0, 11, 11, 29, 29, 11, 11, 29, 29, 29, 18, 29, 29, 29, 18, 29, 29, 29, 18}},
		{"uneven kernel, stride, padding", []int{1, 5, 6, 7}, nil, []int64{2, 3, 2}, []int64{1, 2, 2}, []int64{1, 1, 0}, []int64{1, 1, 1}, false,
			[]int{1, 6, 3, 3}, []float64{3.76999998, 2.9000001, -0.870000005, 3.76999998, 2.31999993, 4.05999994, 3.76999998, 1.15999997, 3.48000002, 3.76999998, 2.9000001, 4.05999994, 3.76999998, 3.76999998, 4.05999994, 3.76999998, 3.76999998, 3.48000002, 3.19000006, 3.76999998, 4.05999994, 4.05999994, 3.76999998, 3.48000002, 4.05999994, 3.76999998, 3.76999998, 4.05999994, 3.76999998, 3.19000006, 4.05999994, 3.76999998, 3.76999998, 4.05999994, 4.05999994, 3.76999998, 4.05999994, 3.48000002, 3.19000006, 4.05999994, 4.05999994, 3.76999998, 2.9000001, 4.05999994, 3.76999998, 1.15999997, 3.48000002, 2.02999997, 0.579999983, 4.05999994, 1.45000005, -0.579999983, 4.05999994, 0.289999992},
			[]int64{7, 3, 5, 7, 10, 18, 36, 24, 25, 7, 3, 47, 7, 65, 18, 36, 65, 25, 43, 94, 47, 105, 65, 54, 105, 65, 123, 134, 94, 130, 105, 94, 152, 105, 163, 123, 134, 170, 130, 134, 192, 152, 148, 163, 152, 169, 170, 173, 176, 192, 180, 190, 192, 194}},
		{"dilation 2", []int{2, 1, 5, 5, 5}, nil, []int64{2, 2, 2}, []int64{1, 2, 1}, []int64{1, 0, 1}, []int64{2, 2, 2}, false,
			[]int{2, 1, 5, 2, 5}, []float64{3.76999998, 3.48000002, 3.76999998, 2.31999993, 2.02999997, 3.76999998, 4.05999994, 3.76999998, 4.05999994, 0, 2.9000001, 2.6099999, 2.9000001, 3.48000002, 2.9000001, 2.9000001, 3.19000006, 2.9000001, 3.19000006, 0.870000005, 4.05999994, 3.48000002, 4.05999994, 2.6099999, 2.02999997, 3.76999998, 4.05999994, 3.76999998, 4.05999994, 0, 3.19000006, 3.48000002, 3.19000006, 3.48000002, 1.15999997, 2.9000001, 3.48000002, 3.76999998, 3.48000002, 3.76999998, 4.05999994, 1.74000001, 4.05999994, 2.6099999, 0.289999992, 2.02999997, 2.31999993, 2.02999997, 2.31999993, -1.74000001, 1.45000005, 3.76999998, 4.05999994, 3.76999998, 4.05999994, -0.579999983, 3.48000002, 4.05999994, 1.74000001, 4.05999994, 2.31999993, 2.9000001, 3.19000006, 2.9000001, 3.19000006, 0.289999992, 2.6099999, 3.19000006, 3.48000002, 3.19000006, 1.45000005, 3.76999998, 4.05999994, 3.76999998, 4.05999994, 4.05999994, 3.76999998, 4.05999994, 2.6099999, 4.05999994, 0.579999983, 2.9000001, 3.48000002, 3.76999998, 3.48000002, 3.19000006, 2.9000001, 3.19000006, 3.76999998, 3.19000006, -0.289999992, 3.76999998, 2.31999993, 2.02999997, 2.31999993, 4.05999994, 3.76999998, 4.05999994, 2.6099999, 2.31999993},
			[]int64{36, 25, 36, 39, 28, 36, 47, 36, 47, 38, 61, 50, 3, 54, 3, 61, 72, 61, 14, 13, 76, 25, 76, 79, 28, 36, 47, 36, 47, 38, 101, 112, 101, 54, 53, 61, 112, 123, 112, 123, 76, 75, 76, 79, 78, 86, 97, 86, 97, 88, 26, 27, 38, 27, 38, 36, 45, 38, 37, 38, 1, 52, 63, 52, 63, 11, 12, 63, 74, 63, 26, 27, 38, 27, 38, 96, 85, 38, 99, 38, 51, 52, 103, 114, 103, 121, 110, 63, 114, 63, 76, 85, 88, 77, 88, 96, 85, 96, 99, 88}},
		{"ceil mode, last window starts in the padding", []int{1, 1, 5, 5, 4}, nil, []int64{2, 2, 2}, []int64{2, 2, 2}, []int64{1, 1, 1}, []int64{1}, true,
			[]int{1, 1, 3, 3, 3}, []float64{-4.05999994, 0.579999983, 2.9000001, -2.31999993, 2.31999993, 3.76999998, -0.579999983, 4.05999994, -2.02999997, 0.289999992, 2.6099999, 3.19000006, 2.02999997, 3.48000002, 4.05999994, 3.76999998, 3.48000002, 2.31999993, 0.579999983, 2.9000001, 3.48000002, 2.31999993, 3.76999998, 0.870000005, 4.05999994, 3.76999998, 2.6099999},
			[]int64{0, 2, 3, 8, 10, 7, 16, 18, 19, 20, 21, 43, 28, 25, 47, 36, 54, 39, 60, 61, 83, 68, 65, 71, 76, 94, 79}},
		{"ceil mode without padding", []int{1, 1, 3, 5, 4}, nil, []int64{2, 3, 2}, []int64{2, 2, 3}, []int64{0, 0, 0}, []int64{1}, true,
			[]int{1, 1, 2, 2, 2}, []float64{3.48000002, 3.76999998, 3.76999998, 2.31999993, 0.289999992, 4.05999994, 2.02999997, -1.74000001},
			[]int64{25, 7, 36, 39, 49, 47, 57, 59}},
		{"a NaN wins, the last NaN's index", []int{1, 1, 2, 3, 3}, map[int]float64{0: nan, 5: nan, 10: nan, 13: 100}, []int64{2, 2, 2}, []int64{1, 1, 1}, []int64{0}, []int64{1}, false,
			[]int{1, 1, 1, 2, 2}, []float64{nan, nan, 100, nan},
			[]int64{10, 10, 13, 5}},
		{"NaN with padding and ceil", []int{1, 1, 3, 3, 3}, map[int]float64{13: nan, 26: nan}, []int64{2, 2, 2}, []int64{2, 2, 2}, []int64{1, 1, 1}, []int64{1}, true,
			[]int{1, 1, 2, 2, 2}, []float64{-4.05999994, 0.579999983, 2.9000001, 3.76999998, 4.05999994, 2.31999993, 2.6099999, nan},
			[]int64{0, 2, 3, 7, 18, 10, 21, 26}},
		{"Inf and -Inf", []int{1, 1, 2, 2, 3}, map[int]float64{1: inf, 6: -inf, 7: -inf, 9: -inf, 10: -inf}, []int64{2, 1, 2}, []int64{1, 1, 1}, []int64{0}, []int64{1}, false,
			[]int{1, 1, 1, 2, 2}, []float64{inf, inf, 2.9000001, -0.870000005},
			[]int64{1, 1, 3, 5}},
		{"all -Inf, padded", []int{1, 1, 1, 2, 2}, map[int]float64{0: -inf, 1: -inf, 2: -inf, 3: -inf}, []int64{1, 2, 2}, []int64{1, 1, 1}, []int64{0, 1, 1}, []int64{1}, false,
			[]int{1, 1, 1, 3, 3}, []float64{-inf, -inf, -inf, -inf, -inf, -inf, -inf, -inf, -inf},
			[]int64{0, 0, 1, 0, 0, 1, 2, 2, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := tensor(t, poolSeq3d(linalgNumel(tc.in), tc.specials), tc.in...)
			out := empty(t, executor.Float32, tc.sizes...)
			idx := empty(t, executor.Int64, tc.sizes...)
			if err := call(t, "aten::max_pool3d_with_indices.out", in, tc.k, tc.s, tc.p, tc.d, tc.ceil, out, idx, []*executor.Tensor{out, idx}); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, out, tc.sizes, tc.want)
			if got, _ := executor.Values[int64](idx); !slices.Equal(got, tc.wantIdx) || !slices.Equal(idx.Sizes(), tc.sizes) {
				t.Fatalf("indices %v %v, want %v %v", idx.Sizes(), got, tc.sizes, tc.wantIdx)
			}
		})
	}
}

// Other dtypes on the second case's window: [1, 2, 3, 3, 4], kernel 3, stride 1, padding 1.
func TestMaxPool3dWithIndicesDtypes(t *testing.T) {
	for _, tc := range []struct {
		dtype   executor.ScalarType
		want    []float64
		wantIdx []int64
	}{
		{executor.Float64, []float64{1.7400000095367432, 4.059999942779541, 4.059999942779541, 4.059999942779541, 2.609999895095825, 4.059999942779541, 4.059999942779541, 4.059999942779541, 2.609999895095825, 4.059999942779541, 4.059999942779541, 4.059999942779541, 3.4800000190734863, 4.059999942779541, 4.059999942779541, 4.059999942779541, 3.4800000190734863, 4.059999942779541, 4.059999942779541, 4.059999942779541, 2.9000000953674316, 4.059999942779541, 4.059999942779541, 4.059999942779541, 3.4800000190734863, 4.059999942779541, 4.059999942779541, 4.059999942779541, 3.4800000190734863, 4.059999942779541, 4.059999942779541, 4.059999942779541, 2.9000000953674316, 4.059999942779541, 4.059999942779541, 4.059999942779541, 3.7699999809265137, 3.7699999809265137, 3.4800000190734863, 3.4800000190734863, 3.7699999809265137, 3.7699999809265137, 4.059999942779541, 4.059999942779541, 2.0299999713897705, 3.4800000190734863, 4.059999942779541, 4.059999942779541, 3.7699999809265137, 3.7699999809265137, 3.7699999809265137, 3.4800000190734863, 3.7699999809265137, 3.7699999809265137, 4.059999942779541, 4.059999942779541, 3.7699999809265137, 3.7699999809265137, 4.059999942779541, 4.059999942779541, 3.7699999809265137, 3.7699999809265137, 3.7699999809265137, 3.4800000190734863, 3.7699999809265137, 3.7699999809265137, 3.7699999809265137, 3.4800000190734863, 3.7699999809265137, 3.7699999809265137, 3.7699999809265137, 3.4800000190734863},
			[]int64{17, 18, 18, 18, 21, 18, 18, 18, 21, 18, 18, 18, 25, 18, 18, 18, 25, 18, 18, 18, 32, 18, 18, 18, 25, 18, 18, 18, 25, 18, 18, 18, 32, 18, 18, 18, 0, 0, 18, 18, 0, 0, 11, 11, 21, 18, 11, 11, 0, 0, 29, 18, 0, 0, 11, 11, 29, 29, 11, 11, 29, 29, 29, 18, 29, 29, 29, 18, 29, 29, 29, 18}},
		{executor.Float16, []float64{1.740234375, 4.05859375, 4.05859375, 4.05859375, 2.609375, 4.05859375, 4.05859375, 4.05859375, 2.609375, 4.05859375, 4.05859375, 4.05859375, 3.48046875, 4.05859375, 4.05859375, 4.05859375, 3.48046875, 4.05859375, 4.05859375, 4.05859375, 2.900390625, 4.05859375, 4.05859375, 4.05859375, 3.48046875, 4.05859375, 4.05859375, 4.05859375, 3.48046875, 4.05859375, 4.05859375, 4.05859375, 2.900390625, 4.05859375, 4.05859375, 4.05859375, 3.76953125, 3.76953125, 3.48046875, 3.48046875, 3.76953125, 3.76953125, 4.05859375, 4.05859375, 2.029296875, 3.48046875, 4.05859375, 4.05859375, 3.76953125, 3.76953125, 3.76953125, 3.48046875, 3.76953125, 3.76953125, 4.05859375, 4.05859375, 3.76953125, 3.76953125, 4.05859375, 4.05859375, 3.76953125, 3.76953125, 3.76953125, 3.48046875, 3.76953125, 3.76953125, 3.76953125, 3.48046875, 3.76953125, 3.76953125, 3.76953125, 3.48046875},
			[]int64{17, 18, 18, 18, 21, 18, 18, 18, 21, 18, 18, 18, 25, 18, 18, 18, 25, 18, 18, 18, 32, 18, 18, 18, 25, 18, 18, 18, 25, 18, 18, 18, 32, 18, 18, 18, 0, 0, 18, 18, 0, 0, 11, 11, 21, 18, 11, 11, 0, 0, 29, 18, 0, 0, 11, 11, 29, 29, 11, 11, 29, 29, 29, 18, 29, 29, 29, 18, 29, 29, 29, 18}},
		{executor.BFloat16, []float64{1.7421875, 4.0625, 4.0625, 4.0625, 2.609375, 4.0625, 4.0625, 4.0625, 2.609375, 4.0625, 4.0625, 4.0625, 3.484375, 4.0625, 4.0625, 4.0625, 3.484375, 4.0625, 4.0625, 4.0625, 2.90625, 4.0625, 4.0625, 4.0625, 3.484375, 4.0625, 4.0625, 4.0625, 3.484375, 4.0625, 4.0625, 4.0625, 2.90625, 4.0625, 4.0625, 4.0625, 3.765625, 3.765625, 3.484375, 3.484375, 3.765625, 3.765625, 4.0625, 4.0625, 2.03125, 3.484375, 4.0625, 4.0625, 3.765625, 3.765625, 3.765625, 3.484375, 3.765625, 3.765625, 4.0625, 4.0625, 3.765625, 3.765625, 4.0625, 4.0625, 3.765625, 3.765625, 3.765625, 3.484375, 3.765625, 3.765625, 3.765625, 3.484375, 3.765625, 3.765625, 3.765625, 3.484375},
			[]int64{17, 18, 18, 18, 21, 18, 18, 18, 21, 18, 18, 18, 25, 18, 18, 18, 25, 18, 18, 18, 32, 18, 18, 18, 25, 18, 18, 18, 25, 18, 18, 18, 32, 18, 18, 18, 0, 0, 18, 18, 0, 0, 11, 11, 21, 18, 11, 11, 0, 0, 29, 18, 0, 0, 11, 11, 29, 29, 11, 11, 29, 29, 29, 18, 29, 29, 29, 18, 29, 29, 29, 18}},
		{executor.Int32, []float64{17, 41, 41, 41, 26, 41, 41, 41, 26, 41, 41, 41, 35, 41, 41, 41, 35, 41, 41, 41, 29, 41, 41, 41, 35, 41, 41, 41, 35, 41, 41, 41, 29, 41, 41, 41, 38, 38, 35, 35, 38, 38, 41, 41, 20, 35, 41, 41, 38, 38, 38, 35, 38, 38, 41, 41, 38, 38, 41, 41, 38, 38, 38, 35, 38, 38, 38, 35, 38, 38, 38, 35},
			[]int64{17, 18, 18, 18, 21, 18, 18, 18, 21, 18, 18, 18, 25, 18, 18, 18, 25, 18, 18, 18, 32, 18, 18, 18, 25, 18, 18, 18, 25, 18, 18, 18, 32, 18, 18, 18, 0, 0, 18, 18, 0, 0, 11, 11, 21, 18, 11, 11, 0, 0, 29, 18, 0, 0, 11, 11, 29, 29, 11, 11, 29, 29, 29, 18, 29, 29, 29, 18, 29, 29, 29, 18}},
		{executor.Uint8, []float64{67, 91, 91, 91, 76, 91, 91, 91, 76, 91, 91, 91, 85, 91, 91, 91, 85, 91, 91, 91, 79, 91, 91, 91, 85, 91, 91, 91, 85, 91, 91, 91, 79, 91, 91, 91, 88, 88, 85, 85, 88, 88, 91, 91, 70, 85, 91, 91, 88, 88, 88, 85, 88, 88, 91, 91, 88, 88, 91, 91, 88, 88, 88, 85, 88, 88, 88, 85, 88, 88, 88, 85},
			[]int64{17, 18, 18, 18, 21, 18, 18, 18, 21, 18, 18, 18, 25, 18, 18, 18, 25, 18, 18, 18, 32, 18, 18, 18, 25, 18, 18, 18, 25, 18, 18, 18, 32, 18, 18, 18, 0, 0, 18, 18, 0, 0, 11, 11, 21, 18, 11, 11, 0, 0, 29, 18, 0, 0, 11, 11, 29, 29, 11, 11, 29, 29, 29, 18, 29, 29, 29, 18, 29, 29, 29, 18}},
	} {
		t.Run(executor.DTypeName(tc.dtype), func(t *testing.T) {
			sizes := []int{1, 2, 3, 3, 4}
			out, idx := dynamic(t, tc.dtype, sizes...), dynamic(t, executor.Int64, sizes...)
			l := []int64{1}
			if err := call(t, "aten::max_pool3d_with_indices.out", poolSeq3dAs(t, tc.dtype, sizes...), []int64{3}, l, l, l, false, out, idx, []*executor.Tensor{out, idx}); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, out, sizes, tc.want)
			if got, _ := executor.Values[int64](idx); !slices.Equal(got, tc.wantIdx) {
				t.Fatalf("indices %v, want %v", got, tc.wantIdx)
			}
		})
	}
}

func TestMaxPool3dWithIndicesMore(t *testing.T) {
	l := func(v ...int64) []int64 { return v }
	mp := func(in any, k, s, p, d []int64, ceil bool, out, idx *executor.Tensor) error {
		return call(t, "aten::max_pool3d_with_indices.out", in, k, s, p, d, ceil, out, idx, []*executor.Tensor{out, idx})
	}
	// An unbatched [C, D, H, W] input; the window of the 1×1×1 volume's only output holds
	// depths, rows and columns -1 and 2: no element, so -Inf at the first position clipped to
	// the input's start, (2·1 + 2)·1 + 2 = 6 (torch: tensor([[[[-inf]]]]), tensor([[[[6]]]]));
	// int16 gives its lowest value.
	out, idx := empty(t, executor.Float32, 1, 1, 1, 1), empty(t, executor.Int64, 1, 1, 1, 1)
	if err := mp(tensor(t, []float32{1}, 1, 1, 1, 1), l(2), l(2), l(1), l(3), true, out, idx); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, out, []int{1, 1, 1, 1}, []float64{math.Inf(-1)})
	if got, _ := executor.Values[int64](idx); !slices.Equal(got, []int64{6}) {
		t.Fatalf("indices %v, want [6]", got)
	}
	out16 := empty(t, executor.Int16, 1, 1, 1, 1)
	if err := mp(tensor(t, []int16{1}, 1, 1, 1, 1), l(2), l(2), l(1), l(3), true, out16, idx); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, out16, []int{1, 1, 1, 1}, []float64{math.MinInt16})

	// Empty batch.
	outN, idxN := empty(t, executor.Float32, 0, 1, 1, 1, 1), empty(t, executor.Int64, 0, 1, 1, 1, 1)
	if err := mp(empty(t, executor.Float32, 0, 1, 2, 2, 2), l(2), l(), l(0), l(1), false, outN, idxN); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, outN, []int{0, 1, 1, 1, 1}, []float64{})

	// A channels-last input and out: the same values as the contiguous case.
	in := linalgWithDimOrder(t, tensor(t, poolSeq3d(2*3*3*4, nil), 1, 2, 3, 3, 4), []uint8{0, 2, 3, 4, 1})
	want := dynamic(t, executor.Float32, 1, 2, 3, 3, 4)
	wantIdx := dynamic(t, executor.Int64, 1, 2, 3, 3, 4)
	if err := mp(tensor(t, poolSeq3d(2*3*3*4, nil), 1, 2, 3, 3, 4), l(3), l(1), l(1), l(1), false, want, wantIdx); err != nil {
		t.Fatal(err)
	}
	got, gotIdx := dynamic(t, executor.Float32, 1, 2, 3, 3, 4), dynamic(t, executor.Int64, 1, 2, 3, 3, 4)
	if err := mp(in, l(3), l(1), l(1), l(1), false, got, gotIdx); err != nil {
		t.Fatal(err)
	}
	wv, _ := executor.Values[float32](want)
	gv, _ := executor.Values[float32](got)
	wi, _ := executor.Values[int64](wantIdx)
	gi, _ := executor.Values[int64](gotIdx)
	if !slices.Equal(wv, gv) || !slices.Equal(wi, gi) {
		t.Fatalf("channels last: %v %v, want %v %v", gv, gi, wv, wi)
	}
}

func TestMaxPool3dWithIndicesErrors(t *testing.T) {
	x := tensor(t, poolSeq(27, 1), 1, 3, 3, 3)
	k2, one, zero := []int64{2, 2, 2}, []int64{1}, []int64{0}
	mp := func(in any, k, s, p, d []int64, out, idx *executor.Tensor) error {
		return call(t, "aten::max_pool3d_with_indices.out", in, k, s, p, d, false, out, idx, []*executor.Tensor{out, idx})
	}
	o := func(s ...int) *executor.Tensor { return empty(t, executor.Float32, s...) }
	i := func(s ...int) *executor.Tensor { return empty(t, executor.Int64, s...) }
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"indices dtype", mp(x, k2, one, zero, one, o(1, 2, 2, 2), empty(t, executor.Int32, 1, 2, 2, 2)), "argument 7 (indices): want Int64"},
		{"out dtype", mp(x, k2, one, zero, one, empty(t, executor.Float64, 1, 2, 2, 2), i(1, 2, 2, 2)), "want the input's float32"},
		{"indices size", mp(x, k2, one, zero, one, o(1, 2, 2, 2), i(1, 3, 3, 3)), "indices: "},
		{"out size", mp(x, k2, one, zero, one, o(1, 3, 3, 3), i(1, 2, 2, 2)), "out: "},
		{"kernel length", mp(x, []int64{2, 2}, one, zero, one, o(1, 2, 2, 2), i(1, 2, 2, 2)), "argument 1 (kernel_size): max_pool3d: kernel_size must either be a single int, or a tuple of three ints, got [2 2]"},
		{"stride length", mp(x, k2, []int64{1, 1}, zero, one, o(1, 2, 2, 2), i(1, 2, 2, 2)), "argument 2 (stride): max_pool3d: stride must either be omitted, a single int, or a tuple of three ints"},
		{"dilation zero", mp(x, k2, one, zero, []int64{1, 0, 1}, o(1, 2, 2, 2), i(1, 2, 2, 2)), "argument 4 (dilation): dilation should be greater than zero, got [1 0 1]"},
		{"stride zero", mp(x, k2, zero, zero, one, o(1, 2, 2, 2), i(1, 2, 2, 2)), "argument 2 (stride): stride should be greater than zero"},
		{"kernel zero", mp(x, []int64{2, 0, 2}, one, zero, one, o(1, 2, 2, 2), i(1, 2, 2, 2)), "argument 1 (kernel_size): kernel size should be greater than zero, got [2 0 2]"},
		{"padding", mp(x, k2, one, []int64{0, 0, 2}, one, o(1, 2, 2, 2), i(1, 2, 2, 2)), "argument 3 (padding): pad should be at most half of kernel size, got padding [0 0 2] for kernel size [2 2 2]"},
		{"too small", mp(x, k2, one, zero, []int64{3}, o(1, 2, 2, 2), i(1, 2, 2, 2)), "the calculated output size 0x0x0 is too small"},
		{"bool", mp(tensor(t, []bool{true, false, true, false, true, false, true, false}, 1, 2, 2, 2), k2, one, zero, one, empty(t, executor.Bool, 1, 1, 1, 1), i(1, 1, 1, 1)),
			"argument 0 (self): max_pool3d_with_indices does not support bool"},
		{"rank 3", mp(tensor(t, poolSeq(8, 1), 2, 2, 2), k2, one, zero, one, o(1, 1, 1), i(1, 1, 1)), "argument 0 (self): expected 4D or 5D (batch mode) tensor"},
		{"zero channels", mp(empty(t, executor.Float32, 1, 0, 2, 2, 2), k2, one, zero, one, o(1, 0, 1, 1, 1), i(1, 0, 1, 1, 1)), "expected 4D or 5D (batch mode) tensor with optional 0 dim batch size, got sizes [1 0 2 2 2]"},
		{"indices missing", mp(x, k2, one, zero, one, o(1, 2, 2, 2), nil), "argument 7 (indices)"},
		{"arg count", call(t, "aten::max_pool3d_with_indices.out", x, k2, one, zero, one, false, o(1, 2, 2, 2), i(1, 2, 2, 2)), "8 arguments"},
	} {
		t.Run(tc.name, func(t *testing.T) { wantErr(t, tc.err, tc.want) })
	}
}
