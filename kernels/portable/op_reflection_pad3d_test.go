package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.ops.aten.reflection_pad3d (torch 2.15).
func TestReflectionPad3d(t *testing.T) {
	a := func() *executor.Tensor { return tensor(t, poolSeq(12, 1), 1, 2, 2, 3) } // 0..11
	for _, tc := range []struct {
		name  string
		in    *executor.Tensor
		pad   []int64
		sizes []int
		want  []float64
	}{
		{"all sides", a(), []int64{1, 1, 1, 0, 1, 1}, []int{1, 4, 3, 5}, []float64{
			10, 9, 10, 11, 10, 7, 6, 7, 8, 7, 10, 9, 10, 11, 10, 4, 3, 4, 5, 4, 1, 0, 1, 2, 1, 4, 3, 4, 5, 4,
			10, 9, 10, 11, 10, 7, 6, 7, 8, 7, 10, 9, 10, 11, 10, 4, 3, 4, 5, 4, 1, 0, 1, 2, 1, 4, 3, 4, 5, 4}},
		{"negative pads crop", a(), []int64{-1, 1, 0, -1, 1, 0}, []int{1, 3, 1, 3}, []float64{7, 8, 7, 1, 2, 1, 7, 8, 7}},
		{"batch", tensor(t, poolSeq(16, 1), 2, 1, 2, 2, 2), []int64{1, 0, 0, 1, 1, 0}, []int{2, 1, 3, 3, 3}, []float64{
			5, 4, 5, 7, 6, 7, 5, 4, 5, 1, 0, 1, 3, 2, 3, 1, 0, 1, 5, 4, 5, 7, 6, 7, 5, 4, 5,
			13, 12, 13, 15, 14, 15, 13, 12, 13, 9, 8, 9, 11, 10, 11, 9, 8, 9, 13, 12, 13, 15, 14, 15, 13, 12, 13}},
		{"int32", tensor(t, []int32{0, 1, 2, 3, 4, 5, 6, 7}, 1, 2, 2, 2), []int64{0, 1, 1, 0, 0, 1}, []int{1, 3, 3, 3},
			[]float64{2, 3, 2, 0, 1, 0, 2, 3, 2, 6, 7, 6, 4, 5, 4, 6, 7, 6, 2, 3, 2, 0, 1, 0, 2, 3, 2}},
		{"no padding", a(), []int64{0, 0, 0, 0, 0, 0}, []int{1, 2, 2, 3}, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}},
		{"empty batch", empty(t, executor.Float64, 0, 1, 2, 2, 2), []int64{1, 1, 1, 1, 1, 1}, []int{0, 1, 4, 4, 4}, []float64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := empty(t, tc.in.ScalarType(), tc.sizes...)
			if err := call(t, "aten::reflection_pad3d.out", tc.in, tc.pad, out, out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, out, tc.sizes, tc.want)
		})
	}
	// A dynamic out is resized.
	out := dynamic(t, executor.Float32, 1, 4, 4, 4)
	if err := call(t, "aten::reflection_pad3d.out", tensor(t, []float32{1, 2}, 1, 1, 1, 2), []int64{1, 0, 0, 0, 0, 0}, out, out); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, out, []int{1, 1, 1, 3}, []float64{2, 1, 2})
}

func TestReflectionPad3dErrors(t *testing.T) {
	a := tensor(t, poolSeq(12, 1), 1, 2, 2, 3)
	o := func(s ...int) *executor.Tensor { return empty(t, executor.Float32, s...) }
	rp := func(in any, pad []int64, out *executor.Tensor) error {
		return call(t, "aten::reflection_pad3d.out", in, pad, out, out)
	}
	wantErr(t, rp(a, []int64{0, 0, 0, 0, 2, 0}, o(1, 4, 2, 3)), "should be less than the size 2 of dimension 1")
	wantErr(t, rp(a, []int64{0, 0, 0, 2, 0, 0}, o(1, 2, 4, 3)), "should be less than the size 2 of dimension 2")
	wantErr(t, rp(a, []int64{3, 0, 0, 0, 0, 0}, o(1, 2, 2, 6)), "should be less than the size 3 of dimension 3")
	wantErr(t, rp(a, []int64{0, 0, 0, 0, -1, -1}, o(1, 0, 2, 3)), "want at least 1")
	wantErr(t, rp(a, []int64{1, 1, 1, 1}, o(1, 2, 4, 5)), "want 6 values")
	wantErr(t, rp(tensor(t, poolSeq(4, 1), 2, 2), []int64{1, 1, 1, 1, 1, 1}, o(4, 4)), "4D or 5D")
	wantErr(t, rp(empty(t, executor.Float32, 1, 0, 2, 2), []int64{0, 0, 0, 0, 0, 0}, o(1, 0, 2, 2)), "non-zero sizes")
	wantErr(t, rp(a, []int64{1, 1, 1, 1, 1, 1}, o(1, 4, 4, 4)), "cannot resize a static tensor")
	wantErr(t, rp(a, []int64{1, 1, 1, 1, 1, 1}, empty(t, executor.Int32, 1, 4, 4, 5)), "want the input's float32")
	wantErr(t, rp(a, []int64{1, 1, 1, 1, 1, 1}, nil), "argument 2 (out)")
}
