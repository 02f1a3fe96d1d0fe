package portable

import (
	"fmt"
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

// gridTestInputs returns the [1,2,3,4] input and [1,2,3,2] grid of the grid_sampler tests in
// dtype dt (values first rounded to float32, as the torch script built them).
func gridTestInputs(t *testing.T, dt executor.ScalarType) (*executor.Tensor, *executor.Tensor) {
	x := []float32{1, 2, 3, 4, 5, -6, 7, 8, 9, 10, 11.5, 12}
	for i := 0; i < 12; i++ {
		x = append(x, x[i]*0.5-1)
	}
	g := []float32{-1, -1, 0.3, -0.2, 1, 1, 1.4, -1.3, -0.55, 0.9, 0.25, 0.5}
	in, grid := empty(t, dt, 1, 2, 3, 4), empty(t, dt, 1, 2, 3, 2)
	storeF64(in, poolF64(x))
	storeF64(grid, poolF64(g))
	return in, grid
}

// Expected values from torch.ops.aten.grid_sampler_2d (torch 2.15): every interpolation mode,
// padding mode and align_corners on points inside, on and outside the edges.
func TestGridSampler2d(t *testing.T) {
	for _, tc := range []struct {
		mode, pad int
		align     bool
		want      []float64
	}{
		{0, 0, false, []float64{0.25, 5.900000095367432, 3.0, 0.0, 6.110001087188721, 10.375, -0.125, 1.9500000476837158, 1.25, 0.0, 2.4050002098083496, 4.1875}},
		{0, 0, true, []float64{1.0, 5.669999122619629, 12.0, 1.119999647140503, 8.46500015258789, 8.34375, -0.5, 1.8349995613098145, 5.0, 0.27999991178512573, 3.2325000762939453, 3.171875}},
		{0, 1, false, []float64{1.0, 5.900000095367432, 12.0, 4.0, 9.399999618530273, 10.375, -0.5, 1.9500000476837158, 5.0, 1.0, 3.700000047683716, 4.1875}},
		{0, 1, true, []float64{1.0, 5.669999122619629, 12.0, 4.0, 8.46500015258789, 8.34375, -0.5, 1.8349995613098145, 5.0, 1.0, 3.2325000762939453, 3.171875}},
		{0, 2, false, []float64{1.0, 5.900000095367432, 12.0, 3.6999998092651367, 9.399999618530273, 10.375, -0.5, 1.9500000476837158, 5.0, 0.8499999046325684, 3.700000047683716, 4.1875}},
		{0, 2, true, []float64{1.0, 5.669999122619629, 12.0, 4.59999942779541, 8.46500015258789, 8.34375, -0.5, 1.8349995613098145, 5.0, 1.2999998331069946, 3.2325000762939453, 3.171875}},
		{1, 0, false, []float64{1.0, 7.0, 0.0, 0.0, 9.0, 11.5, -0.5, 2.5, 0.0, 0.0, 3.5, 4.75}},
		{1, 0, true, []float64{1.0, 7.0, 12.0, 0.0, 10.0, 11.5, -0.5, 2.5, 5.0, 0.0, 4.0, 4.75}},
		{1, 1, false, []float64{1.0, 7.0, 12.0, 4.0, 9.0, 11.5, -0.5, 2.5, 5.0, 1.0, 3.5, 4.75}},
		{1, 1, true, []float64{1.0, 7.0, 12.0, 4.0, 10.0, 11.5, -0.5, 2.5, 5.0, 1.0, 4.0, 4.75}},
		{1, 2, false, []float64{1.0, 7.0, 12.0, 4.0, 9.0, 11.5, -0.5, 2.5, 5.0, 1.0, 3.5, 4.75}},
		{1, 2, true, []float64{1.0, 7.0, 12.0, 3.0, 10.0, 11.5, -0.5, 2.5, 5.0, 0.5, 4.0, 4.75}},
		{2, 0, false, []float64{-0.08984375, 6.331039905548096, 3.20654296875, -0.016550874337553978, 7.938470363616943, 11.833984375, -0.294921875, 2.1112008094787598, 1.353271484375, -0.003941285889595747, 3.2301292419433594, 4.8115234375}},
		{2, 0, true, []float64{1.0, 5.40949821472168, 12.0, 0.9997971653938293, 9.446761131286621, 9.694267272949219, -0.5, 1.680749773979187, 5.0, 0.22015027701854706, 3.605909585952759, 3.7533836364746094}},
		{2, 1, false, []float64{0.42578125, 6.137777805328369, 12.41748046875, 3.9928722381591797, 10.331830978393555, 10.62109375, -0.787109375, 2.0688889026641846, 5.208740234375, 0.996436357498169, 4.165914535522461, 4.310546875}},
		{2, 1, true, []float64{1.0, 5.339211940765381, 12.0, 3.63100266456604, 8.373570442199707, 8.63323974609375, -0.5, 1.669606328010559, 5.0, 0.8155007362365723, 3.186783790588379, 3.316619873046875}},
		{2, 2, false, []float64{-0.359375, 6.137777805328369, 12.826171875, 3.6055469512939453, 10.898204803466797, 10.62109375, -1.1796875, 2.0688889026641846, 5.4130859375, 0.8027737140655518, 4.449101448059082, 4.310546875}},
		{2, 2, true, []float64{1.0, 5.2550482749938965, 12.0, 4.318629264831543, 9.164721488952637, 9.182670593261719, -0.5, 1.627524495124817, 5.0, 1.1593140363693237, 3.582360029220581, 3.5913352966308594}},
	} {
		t.Run(fmt.Sprintf("mode %d pad %d align %v", tc.mode, tc.pad, tc.align), func(t *testing.T) {
			in, grid := gridTestInputs(t, executor.Float32)
			out := empty(t, executor.Float32, 1, 2, 2, 3)
			if err := call(t, "aten::grid_sampler_2d.out", in, grid, tc.mode, tc.pad, tc.align, out, out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, out, []int{1, 2, 2, 3}, tc.want)
		})
	}
	for _, tc := range []struct {
		name      string
		dt        executor.ScalarType
		mode, pad int
		align     bool
		want      []float64
	}{
		{"float64 bicubic reflection", executor.Float64, 2, 2, false, []float64{-0.359375, 6.137777778131674, 12.826171875, 3.605550448533022, 10.898207340390677, 10.62109375, -1.1796875, 2.0688888890658363, 5.4130859375, 0.8027752242665112, 4.449103670195338, 4.310546875}},
		{"float64 bilinear zeros", executor.Float64, 0, 0, true, []float64{1.0, 5.67000017940998, 12.0, 1.1200001764297554, 8.464999715089803, 8.34375, -0.5, 1.83500008970499, 5.0, 0.28000004410743884, 3.2324998575449015, 3.171875}},
		// ExecuTorch interpolates Float16 in float32 and rounds once: torch.grid_sampler_2d on
		// the float32 copies, cast to float16 (eager PyTorch's float16 kernel rounds its
		// intermediates, giving 9.40625 and 1.947265625 for elements 4 and 7).
		{"float16 bilinear border", executor.Float16, 0, 1, false, []float64{1.0, 5.8984375, 12.0, 4.0, 9.3984375, 10.375, -0.5, 1.9501953125, 5.0, 1.0, 3.69921875, 4.1875}},
		{"bfloat16 nearest zeros", executor.BFloat16, 1, 0, false, []float64{1.0, 7.0, 0.0, 0.0, 9.0, 11.5, -0.5, 2.5, 0.0, 0.0, 3.5, 4.75}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, grid := gridTestInputs(t, tc.dt)
			out := dynamic(t, tc.dt, 1, 2, 4, 4)
			if err := call(t, "aten::grid_sampler_2d.out", in, grid, tc.mode, tc.pad, tc.align, out, out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, out, []int{1, 2, 2, 3}, tc.want)
		})
	}
	t.Run("empty batch", func(t *testing.T) {
		out := empty(t, executor.Float32, 0, 2, 5, 1)
		if err := call(t, "aten::grid_sampler_2d.out", empty(t, executor.Float32, 0, 2, 3, 4), empty(t, executor.Float32, 0, 5, 1, 2), 0, 0, false, out, out); err != nil {
			t.Fatal(err)
		}
		wantValuesAny(t, out, []int{0, 2, 5, 1}, []float64{})
	})
	t.Run("NaN and huge points", func(t *testing.T) {
		in, _ := gridTestInputs(t, executor.Float32)
		nan := float32(math.NaN())
		grid := tensor(t, []float32{nan, 0, 1e30, -1e30}, 1, 1, 2, 2)
		for mode := 0; mode < 3; mode++ {
			for pad := 0; pad < 3; pad++ {
				out := empty(t, executor.Float32, 1, 2, 1, 2)
				if err := call(t, "aten::grid_sampler_2d.out", in, grid, mode, pad, false, out, out); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
}

func TestGridSampler2dErrors(t *testing.T) {
	in, grid := gridTestInputs(t, executor.Float32)
	o := empty(t, executor.Float32, 1, 2, 2, 3)
	gs := func(in, grid any, mode, pad int, out *executor.Tensor) error {
		return call(t, "aten::grid_sampler_2d.out", in, grid, mode, pad, false, out, out)
	}
	wantErr(t, gs(in, grid, 3, 0, o), "argument 2 (interpolation_mode): want 0 (bilinear)")
	wantErr(t, gs(in, grid, -1, 0, o), "argument 2 (interpolation_mode)")
	wantErr(t, gs(in, grid, 0, 3, o), "argument 3 (padding_mode): want 0 (zeros)")
	wantErr(t, gs(empty(t, executor.Float32, 2, 3, 4), grid, 0, 0, o), "argument 0 (input): must be 4D")
	wantErr(t, gs(empty(t, executor.Float32, 1, 2, 0, 4), grid, 0, 0, o), "non-empty spatial dimensions")
	wantErr(t, gs(in, empty(t, executor.Float32, 1, 2, 3, 3), 0, 0, o), "argument 1 (grid): must be 4D [N,H_out,W_out,2]")
	wantErr(t, gs(in, empty(t, executor.Float32, 2, 2, 3, 2), 0, 0, o), "batch size 2 differs from the input's 1")
	wantErr(t, gs(in, empty(t, executor.Float64, 1, 2, 3, 2), 0, 0, o), "argument 1 (grid): float64 differs")
	wantErr(t, gs(tensor(t, []int32{1}, 1, 1, 1, 1), tensor(t, []int32{0, 0}, 1, 1, 1, 2), 0, 0, empty(t, executor.Int32, 1, 1, 1, 1)), "supports floating dtypes")
	wantErr(t, gs(in, grid, 0, 0, empty(t, executor.Float64, 1, 2, 2, 3)), "want the input's float32")
	wantErr(t, gs(in, grid, 0, 0, empty(t, executor.Float32, 1, 2, 3, 2)), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::grid_sampler_2d.out", in, grid, 0, 0, 1, o, o), "argument 4 (align_corners): want Bool")
	wantErr(t, call(t, "aten::grid_sampler_2d.out", in, grid, 0, 0, false, o), "6 arguments")
}
