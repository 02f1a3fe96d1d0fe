package quantized_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

// TestQuantizePerTensor: ties round to even, the zero point is added after rounding, NaN and
// ±Inf go to quant_min (x86's float-to-int64 conversion), and the checks refuse what the
// official kernel refuses.
func TestQuantizePerTensor(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	in := f32s([]float32{0.5, 1.5, 2.5, -0.5, -1.5, 100, -100, nan, inf, -inf}, 10)
	cases := []struct {
		name        string
		op          string
		scale       any
		zp          any
		qmin, qmax  int
		dtype, outT executor.ScalarType
		want        []int8
		wantErr     bool
	}{
		{"round to even", ".out", 1.0, 0, -128, 127, executor.Int8, executor.Int8, []int8{0, 2, 2, 0, -2, 100, -100, -128, -128, -128}, false},
		{"zero point and clamp", ".out", 0.5, 3, -10, 10, executor.Int8, executor.Int8, []int8{4, 6, 8, 2, 0, 10, -10, -10, -10, -10}, false},
		{"tensor args", ".Tensor_out", must(executor.FromSlice([]float64{1}, 1)), must(executor.FromSlice([]int64{1}, 1)), -128, 127, executor.Int8, executor.Int8,
			[]int8{1, 3, 3, 1, -1, 101, -99, -128, -128, -128}, false},
		{"float32 scale tensor", ".Tensor_out", f32s([]float32{1}, 1), must(executor.FromSlice([]int64{1}, 1)), -128, 127, executor.Int8, executor.Int8, nil, true},
		{"quant_min below int8", ".out", 1.0, 0, -129, 127, executor.Int8, executor.Int8, nil, true},
		{"dtype is not out's", ".out", 1.0, 0, 0, 127, executor.Uint8, executor.Int8, nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := must(executor.NewTensor(tc.outT, 10))
			err := call("quantized_decomposed::quantize_per_tensor"+tc.op, 1, in, tc.scale, tc.zp, tc.qmin, tc.qmax, dt(tc.dtype), out)
			if tc.wantErr {
				if !errors.Is(err, executor.ErrInvalidArgument) {
					t.Fatalf("err = %v, want ErrInvalidArgument", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := executor.Data[int8](out); !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}
