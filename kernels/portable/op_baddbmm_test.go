package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestBaddbmm(t *testing.T) {
	f64 := func(v []float64, s ...int) *executor.Tensor { return linalgTensor(t, executor.Float64, v, s...) }
	for _, tc := range []struct {
		name        string
		self, a, b  *executor.Tensor
		beta, alpha any
		out         *executor.Tensor
		want        []float64
	}{
		// Expected values from torch.baddbmm on bmmX [2, 2, 3] and bmmY [2, 3, 2].
		{"row self, beta 2 alpha -1", f64([]float64{1, -1}, 2), f64(bmmX, 2, 2, 3), f64(bmmY, 2, 3, 2), 2, -1, empty(t, executor.Float64, 2, 2, 2),
			[]float64{0.875, 0.0, 5.0, -2.625, 1.5, 1.0, 1.375, 1.0}},
		{"per-batch self", f64([]float64{1, 2}, 2, 1, 1), f64(bmmX, 2, 2, 3), f64(bmmY, 2, 3, 2), 1, 1, empty(t, executor.Float64, 2, 2, 2),
			[]float64{2.125, -1.0, -2.0, 1.625, 2.5, -1.0, 2.625, -1.0}},
		{"float32 beta 0", tensor(t, []float32{5}, 1), linalgTensor(t, executor.Float32, bmmX, 2, 2, 3), linalgTensor(t, executor.Float32, bmmY, 2, 3, 2), 0, 1, empty(t, executor.Float32, 2, 2, 2), bmmWant},
		{"int64", tensor(t, []int64{1, 2}, 2), tensor(t, []int64{1, 2, 3, 4}, 2, 1, 2), tensor(t, []int64{1, 1, 1, 1, 2, 3, 2, 3}, 2, 2, 2), 3, 2, empty(t, executor.Int64, 2, 1, 2),
			[]float64{9, 12, 31, 48}},
		{"empty batch", f64([]float64{1}, 1), f64(nil, 0, 2, 3), f64(nil, 0, 3, 2), 1, 1, empty(t, executor.Float64, 0, 2, 2), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := call(t, "aten::baddbmm.out", tc.self, tc.a, tc.b, tc.beta, tc.alpha, tc.out, tc.out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, []int{tc.a.Size(0), tc.a.Size(1), tc.b.Size(2)}, tc.want)
		})
	}
}

func TestBaddbmmErrors(t *testing.T) {
	x := linalgTensor(t, executor.Float32, bmmX, 2, 2, 3)
	y := linalgTensor(t, executor.Float32, bmmY, 2, 3, 2)
	out := func() *executor.Tensor { return empty(t, executor.Float32, 2, 2, 2) }
	wantErr(t, call(t, "aten::baddbmm.out", tensor(t, []float32{1, 2, 3}, 3, 1, 1), x, y, 1, 1, out(), none), "argument 0 (self): sizes [3 1 1] do not broadcast")
	wantErr(t, call(t, "aten::baddbmm.out", tensor(t, []float32{1}, 1), x, linalgTensor(t, executor.Float32, bmmY[:6], 1, 3, 2), 1, 1, out(), none), "argument 2 (batch2): batch size 1 does not match batch1's 2")
	wantErr(t, call(t, "aten::baddbmm.out", tensor(t, []float32{1}, 1), linalgTensor(t, executor.Float32, mmA, 2, 3), y, 1, 1, out(), none), "argument 1 (batch1): want a 3-D tensor")
	wantErr(t, call(t, "aten::baddbmm.out", tensor(t, []int32{1}, 1), x, y, 1, 1, out(), none), "batch1 is float32 but self is int32")
}
