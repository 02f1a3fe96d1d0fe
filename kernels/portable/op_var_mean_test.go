package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.var_mean (torch 2.15).
func TestVarMean(t *testing.T) {
	x := func() *executor.Tensor { return tensor(t, []float32{1, 2, 4, 3, -1, 0.5}, 2, 3) }
	for _, tc := range []struct {
		name       string
		dim        any
		correction any
		keepdim    bool
		sizes      []int
		vr, mean   []float64
	}{
		{"dim 1", []int64{1}, none, false, []int{2}, []float64{2.3333332538604736, 4.083333492279053}, []float64{2.3333332538604736, 0.8333333134651184}},
		{"dim 0, correction 0, keepdim", []int64{0}, 0, true, []int{1, 3}, []float64{1, 2.25, 3.0625}, []float64{2, 0.5, 2.25}},
		{"all", none, none, false, []int{}, []float64{3.241666555404663}, []float64{1.5833333730697632}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, m := empty(t, executor.Float32, tc.sizes...), empty(t, executor.Float32, tc.sizes...)
			if err := call(t, "aten::var_mean.correction_out", x(), tc.dim, tc.correction, tc.keepdim, v, m, []*executor.Tensor{v, m}); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, v, tc.sizes, tc.vr)
			wantValuesAny(t, m, tc.sizes, tc.mean)
		})
	}
	wantErr(t, call(t, "aten::var_mean.correction_out", x(), none, none, false, empty(t, executor.Float32), empty(t, executor.Int32), none), "floating mean out")
	wantErr(t, call(t, "aten::var_mean.correction_out", tensor(t, []int32{1}, 1), none, none, false, empty(t, executor.Float32), empty(t, executor.Float32), none), "floating input")
}
