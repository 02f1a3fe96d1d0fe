package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.ops.aten.constant_pad_nd (torch 2.15).
func TestConstantPadNd(t *testing.T) {
	inf := math.Inf(1)
	a := func() *executor.Tensor { return tensor(t, []float32{1, 2, 3, 4, 5, 6}, 2, 3) }
	for _, tc := range []struct {
		name  string
		in    *executor.Tensor
		pad   []int64
		value any
		sizes []int
		want  []float64
	}{
		{"last dim", a(), []int64{1, 2}, 0, []int{2, 6}, []float64{0, 1, 2, 3, 0, 0, 0, 4, 5, 6, 0, 0}},
		{"two dims, float value", a(), []int64{1, 0, 0, 1}, -1.5, []int{3, 4}, []float64{-1.5, 1, 2, 3, -1.5, 4, 5, 6, -1.5, -1.5, -1.5, -1.5}},
		{"negative pads crop", a(), []int64{-1, 1, 1, -1}, 9, []int{2, 3}, []float64{9, 9, 9, 2, 3, 9}},
		{"crop to empty", a(), []int64{-3, 0}, 9, []int{2, 0}, []float64{}},
		{"leading dim only", tensor(t, []float32{1, 2, 3, 4, 5, 6}, 1, 2, 3), []int64{0, 0, 1, 0, 1, 1}, 7, []int{3, 3, 3},
			[]float64{7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7}},
		{"int32, float value truncates", tensor(t, []int32{1, 2, 3, 4, 5, 6}, 2, 3), []int64{1, 1}, 2.9, []int{2, 5}, []float64{2, 1, 2, 3, 2, 2, 4, 5, 6, 2}},
		{"int32, negative float value", tensor(t, []int32{1, 2, 3, 4, 5, 6}, 2, 3), []int64{1, 0}, -2.9, []int{2, 4}, []float64{-2, 1, 2, 3, -2, 4, 5, 6}},
		{"uint8 wraps -1", tensor(t, []uint8{1, 2, 3, 4, 5, 6}, 2, 3), []int64{1, 0}, -1, []int{2, 4}, []float64{255, 1, 2, 3, 255, 4, 5, 6}},
		{"bool", tensor(t, []bool{true, false, true, false, true, true}, 2, 3), []int64{1, 0}, 2, []int{2, 4}, []float64{1, 1, 0, 1, 1, 0, 1, 1}},
		{"bool value", tensor(t, []int64{1, 2}, 2), []int64{0, 1}, true, []int{3}, []float64{1, 2, 1}},
		{"int64 keeps every bit", tensor(t, []int64{1<<62 + 1}, 1), []int64{1, 0}, 3, []int{2}, []float64{3, 1<<62 + 1}},
		{"float64", tensor(t, []float64{0.1, 0.2}, 2), []int64{0, 1}, 0.3, []int{3}, []float64{0.1, 0.2, 0.3}},
		{"rank 0", tensor(t, []float32{3}), []int64{}, 5, []int{}, []float64{3}},
		{"empty input", empty(t, executor.Float32, 0, 2), []int64{1, 1}, 5, []int{0, 4}, []float64{}},
		{"empty input grows", empty(t, executor.Float32, 0, 2), []int64{0, 0, 1, 0}, 5, []int{1, 2}, []float64{5, 5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := empty(t, tc.in.ScalarType(), tc.sizes...)
			if err := call(t, "aten::constant_pad_nd.out", tc.in, tc.pad, tc.value, out, out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, out, tc.sizes, tc.want)
			if tc.in.ScalarType() == executor.Int64 && tc.in.Numel() == 1 {
				if v, _ := executor.Values[int64](out); v[1] != 1<<62+1 {
					t.Fatalf("int64 copy lost bits: %v", v)
				}
			}
		})
	}
	for _, typ := range []executor.ScalarType{executor.Float16, executor.BFloat16} {
		in := empty(t, typ, 2, 3)
		storeF64(in, []float64{1, 2, 3, 4, 5, 6})
		for _, tc := range []struct {
			value    float64
			f16, b16 float64
		}{{0.1, 0.0999755859375, 0.10009765625}, {inf, inf, inf}} {
			out := empty(t, typ, 2, 4)
			if err := call(t, "aten::constant_pad_nd.out", in, []int64{0, 1}, tc.value, out, out); err != nil {
				t.Fatal(err)
			}
			w := tc.f16
			if typ == executor.BFloat16 {
				w = tc.b16
			}
			wantValuesAny(t, out, []int{2, 4}, []float64{1, 2, 3, w, 4, 5, 6, w})
		}
	}
	// A dynamic out is resized.
	out := dynamic(t, executor.Float32, 4, 4)
	if err := call(t, "aten::constant_pad_nd.out", a(), []int64{0, 0, 1, 0}, 0, out, out); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, out, []int{3, 3}, []float64{0, 0, 0, 1, 2, 3, 4, 5, 6})
}

func TestConstantPadNdErrors(t *testing.T) {
	a := tensor(t, []float32{1, 2, 3, 4, 5, 6}, 2, 3)
	o := func(s ...int) *executor.Tensor { return empty(t, executor.Float32, s...) }
	cp := func(in any, pad []int64, v any, out *executor.Tensor) error {
		return call(t, "aten::constant_pad_nd.out", in, pad, v, out, out)
	}
	wantErr(t, cp(a, []int64{1}, 0, o(2, 4)), "length must be even")
	wantErr(t, cp(a, []int64{1, 1, 1, 1, 1, 1}, 0, o(4, 5)), "pad more than")
	wantErr(t, cp(a, []int64{-4, 0}, 0, o(2, 0)), "crop more than the size 3 of dimension 1")
	// The crop must fit even when the other side's pad would make up for it.
	wantErr(t, cp(a, []int64{3, -4}, 0, o(2, 2)), "crop more than the size 3 of dimension 1")
	wantErr(t, cp(a, []int64{-2, -2}, 0, o(2, 0)), "crop more than")
	wantErr(t, cp(a, []int64{1, 1}, 0, o(2, 4)), "cannot resize a static tensor")
	wantErr(t, cp(a, []int64{1 << 40, 0}, 0, o(2, 4)), "too large")
	wantErr(t, cp(a, []int64{1, 1}, 0, empty(t, executor.Float64, 2, 5)), "want the input's float32")
	wantErr(t, cp(a, []int64{1, 1}, 1e40, o(2, 5)), "without overflow")
	wantErr(t, cp(tensor(t, []uint8{1}, 1), []int64{1, 1}, 300, empty(t, executor.Uint8, 3)), "without overflow")
	wantErr(t, cp(tensor(t, []uint8{1}, 1), []int64{1, 1}, -1.0, empty(t, executor.Uint8, 3)), "without overflow")
	wantErr(t, cp(tensor(t, []int32{1}, 1), []int64{1, 1}, math.NaN(), empty(t, executor.Int32, 3)), "without overflow")
	wantErr(t, cp(tensor(t, []int8{1}, 1), []int64{1, 1}, -129, empty(t, executor.Int8, 3)), "without overflow")
	f16 := empty(t, executor.Float16, 1)
	wantErr(t, cp(f16, []int64{1, 1}, 70000, empty(t, executor.Float16, 3)), "without overflow")
	wantErr(t, cp(a, []int64{1, 1}, "x", o(2, 5)), "argument 2 (value)")
	wantErr(t, cp(a, []int64{1, 1}, none, o(2, 5)), "argument 2 (value)")
	wantErr(t, call(t, "aten::constant_pad_nd.out", a, []int64{1, 1}, 0, o(2, 5)), "4 arguments")
}
