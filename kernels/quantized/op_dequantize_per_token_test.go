package quantized_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

// TestDequantizePerToken: one scale and zero point per row; output_dtype must be out's.
func TestDequantizePerToken(t *testing.T) {
	in := must(executor.FromSlice([]int8{1, 2, 3, 4}, 2, 2))
	scales := must(executor.FromSlice([]float64{1, 0.25}, 2, 1))
	zps := must(executor.FromSlice([]int64{1, -4}, 2, 1))
	cases := []struct {
		name    string
		outT    executor.ScalarType
		odt     executor.ScalarType
		want    []float64
		wantErr bool
	}{
		{"float32", executor.Float32, executor.Float32, []float64{0, 1, 1.75, 2}, false},
		{"float64", executor.Float64, executor.Float64, []float64{0, 1, 1.75, 2}, false},
		{"mismatch", executor.Float32, executor.Float16, nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := must(executor.NewTensor(tc.outT, 2, 2))
			err := call("quantized_decomposed::dequantize_per_token.out", 1, in, scales, zps, -128, 127, dt(executor.Int8), dt(tc.odt), out)
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
