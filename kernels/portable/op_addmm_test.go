package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestAddmm(t *testing.T) {
	f64 := func(v []float64, s ...int) *executor.Tensor { return linalgTensor(t, executor.Float64, v, s...) }
	s2 := linalgSeq(8, 3, 5, 2, 1) // [[-2, 1, -1, 2], [0, -2, 1, -1]]
	nan := math.NaN()
	for _, tc := range []struct {
		name        string
		self, a, b  *executor.Tensor
		beta, alpha any
		out         *executor.Tensor
		want        []float64
	}{
		// Expected values from torch.addmm on mmA [2, 3] and mmB [3, 4].
		{"bias row", f64([]float64{1, -2, 0.5, 3}, 4), f64(mmA, 2, 3), f64(mmB, 3, 4), 1, 1, empty(t, executor.Float64, 2, 4),
			[]float64{3.125, -3.0, 0.75, 2.75, -1.25, -0.625, 1.125, 0.25}},
		{"full self, beta 0.5 alpha 2", f64(s2, 2, 4), f64(mmA, 2, 3), f64(mmB, 3, 4), 0.5, 2, empty(t, executor.Float64, 2, 4),
			[]float64{3.25, -1.5, 0.0, 0.5, -4.5, 1.75, 1.75, -6.0}},
		{"column self, beta -1 alpha 0.5", f64([]float64{1, 2}, 2, 1), f64(mmA, 2, 3), f64(mmB, 3, 4), -1, 0.5, empty(t, executor.Float64, 2, 4),
			[]float64{0.0625, -1.5, -0.875, -1.125, -3.125, -1.3125, -1.6875, -3.375}},
		{"float32 0-d self", tensor(t, []float32{1}), linalgTensor(t, executor.Float32, mmA, 2, 3), linalgTensor(t, executor.Float32, mmB, 3, 4), 1, 1, empty(t, executor.Float32, 2, 4),
			[]float64{3.125, 0, 1.25, 0.75, -1.25, 2.375, 1.625, -1.75}},
		// torch.addmm(nan, ..., beta=0) ignores self.
		{"beta 0 ignores NaN", f64([]float64{nan}, 1), f64(mmA, 2, 3), f64(mmB, 3, 4), 0, 1, empty(t, executor.Float64, 2, 4), mmWant},
		{"float16", linalgTensor(t, executor.Float16, []float64{1, -2, 0.5, 3}, 4), linalgTensor(t, executor.Float16, mmA, 2, 3), linalgTensor(t, executor.Float16, mmB, 3, 4), 1, 1, empty(t, executor.Float16, 2, 4),
			[]float64{3.125, -3.0, 0.75, 2.75, -1.25, -0.625, 1.125, 0.25}},
		// torch.addmm(int32 [10, 20], [[1,2],[3,4]], [[5,6],[7,8]], beta=2, alpha=3) and with
		// beta=2.7, alpha=1.9, which truncate to 2 and 1.
		{"int32", tensor(t, []int32{10, 20}, 2), tensor(t, []int32{1, 2, 3, 4}, 2, 2), tensor(t, []int32{5, 6, 7, 8}, 2, 2), 2, 3, empty(t, executor.Int32, 2, 2), []float64{77, 106, 149, 190}},
		{"int32 float scalars truncate", tensor(t, []int32{10, 20}, 2), tensor(t, []int32{1, 2, 3, 4}, 2, 2), tensor(t, []int32{5, 6, 7, 8}, 2, 2), 2.7, 1.9, empty(t, executor.Int32, 2, 2), []float64{39, 62, 63, 90}},
		{"empty inner", f64([]float64{1, 2}, 2), f64(nil, 3, 0), f64(nil, 0, 2), 1, 1, empty(t, executor.Float64, 3, 2), []float64{1, 2, 1, 2, 1, 2}},
		{"dynamic out", f64([]float64{1, -2, 0.5, 3}, 4), f64(mmA, 2, 3), f64(mmB, 3, 4), true, 1, dynamic(t, executor.Float64, 4, 4),
			[]float64{3.125, -3.0, 0.75, 2.75, -1.25, -0.625, 1.125, 0.25}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := call(t, "aten::addmm.out", tc.self, tc.a, tc.b, tc.beta, tc.alpha, tc.out, tc.out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, []int{tc.a.Size(0), tc.b.Size(1)}, tc.want)
		})
	}
}

// addmm_ writes into self: the out is also the added tensor.
func TestAddmmInPlace(t *testing.T) {
	self := linalgTensor(t, executor.Float32, linalgSeq(8, 3, 5, 2, 1), 2, 4)
	if err := call(t, "aten::addmm.out", self, linalgTensor(t, executor.Float32, mmA, 2, 3), linalgTensor(t, executor.Float32, mmB, 3, 4), 0.5, 2, self, self); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, self, []int{2, 4}, []float64{3.25, -1.5, 0.0, 0.5, -4.5, 1.75, 1.75, -6.0})
}

func TestAddmmErrors(t *testing.T) {
	a := linalgTensor(t, executor.Float32, mmA, 2, 3)
	b := linalgTensor(t, executor.Float32, mmB, 3, 4)
	out := func() *executor.Tensor { return empty(t, executor.Float32, 2, 4) }
	wantErr(t, call(t, "aten::addmm.out", tensor(t, []float32{1, 2, 3}, 3), a, b, 1, 1, out(), none), "argument 0 (self): sizes [3] do not broadcast to the product's [2 4]")
	wantErr(t, call(t, "aten::addmm.out", tensor(t, []float32{1, 2, 3, 4, 5, 6, 7, 8}, 1, 2, 4), a, b, 1, 1, out(), none), "do not broadcast")
	wantErr(t, call(t, "aten::addmm.out", tensor(t, []float64{1}, 1), a, b, 1, 1, out(), none), "mat1 is float32 but self is float64")
	wantErr(t, call(t, "aten::addmm.out", tensor(t, []float32{1}, 1), a, a, 1, 1, out(), none), "inner sizes 3 and 2 differ")
	wantErr(t, call(t, "aten::addmm.out", tensor(t, []float32{1}, 1), a, b, a, 1, out(), none), "argument 3 (beta): want a Scalar")
	wantErr(t, call(t, "aten::addmm.out", tensor(t, []float32{1}, 1), a, b, 1, 1, empty(t, executor.Float32, 2, 3), none), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::addmm.out", tensor(t, []float32{1}, 1), a, b, 1, 1, out()), "6 arguments")
	wantErr(t, call(t, "aten::addmm.out", linalgWithDimOrder(t, linalgTensor(t, executor.Float32, linalgSeq(8, 3, 5, 2, 1), 2, 4), []uint8{1, 0}), a, b, 1, 1, out(), none), "argument 0 (self): dim order [1 0] is not supported")
}
