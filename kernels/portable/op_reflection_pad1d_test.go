package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.ops.aten.reflection_pad1d (torch 2.15).
func TestReflectionPad1d(t *testing.T) {
	a := func() *executor.Tensor { return tensor(t, poolSeq(8, 1), 2, 4) } // 0..7
	for _, tc := range []struct {
		name  string
		in    *executor.Tensor
		pad   []int64
		sizes []int
		want  []float64
	}{
		{"both sides", a(), []int64{2, 1}, []int{2, 7}, []float64{2, 1, 0, 1, 2, 3, 2, 6, 5, 4, 5, 6, 7, 6}},
		{"negative left crops", a(), []int64{-1, 3}, []int{2, 6}, []float64{1, 2, 3, 2, 1, 0, 5, 6, 7, 6, 5, 4}},
		{"negative right crops", a(), []int64{3, -2}, []int{2, 5}, []float64{3, 2, 1, 0, 1, 7, 6, 5, 4, 5}},
		{"batch", tensor(t, poolSeq(8, 1), 2, 1, 4), []int64{1, 1}, []int{2, 1, 6}, []float64{1, 0, 1, 2, 3, 2, 5, 4, 5, 6, 7, 6}},
		{"int32", tensor(t, []int32{1, 2, 3, 4, 5, 6, 7, 8}, 2, 4), []int64{0, 3}, []int{2, 7}, []float64{1, 2, 3, 4, 3, 2, 1, 5, 6, 7, 8, 7, 6, 5}},
		{"bool", tensor(t, []bool{true, false, false}, 1, 3), []int64{1, 1}, []int{1, 5}, []float64{0, 1, 0, 0, 0}},
		{"empty batch", empty(t, executor.Float32, 0, 2, 3), []int64{1, 1}, []int{0, 2, 5}, []float64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := empty(t, tc.in.ScalarType(), tc.sizes...)
			if err := call(t, "aten::reflection_pad1d.out", tc.in, tc.pad, out, out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, out, tc.sizes, tc.want)
		})
	}
}

func TestReflectionPad1dErrors(t *testing.T) {
	a := tensor(t, poolSeq(8, 1), 2, 4)
	o := func(s ...int) *executor.Tensor { return empty(t, executor.Float32, s...) }
	rp := func(in any, pad any, out *executor.Tensor) error {
		return call(t, "aten::reflection_pad1d.out", in, pad, out, out)
	}
	wantErr(t, rp(a, []int64{4, 0}, o(2, 8)), "should be less than the size 4")
	wantErr(t, rp(a, []int64{0, 4}, o(2, 8)), "should be less than the size 4")
	wantErr(t, rp(a, []int64{-2, -2}, o(2, 0)), "want at least 1")
	wantErr(t, rp(a, []int64{1}, o(2, 5)), "want 2 values")
	wantErr(t, rp(tensor(t, poolSeq(4, 1), 4), []int64{1, 1}, o(6)), "2D or 3D")
	wantErr(t, rp(empty(t, executor.Float32, 0, 4), []int64{1, 1}, o(0, 6)), "non-zero sizes")
	wantErr(t, rp(empty(t, executor.Float32, 2, 0, 4), []int64{1, 1}, o(2, 0, 6)), "non-zero sizes")
	wantErr(t, rp(a, []int64{1, 1}, o(2, 5)), "cannot resize a static tensor")
	wantErr(t, rp(a, []int64{1, 1}, empty(t, executor.Int32, 2, 6)), "want the input's float32")
	wantErr(t, rp(a, 1, o(2, 6)), "argument 1 (padding): want IntList")
	wantErr(t, call(t, "aten::reflection_pad1d.out", a, []int64{1, 1}, o(2, 6)), "3 arguments")
}
