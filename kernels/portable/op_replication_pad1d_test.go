package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.ops.aten.replication_pad1d (torch 2.15).
func TestReplicationPad1d(t *testing.T) {
	a := func() *executor.Tensor { return tensor(t, poolSeq(8, 1), 2, 4) } // 0..7
	for _, tc := range []struct {
		name  string
		in    *executor.Tensor
		pad   []int64
		sizes []int
		want  []float64
	}{
		{"both sides", a(), []int64{2, 1}, []int{2, 7}, []float64{0, 0, 0, 1, 2, 3, 3, 4, 4, 4, 5, 6, 7, 7}},
		{"negative left crops", a(), []int64{-1, 3}, []int{2, 6}, []float64{1, 2, 3, 3, 3, 3, 5, 6, 7, 7, 7, 7}},
		{"negative right crops", a(), []int64{3, -2}, []int{2, 5}, []float64{0, 0, 0, 0, 1, 4, 4, 4, 4, 5}},
		// Pads may exceed the input size, unlike reflection.
		{"pad beyond the size", tensor(t, []float32{1, 2}, 1, 2), []int64{3, 0}, []int{1, 5}, []float64{1, 1, 1, 1, 2}},
		{"batch", tensor(t, poolSeq(8, 1), 2, 1, 4), []int64{1, 1}, []int{2, 1, 6}, []float64{0, 0, 1, 2, 3, 3, 4, 4, 5, 6, 7, 7}},
		{"int32", tensor(t, []int32{1, 2, 3, 4, 5, 6, 7, 8}, 2, 4), []int64{0, 3}, []int{2, 7}, []float64{1, 2, 3, 4, 4, 4, 4, 5, 6, 7, 8, 8, 8, 8}},
		{"bool", tensor(t, []bool{true, false}, 1, 2), []int64{1, 1}, []int{1, 4}, []float64{1, 1, 0, 0}},
		{"empty batch", empty(t, executor.Float32, 0, 2, 3), []int64{1, 1}, []int{0, 2, 5}, []float64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := empty(t, tc.in.ScalarType(), tc.sizes...)
			if err := call(t, "aten::replication_pad1d.out", tc.in, tc.pad, out, out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, out, tc.sizes, tc.want)
		})
	}
}

func TestReplicationPad1dErrors(t *testing.T) {
	a := tensor(t, poolSeq(8, 1), 2, 4)
	o := func(s ...int) *executor.Tensor { return empty(t, executor.Float32, s...) }
	rp := func(in any, pad any, out *executor.Tensor) error {
		return call(t, "aten::replication_pad1d.out", in, pad, out, out)
	}
	wantErr(t, rp(a, []int64{-2, -2}, o(2, 0)), "want at least 1")
	wantErr(t, rp(a, []int64{1 << 40, 0}, o(2, 4)), "too large")
	wantErr(t, rp(a, []int64{1 << 20, 0}, dynamic(t, executor.Float32, 2, 8)), "exceed the tensor's planned capacity")
	wantErr(t, rp(a, []int64{1, 1, 1, 1}, o(2, 6)), "want 2 values")
	wantErr(t, rp(tensor(t, poolSeq(4, 1), 1, 1, 1, 4), []int64{1, 1}, o(1, 1, 1, 6)), "2D or 3D")
	wantErr(t, rp(a, []int64{1, 1}, o(2, 5)), "cannot resize a static tensor")
	wantErr(t, rp(a, []int64{1, 1}, empty(t, executor.Float64, 2, 6)), "want the input's float32")
}
