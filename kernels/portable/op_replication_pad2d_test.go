package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.ops.aten.replication_pad2d (torch 2.15).
func TestReplicationPad2d(t *testing.T) {
	b := func() *executor.Tensor { return tensor(t, poolSeq(12, 1), 1, 3, 4) } // 0..11
	for _, tc := range []struct {
		name  string
		in    *executor.Tensor
		pad   []int64
		sizes []int
		want  []float64
	}{
		{"all sides", b(), []int64{1, 2, 2, 1}, []int{1, 6, 7}, []float64{
			0, 0, 1, 2, 3, 3, 3, 0, 0, 1, 2, 3, 3, 3, 0, 0, 1, 2, 3, 3, 3,
			4, 4, 5, 6, 7, 7, 7, 8, 8, 9, 10, 11, 11, 11, 8, 8, 9, 10, 11, 11, 11}},
		{"negative pads crop", b(), []int64{-1, 1, 0, -2}, []int{1, 1, 4}, []float64{1, 2, 3, 3}},
		{"batch", tensor(t, poolSeq(8, 1), 2, 1, 2, 2), []int64{1, 0, 0, 1}, []int{2, 1, 3, 3},
			[]float64{0, 0, 1, 2, 2, 3, 2, 2, 3, 4, 4, 5, 6, 6, 7, 6, 6, 7}},
		{"int64", tensor(t, []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 1, 3, 4), []int64{0, 0, 1, 1}, []int{1, 5, 4},
			[]float64{1, 2, 3, 4, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 9, 10, 11, 12}},
		{"bool", tensor(t, []bool{true, false}, 1, 1, 2), []int64{1, 1, 1, 0}, []int{1, 2, 4}, []float64{1, 1, 0, 0, 1, 1, 0, 0}},
		{"empty batch", empty(t, executor.Float32, 0, 1, 2, 2), []int64{1, 1, 1, 1}, []int{0, 1, 4, 4}, []float64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := empty(t, tc.in.ScalarType(), tc.sizes...)
			if err := call(t, "aten::replication_pad2d.out", tc.in, tc.pad, out, out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, out, tc.sizes, tc.want)
		})
	}
	// A dynamic out is resized.
	out := dynamic(t, executor.Float32, 1, 8, 8)
	if err := call(t, "aten::replication_pad2d.out", tensor(t, []float32{1, 2}, 1, 1, 2), []int64{0, 1, 1, 0}, out, out); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, out, []int{1, 2, 3}, []float64{1, 2, 2, 1, 2, 2})
}

func TestReplicationPad2dErrors(t *testing.T) {
	b := tensor(t, poolSeq(12, 1), 1, 3, 4)
	o := func(s ...int) *executor.Tensor { return empty(t, executor.Float32, s...) }
	rp := func(in any, pad []int64, out *executor.Tensor) error {
		return call(t, "aten::replication_pad2d.out", in, pad, out, out)
	}
	wantErr(t, rp(b, []int64{0, 0, -3, 0}, o(1, 0, 4)), "want at least 1")
	wantErr(t, rp(b, []int64{1, 1, 1}, o(1, 4, 6)), "want 4 values")
	wantErr(t, rp(empty(t, executor.Float32, 1, 0, 2), []int64{1, 1, 1, 1}, o(1, 2, 4)), "non-zero sizes")
	wantErr(t, rp(b, []int64{1, 1, 1, 1}, o(1, 5, 5)), "cannot resize a static tensor")
}
