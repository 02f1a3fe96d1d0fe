package quantized_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

// TestQuantizePerToken: one scale and zero point per row of the last dim, whatever the
// scales' shape; a 0-d input has no token and is refused.
func TestQuantizePerToken(t *testing.T) {
	cases := []struct {
		name    string
		in      *executor.Tensor
		scales  *executor.Tensor
		want    []int8
		wantErr bool
	}{
		{"rows", f32s([]float32{1, 2, 3, 4, 5, 6}, 1, 2, 3), must(executor.FromSlice([]float64{1, 0.5}, 1, 2, 1)), []int8{1, 2, 3, 8, 10, 12}, false},
		{"0-d", f32s([]float32{1}), must(executor.FromSlice([]float64{1}, 1)), nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := must(executor.NewTensor(executor.Int8, tc.in.Sizes()...))
			zps := must(executor.NewTensor(executor.Int64, tc.scales.Sizes()...))
			err := call("quantized_decomposed::quantize_per_token.out", 1, tc.in, tc.scales, zps, -128, 127, dt(executor.Int8), out)
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
