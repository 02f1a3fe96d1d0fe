package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.ops.aten._upsample_bilinear2d_aa (torch 2.15), except where
// ExecuTorch's portable kernel differs (marked).
func TestUpsampleBilinear2dAA(t *testing.T) {
	sq := make([]float64, 16) // i*i/7, 4x4
	for i := range sq {
		sq[i] = float64(i*i) / 7
	}
	typed := func(dt executor.ScalarType, v []float64, sizes ...int) *executor.Tensor {
		x := empty(t, dt, sizes...)
		storeF64(x, v)
		return x
	}
	f32 := func(v []float64, sizes ...int) *executor.Tensor { return typed(executor.Float32, v, sizes...) }
	down := []float64{2.573469400405884, 3.867347002029419, 5.561224937438965, 13.887755393981934, 17.336734771728516, 21.185714721679688}
	for _, tc := range []struct {
		name   string
		in     *executor.Tensor
		size   []int64
		align  bool
		sh, sw any
		sizes  []int
		want   []float64
	}{
		{"downsample", f32(sq, 1, 1, 4, 4), []int64{2, 3}, false, none, none, []int{1, 1, 2, 3}, down},
		{"upsample", f32([]float64{1, 5, -2, 3}, 1, 1, 2, 2), []int64{3, 5}, false, none, none, []int{1, 1, 3, 5},
			[]float64{1, 1.4000000953674316, 3, 4.599999904632568, 5, -0.5, -0.049999892711639404, 1.75, 3.549999952316284, 4, -2, -1.4999998807907104, 0.5, 2.5, 3}},
		{"align corners", f32(sq, 1, 1, 4, 4), []int64{3, 2}, true, none, none, []int{1, 1, 3, 2},
			[]float64{1.750000238418579, 3.047619342803955, 11.023810386657715, 14.5925931930542, 23.071430206298828, 28.34920883178711}},
		{"scales", f32(sq, 1, 1, 4, 4), []int64{2, 2}, false, 0.4, 0.7, []int{1, 1, 2, 2},
			[]float64{4.393106937408447, 6.233766078948975, 16.594505310058594, 20.684301376342773}},
		// ExecuTorch uses the scales only when both are given; PyTorch would use scales_h.
		{"one scale ignored", f32(sq, 1, 1, 4, 4), []int64{2, 3}, false, 0.4, none, []int{1, 1, 2, 3}, down},
		{"identity", f32(sq, 1, 1, 4, 4), []int64{4, 4}, false, none, none, []int{1, 1, 4, 4}, sq},
		{"float64", typed(executor.Float64, sq, 1, 1, 4, 4), []int64{2, 3}, false, none, none, []int{1, 1, 2, 3},
			[]float64{2.5734694440449983, 3.8673468945281844, 5.561224555117743, 13.887755046572003, 17.33673448222024, 21.18571434702192}},
		{"batch and channels", f32(func() []float64 {
			v := make([]float64, 24)
			for i := range v {
				v[i] = float64(i)
			}
			return v
		}(), 2, 3, 2, 2),
			[]int64{1, 1}, false, none, none, []int{2, 3, 1, 1}, []float64{1.5, 5.5, 9.5, 13.5, 17.5, 21.5}},
		// ExecuTorch truncates an integer sum at every step (a simulation of its kernel);
		// PyTorch rounds its uint8 result to [41 57 72 123 139 154].
		{"uint8 as ExecuTorch", typed(executor.Uint8, []float64{0, 13, 26, 39, 52, 65, 78, 91, 104, 117, 130, 143, 156, 169, 182, 195}, 1, 1, 4, 4),
			[]int64{2, 3}, false, none, none, []int{1, 1, 2, 3}, []float64{39, 53, 70, 120, 136, 151}},
		{"empty batch", f32(nil, 0, 2, 4, 4), []int64{2, 3}, false, none, none, []int{0, 2, 2, 3}, []float64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := empty(t, tc.in.ScalarType(), tc.sizes...)
			if err := call(t, "aten::_upsample_bilinear2d_aa.out", tc.in, tc.size, tc.align, tc.sh, tc.sw, out, out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, out, tc.sizes, tc.want)
		})
	}
	// Float16 (which PyTorch's CPU kernel lacks) rounds at every step: within a few float16
	// ulps of the float32 result.
	out := dynamic(t, executor.Float16, 1, 1, 4, 4)
	if err := call(t, "aten::_upsample_bilinear2d_aa.out", typed(executor.Float16, sq, 1, 1, 4, 4), []int64{2, 3}, false, none, none, out, out); err != nil {
		t.Fatal(err)
	}
	for i, v := range loadF64(out) {
		if d := v - down[i]; d > 0.05 || d < -0.05 {
			t.Fatalf("float16 element %d = %v, want about %v", i, v, down[i])
		}
	}

	x := f32(sq, 1, 1, 4, 4)
	o := func(s ...int) *executor.Tensor { return empty(t, executor.Float32, s...) }
	up := func(in any, size []int64, out *executor.Tensor) error {
		return call(t, "aten::_upsample_bilinear2d_aa.out", in, size, false, none, none, out, out)
	}
	wantErr(t, up(f32(sq, 4, 4), []int64{2, 2}, o(2, 2)), "expected a 4D")
	wantErr(t, up(f32(nil, 1, 0, 4, 4), []int64{2, 2}, o(1, 0, 2, 2)), "non-empty 4D tensor expected")
	wantErr(t, up(f32(nil, 1, 1, 0, 4), []int64{2, 2}, o(1, 1, 2, 2)), "non-empty 4D tensor expected")
	wantErr(t, up(x, []int64{2}, o(1, 1, 2, 2)), "argument 1 (output_size): want 2 sizes")
	wantErr(t, up(x, []int64{0, 2}, o(1, 1, 0, 2)), "argument 1 (output_size): sizes should be in [1, 2^31)")
	wantErr(t, up(x, []int64{1 << 40, 2}, o(1, 1, 2, 2)), "sizes should be in [1, 2^31)")
	wantErr(t, up(tensor(t, []bool{true}, 1, 1, 1, 1), []int64{2, 2}, empty(t, executor.Bool, 1, 1, 2, 2)), "does not support bool")
	wantErr(t, up(x, []int64{2, 2}, empty(t, executor.Float64, 1, 1, 2, 2)), "want the input's float32")
	wantErr(t, up(x, []int64{2, 2}, o(1, 1, 2, 3)), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::_upsample_bilinear2d_aa.out", x, []int64{2, 2}, false, "x", none, o(1, 1, 2, 2), none), "argument 3 (scales_h): want Double")
	wantErr(t, call(t, "aten::_upsample_bilinear2d_aa.out", x, []int64{2, 2}, false, none, o(1, 1, 2, 2), none), "6 arguments")
}
