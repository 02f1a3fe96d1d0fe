package quantized_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

// TestMixedLinear: out = input · weightᵀ with a scale per output row, or per group of columns;
// groups of ceil(n / groups) columns, as the official kernel forms them.
func TestMixedLinear(t *testing.T) {
	in := f32s([]float32{1, 2, 3}, 1, 3)
	w := must(executor.FromSlice([]int8{1, 1, 1, 2, 0, -1}, 2, 3))
	cases := []struct {
		name    string
		scales  *executor.Tensor
		dtype   any
		want    []float32
		wantErr bool
	}{
		{"per row", f32s([]float32{0.5, 2}, 2), nil, []float32{3, -2}, false},
		// groups = 2 → g = 2: columns {0, 1} and {2}.
		{"groups", f32s([]float32{1, 10, 1, 10}, 2, 2), dt(executor.Float32), []float32{33, -28}, false},
		{"float64 dtype", f32s([]float32{0.5, 2}, 2), dt(executor.Float64), nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			outT := executor.Float32
			if d, ok := tc.dtype.(dt); ok {
				outT = executor.ScalarType(d)
			}
			out := must(executor.NewTensor(outT, 1, 2))
			err := call("quantized_decomposed::mixed_linear.out", 1, in, w, tc.scales, nil, tc.dtype, out)
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
