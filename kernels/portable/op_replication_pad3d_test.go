package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.ops.aten.replication_pad3d (torch 2.15).
func TestReplicationPad3d(t *testing.T) {
	a := func() *executor.Tensor { return tensor(t, poolSeq(12, 1), 1, 2, 2, 3) } // 0..11
	for _, tc := range []struct {
		name  string
		in    *executor.Tensor
		pad   []int64
		sizes []int
		want  []float64
	}{
		{"all sides", a(), []int64{1, 1, 1, 0, 1, 1}, []int{1, 4, 3, 5}, []float64{
			0, 0, 1, 2, 2, 0, 0, 1, 2, 2, 3, 3, 4, 5, 5, 0, 0, 1, 2, 2, 0, 0, 1, 2, 2, 3, 3, 4, 5, 5,
			6, 6, 7, 8, 8, 6, 6, 7, 8, 8, 9, 9, 10, 11, 11, 6, 6, 7, 8, 8, 6, 6, 7, 8, 8, 9, 9, 10, 11, 11}},
		{"negative pads crop", a(), []int64{-1, 1, 0, -1, 1, 0}, []int{1, 3, 1, 3}, []float64{1, 2, 2, 1, 2, 2, 7, 8, 8}},
		{"pads beyond the size", a(), []int64{2, 0, 0, 2, 0, 3}, []int{1, 5, 4, 5}, []float64{
			0, 0, 0, 1, 2, 3, 3, 3, 4, 5, 3, 3, 3, 4, 5, 3, 3, 3, 4, 5, 6, 6, 6, 7, 8, 9, 9, 9, 10, 11, 9, 9, 9, 10, 11, 9, 9, 9, 10, 11,
			6, 6, 6, 7, 8, 9, 9, 9, 10, 11, 9, 9, 9, 10, 11, 9, 9, 9, 10, 11, 6, 6, 6, 7, 8, 9, 9, 9, 10, 11, 9, 9, 9, 10, 11, 9, 9, 9, 10, 11,
			6, 6, 6, 7, 8, 9, 9, 9, 10, 11, 9, 9, 9, 10, 11, 9, 9, 9, 10, 11}},
		{"batch", tensor(t, poolSeq(16, 1), 2, 1, 2, 2, 2), []int64{1, 0, 0, 1, 1, 0}, []int{2, 1, 3, 3, 3}, []float64{
			0, 0, 1, 2, 2, 3, 2, 2, 3, 0, 0, 1, 2, 2, 3, 2, 2, 3, 4, 4, 5, 6, 6, 7, 6, 6, 7,
			8, 8, 9, 10, 10, 11, 10, 10, 11, 8, 8, 9, 10, 10, 11, 10, 10, 11, 12, 12, 13, 14, 14, 15, 14, 14, 15}},
		{"int32", tensor(t, []int32{0, 1, 2, 3, 4, 5, 6, 7}, 1, 2, 2, 2), []int64{0, 1, 1, 0, 0, 1}, []int{1, 3, 3, 3},
			[]float64{0, 1, 1, 0, 1, 1, 2, 3, 3, 4, 5, 5, 4, 5, 5, 6, 7, 7, 4, 5, 5, 4, 5, 5, 6, 7, 7}},
		// torch has no Bool kernel for replication_pad3d; ExecuTorch's copies any dtype.
		{"bool", tensor(t, []bool{true, false}, 1, 1, 1, 2), []int64{1, 0, 0, 1, 1, 0}, []int{1, 2, 2, 3},
			[]float64{1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0}},
		{"empty batch", empty(t, executor.Float32, 0, 1, 2, 2, 2), []int64{1, 1, 1, 1, 1, 1}, []int{0, 1, 4, 4, 4}, []float64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := empty(t, tc.in.ScalarType(), tc.sizes...)
			if err := call(t, "aten::replication_pad3d.out", tc.in, tc.pad, out, out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, out, tc.sizes, tc.want)
		})
	}
}

func TestReplicationPad3dErrors(t *testing.T) {
	a := tensor(t, poolSeq(12, 1), 1, 2, 2, 3)
	o := func(s ...int) *executor.Tensor { return empty(t, executor.Float32, s...) }
	rp := func(in any, pad []int64, out *executor.Tensor) error {
		return call(t, "aten::replication_pad3d.out", in, pad, out, out)
	}
	wantErr(t, rp(a, []int64{0, 0, 0, 0, -3, 0}, o(1, 0, 2, 3)), "want at least 1")
	wantErr(t, rp(a, []int64{0, 0, 0, 0, 1 << 40, 0}, o(1, 2, 2, 3)), "is too large")
	wantErr(t, rp(a, []int64{1, 1, 1, 1, 1}, o(1, 4, 4, 5)), "want 6 values")
	wantErr(t, rp(tensor(t, poolSeq(8, 1), 2, 2, 2, 1, 1, 1), []int64{1, 1, 1, 1, 1, 1}, o(1)), "4D or 5D")
	wantErr(t, rp(empty(t, executor.Float32, 1, 2, 0, 2), []int64{1, 1, 1, 1, 1, 1}, o(1, 4, 2, 4)), "non-zero sizes")
	wantErr(t, rp(a, []int64{1, 1, 1, 1, 1, 1}, o(1, 4, 4, 4)), "cannot resize a static tensor")
	wantErr(t, rp(a, []int64{1, 1, 1, 1, 1, 1}, dynamic(t, executor.Float32, 1, 3, 3, 3)), "exceed the tensor's planned capacity")
}
