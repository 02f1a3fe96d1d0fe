package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.ops.aten._pdist_forward (torch 2.15).
func TestPdistForward(t *testing.T) {
	x := []float32{0, 1, 2, 3, -1, 0.5, 1, 1, 1, -2, 4, 0.5}
	for _, tc := range []struct {
		name  string
		in    *executor.Tensor
		p     float64
		sizes []int
		want  []float64
	}{
		{"p=0", tensor(t, x, 4, 3), 0, []int{6}, []float64{3, 2, 3, 3, 2, 3}},
		{"p=1", tensor(t, x, 4, 3), 1, []int{6}, []float64{6.5, 2, 6.5, 4.5, 10, 6.5}},
		{"p=2", tensor(t, x, 4, 3), 2, []int{6}, []float64{3.9051249027252197, 1.4142135381698608, 3.9051249027252197, 2.872281312942505, 7.071067810058594, 4.27200174331665}},
		{"p=3", tensor(t, x, 4, 3), 3, []int{6}, []float64{3.3729982376098633, 1.2599210739135742, 3.3729982376098633, 2.5263872146606445, 6.299605369567871, 3.782677412033081}},
		{"p=inf", tensor(t, x, 4, 3), math.Inf(1), []int{6}, []float64{3, 1, 3, 2, 5, 3}},
		{"float64 p=1.5", tensor(t, poolF64(x), 4, 3), 1.5, []int{6}, []float64{4.598693151933275, 1.5874010519681994, 4.598693151933275, 3.3057445092289726, 7.937005259840997, 4.869608773943679}},
		{"one row", tensor(t, x[:3], 1, 3), 2, []int{0}, []float64{}},
		{"no rows", empty(t, executor.Float32, 0, 3), 2, []int{0}, []float64{}},
		{"no columns", empty(t, executor.Float32, 3, 0), 2, []int{3}, []float64{0, 0, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := empty(t, tc.in.ScalarType(), tc.sizes...)
			if err := call(t, "aten::_pdist_forward.out", tc.in, tc.p, out, out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, out, tc.sizes, tc.want)
		})
	}
	x4 := tensor(t, x, 4, 3)
	o := empty(t, executor.Float32, 6)
	pd := func(in any, p float64, out *executor.Tensor) error {
		return call(t, "aten::_pdist_forward.out", in, p, out, out)
	}
	wantErr(t, pd(x4, -0.5, o), "argument 1 (p): pdist only supports non-negative p values")
	wantErr(t, pd(tensor(t, x, 12), 2, o), "argument 0 (self): pdist only supports 2D tensors")
	wantErr(t, pd(tensor(t, x, 2, 2, 3), 2, o), "pdist only supports 2D tensors")
	wantErr(t, pd(tensor(t, []int64{1, 2}, 2, 1), 2, empty(t, executor.Int64, 1)), "floating-point")
	wantErr(t, pd(x4, 2, empty(t, executor.Float64, 6)), "want the input's float32")
	wantErr(t, pd(x4, 2, empty(t, executor.Float32, 5)), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::_pdist_forward.out", x4, "2", o, o), "argument 1 (p): want Double")
	wantErr(t, call(t, "aten::_pdist_forward.out", x4, 2.0, o), "3 arguments")
}
