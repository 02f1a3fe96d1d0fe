package quantized_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

// TestDequantizePerChannel: the official kernel's paths — int8 to float32 subtracts the whole
// int64 zero point (which must lie in the quant range); other inputs truncate it to int32 —
// and its refusals.
func TestDequantizePerChannel(t *testing.T) {
	scales := must(executor.FromSlice([]float64{0.5, 2}, 2))
	cases := []struct {
		name    string
		in      *executor.Tensor
		zps     *executor.Tensor
		qmin    int64
		qmax    int64
		outT    executor.ScalarType
		want    []float32
		wantErr bool
	}{
		{"int8 optimized", must(executor.FromSlice([]int8{2, 4, 1, 3}, 2, 2)), must(executor.FromSlice([]int64{0, 1}, 2)), -128, 127, executor.Float32, []float32{1, 2, 0, 4}, false},
		{"no zero points", must(executor.FromSlice([]int16{2, 4, 1, 3}, 2, 2)), nil, -128, 127, executor.Float32, []float32{1, 2, 2, 6}, false},
		{"int8 wide zero point", must(executor.FromSlice([]int8{0, 0, 0, 0}, 2, 2)), must(executor.FromSlice([]int64{1 << 32, 0}, 2)), -1 << 40, 1 << 40, executor.Float32,
			[]float32{-(1 << 31), -(1 << 31), 0, 0}, false},
		{"uint8 wide zero point truncated", must(executor.FromSlice([]uint8{0, 0, 0, 0}, 2, 2)), must(executor.FromSlice([]int64{1<<32 + 1, 0}, 2)), -1 << 40, 1 << 40, executor.Float32,
			[]float32{-0.5, -0.5, 0, 0}, false},
		{"int8 zero point out of range", must(executor.FromSlice([]int8{0, 0, 0, 0}, 2, 2)), must(executor.FromSlice([]int64{0, 200}, 2)), -128, 127, executor.Float32, nil, true},
		{"int32 zero points", must(executor.FromSlice([]int8{0, 0, 0, 0}, 2, 2)), must(executor.FromSlice([]int32{0, 0}, 2)), -128, 127, executor.Float32, nil, true},
		{"int8 into float16 without out_dtype", must(executor.FromSlice([]int8{0, 0, 0, 0}, 2, 2)), nil, -128, 127, executor.Float16, nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := must(executor.NewTensor(tc.outT, 2, 2))
			err := call("quantized_decomposed::dequantize_per_channel.out", 1, tc.in, scales, tc.zps, 0, tc.qmin, tc.qmax,
				dt(tc.in.ScalarType()), nil, out)
			if tc.wantErr {
				if !errors.Is(err, executor.ErrInvalidArgument) {
					t.Fatalf("err = %v, want ErrInvalidArgument", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := executor.Data[float32](out); !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}
