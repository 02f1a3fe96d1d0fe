package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.ops.aten.reflection_pad2d (torch 2.15).
func TestReflectionPad2d(t *testing.T) {
	b := func() *executor.Tensor { return tensor(t, poolSeq(12, 1), 1, 3, 4) } // 0..11
	f16 := empty(t, executor.Float16, 1, 3, 4)
	storeF64(f16, []float64{1. / 3, 2. / 3, 1, 4. / 3, 5. / 3, 2, 7. / 3, 8. / 3, 3, 10. / 3, 11. / 3, 4})
	for _, tc := range []struct {
		name  string
		in    *executor.Tensor
		pad   []int64
		sizes []int
		want  []float64
	}{
		{"all sides", b(), []int64{1, 2, 2, 1}, []int{1, 6, 7}, []float64{
			9, 8, 9, 10, 11, 10, 9, 5, 4, 5, 6, 7, 6, 5, 1, 0, 1, 2, 3, 2, 1,
			5, 4, 5, 6, 7, 6, 5, 9, 8, 9, 10, 11, 10, 9, 5, 4, 5, 6, 7, 6, 5}},
		{"negative pads crop", b(), []int64{-1, 1, 0, -2}, []int{1, 1, 4}, []float64{1, 2, 3, 2}},
		{"batch", tensor(t, poolSeq(8, 1), 2, 1, 2, 2), []int64{1, 0, 0, 1}, []int{2, 1, 3, 3},
			[]float64{1, 0, 1, 3, 2, 3, 1, 0, 1, 5, 4, 5, 7, 6, 7, 5, 4, 5}},
		{"int64", tensor(t, []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 1<<62 + 1}, 1, 3, 4), []int64{0, 0, 1, 1}, []int{1, 5, 4},
			[]float64{5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 1<<62 + 1, 5, 6, 7, 8}},
		{"float16", f16, []int64{1, 0, 0, 0}, []int{1, 3, 5}, []float64{0.66650390625, 0.333251953125, 0.66650390625, 1.0, 1.3330078125,
			2.0, 1.6669921875, 2.0, 2.333984375, 2.666015625, 3.333984375, 3.0, 3.333984375, 3.666015625, 4.0}},
		{"empty batch", empty(t, executor.Float32, 0, 1, 2, 2), []int64{1, 1, 1, 1}, []int{0, 1, 4, 4}, []float64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := empty(t, tc.in.ScalarType(), tc.sizes...)
			if err := call(t, "aten::reflection_pad2d.out", tc.in, tc.pad, out, out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, out, tc.sizes, tc.want)
			if tc.in.ScalarType() == executor.Int64 {
				if v, _ := executor.Values[int64](out); v[15] != 1<<62+1 {
					t.Fatalf("int64 copy lost bits: %v", v)
				}
			}
		})
	}
}

func TestReflectionPad2dErrors(t *testing.T) {
	b := tensor(t, poolSeq(12, 1), 1, 3, 4)
	o := func(s ...int) *executor.Tensor { return empty(t, executor.Float32, s...) }
	rp := func(in any, pad []int64, out *executor.Tensor) error {
		return call(t, "aten::reflection_pad2d.out", in, pad, out, out)
	}
	wantErr(t, rp(b, []int64{0, 0, 3, 0}, o(1, 6, 4)), "should be less than the size 3 of dimension 1")
	wantErr(t, rp(b, []int64{4, 0, 0, 0}, o(1, 3, 8)), "should be less than the size 4 of dimension 2")
	wantErr(t, rp(b, []int64{-2, -2, 0, 0}, o(1, 3, 0)), "want at least 1")
	wantErr(t, rp(b, []int64{1, 1}, o(1, 3, 6)), "want 4 values")
	wantErr(t, rp(tensor(t, poolSeq(4, 1), 2, 2), []int64{1, 1, 1, 1}, o(4, 4)), "3D or 4D")
	wantErr(t, rp(b, []int64{1, 1, 1, 1}, o(1, 5, 5)), "cannot resize a static tensor")
	wantErr(t, rp(b, []int64{1, 1, 1, 1}, empty(t, executor.Float16, 1, 5, 6)), "want the input's float32")
}
