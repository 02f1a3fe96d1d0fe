package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.ops.aten._cdist_forward (torch 2.15).
func TestCdistForward(t *testing.T) {
	f32 := func(v []float32, s ...int) *executor.Tensor { return tensor(t, v, s...) }
	x1 := []float32{0, 1, 2, 3, -1, 0.5}
	x2 := []float32{1, 1, 1, 0, 0, 0, -2, 4, 0.5}
	x64 := func(v []float32, s ...int) *executor.Tensor { return tensor(t, poolF64(v), s...) }
	ba := make([]float32, 12)
	for i := range ba {
		ba[i] = float32(i) * 0.7
	}
	for _, tc := range []struct {
		name  string
		a, b  *executor.Tensor
		p     float64
		mode  any
		sizes []int
		want  []float64
	}{
		{"p=0", f32(x1, 2, 3), f32(x2, 3, 3), 0, none, []int{2, 3}, []float64{2, 2, 3, 3, 3, 2}},
		{"p=1", f32(x1, 2, 3), f32(x2, 3, 3), 1, none, []int{2, 3}, []float64{2, 3, 6.5, 4.5, 4.5, 10}},
		{"p=2", f32(x1, 2, 3), f32(x2, 3, 3), 2, 0, []int{2, 3}, []float64{1.4142135381698608, 2.2360680103302, 3.9051249027252197, 2.872281312942505, 3.2015621662139893, 7.071067810058594}},
		{"p=3", f32(x1, 2, 3), f32(x2, 3, 3), 3, 2, []int{2, 3}, []float64{1.2599210739135742, 2.0800838470458984, 3.3729982376098633, 2.5263872146606445, 3.0411009788513184, 6.299605369567871}},
		{"p=0.5", f32(x1, 2, 3), f32(x2, 3, 3), 0.5, none, []int{2, 3}, []float64{4, 5.828427791595459, 19.105722427368164, 12.5, 11.827805519104004, 20}},
		{"p=inf", f32(x1, 2, 3), f32(x2, 3, 3), math.Inf(1), none, []int{2, 3}, []float64{1, 2, 3, 2, 3, 5}},
		{"float64", x64(x1, 2, 3), x64(x2, 3, 3), 2, none, []int{2, 3}, []float64{1.4142135623730951, 2.23606797749979, 3.905124837953327, 2.8722813232690143, 3.2015621187164243, 7.0710678118654755}},
		{"broadcast batch", f32(ba, 2, 1, 2, 3), f32([]float32{1, 2, 3, 0, 0, 0}, 1, 2, 1, 3), 2, none, []int{2, 2, 2, 1},
			[]float64{2.291287899017334, 1.449137568473816, 1.5652475357055664, 4.949747562408447, 5.040833473205566, 8.670639991760254, 8.544589042663574, 12.164702415466309}},
		{"no columns", empty(t, executor.Float32, 2, 0), empty(t, executor.Float32, 3, 0), 2, none, []int{2, 3}, []float64{0, 0, 0, 0, 0, 0}},
		{"no rows", empty(t, executor.Float32, 0, 3), f32(x2, 3, 3), 2, none, []int{0, 3}, []float64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := empty(t, tc.a.ScalarType(), tc.sizes...)
			if err := call(t, "aten::_cdist_forward.out", tc.a, tc.b, tc.p, tc.mode, out, out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, out, tc.sizes, tc.want)
		})
	}
	// Float16 (PyTorch's CPU cdist lacks it), an exact case: the 3-4-5 triangle.
	h := func(v ...float64) *executor.Tensor {
		x := empty(t, executor.Float16, 1, len(v))
		storeF64(x, v)
		return x
	}
	out := dynamic(t, executor.Float16, 4, 4)
	if err := call(t, "aten::_cdist_forward.out", h(0, 0), h(3, 4), 2.0, none, out, out); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, out, []int{1, 1}, []float64{5})
}

func TestCdistForwardErrors(t *testing.T) {
	a, b := empty(t, executor.Float32, 2, 3), empty(t, executor.Float32, 4, 3)
	o := empty(t, executor.Float32, 2, 4)
	cd := func(a, b any, p float64, mode any, out *executor.Tensor) error {
		return call(t, "aten::_cdist_forward.out", a, b, p, mode, out, out)
	}
	wantErr(t, cd(a, b, -1, none, o), "argument 2 (p): cdist only supports non-negative p values")
	wantErr(t, cd(a, b, math.NaN(), none, o), "argument 2 (p)")
	wantErr(t, cd(a, b, 2, 3, o), "argument 3 (compute_mode): possible modes: 0, 1, 2, but was: 3")
	wantErr(t, cd(empty(t, executor.Float32, 3), b, 2, none, o), "argument 0 (x1): cdist only supports at least 2D")
	wantErr(t, cd(a, empty(t, executor.Float32, 3), 2, none, o), "argument 1 (x2): cdist only supports at least 2D")
	wantErr(t, cd(a, empty(t, executor.Float32, 4, 2), 2, none, o), "must have the same number of columns")
	wantErr(t, cd(empty(t, executor.Float32, 2, 2, 3), empty(t, executor.Float32, 3, 4, 3), 2, none, o), "do not broadcast")
	wantErr(t, cd(a, empty(t, executor.Float64, 4, 3), 2, none, o), "argument 1 (x2): float64 differs")
	wantErr(t, cd(tensor(t, []int32{1, 2}, 1, 2), tensor(t, []int32{1, 2}, 1, 2), 2, none, empty(t, executor.Int32, 1, 1)), "floating-point")
	wantErr(t, cd(a, b, 2, none, empty(t, executor.Float64, 2, 4)), "want the input's float32")
	wantErr(t, cd(a, b, 2, none, empty(t, executor.Float32, 4, 2)), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::_cdist_forward.out", a, b, 2.0, o, o), "5 arguments")
}
