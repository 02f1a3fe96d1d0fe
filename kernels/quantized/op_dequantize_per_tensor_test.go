package quantized_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

// TestDequantizePerTensor: (q - zero_point) · float32(scale), into float32 or float64; the
// zero point is truncated to int32 and the difference wraps as int32 arithmetic does.
func TestDequantizePerTensor(t *testing.T) {
	cases := []struct {
		name     string
		in       *executor.Tensor
		zp       int64
		qmin     int
		outDtype any
		outT     executor.ScalarType
		want     []float64
		wantErr  bool
	}{
		{"int8", must(executor.FromSlice([]int8{-128, 0, 127}, 3)), 1, -128, nil, executor.Float32, []float64{-64.5, -0.5, 63}, false},
		{"float64 out", must(executor.FromSlice([]uint8{0, 255, 4}, 3)), 4, 0, dt(executor.Float64), executor.Float64, []float64{-2, 125.5, 0}, false},
		{"zero point truncated", must(executor.FromSlice([]uint8{0, 1, 2}, 3)), 1<<32 + 2, 0, nil, executor.Float32, []float64{-1, -0.5, 0}, false},
		{"out_dtype is not out's", must(executor.FromSlice([]int8{0}, 1)), 0, -128, dt(executor.Float16), executor.Float32, nil, true},
		{"quant_min > quant_max", must(executor.FromSlice([]int8{0}, 1)), 0, 200, nil, executor.Float32, nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := must(executor.NewTensor(tc.outT, tc.in.Sizes()...))
			err := call("quantized_decomposed::dequantize_per_tensor.out", 1, tc.in, 0.5, tc.zp, tc.qmin, 127,
				dt(tc.in.ScalarType()), tc.outDtype, out)
			if tc.wantErr {
				if !errors.Is(err, executor.ErrInvalidArgument) {
					t.Fatalf("err = %v, want ErrInvalidArgument", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []float64
			if tc.outT == executor.Float64 {
				got = executor.Data[float64](out)
			} else {
				for _, v := range executor.Data[float32](out) {
					got = append(got, float64(v))
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}
