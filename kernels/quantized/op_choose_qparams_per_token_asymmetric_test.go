package quantized_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

// TestChooseQParamsPerTokenAsymmetric: every row of the last dim gets its own [-128, 127]
// parameters; the outs take the input's sizes with the last dim 1.
func TestChooseQParamsPerTokenAsymmetric(t *testing.T) {
	cases := []struct {
		name      string
		in        *executor.Tensor
		outSizes  []int
		wantScale []float64
		wantZP    []int64
		wantErr   bool
	}{
		{"rows", f32s([]float32{-1, 1, 0, 2.55}, 2, 2), []int{2, 1}, []float64{2.0 / 255, float64(float32(2.55)) / 255}, []int64{0, -128}, false},
		{"wrong out sizes", f32s([]float32{-1, 1, 0, 2.55}, 2, 2), []int{2, 2}, nil, nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			scale := must(executor.NewTensor(executor.Float64, tc.outSizes...))
			zp := must(executor.NewTensor(executor.Int64, tc.outSizes...))
			err := call("quantized_decomposed::choose_qparams_per_token_asymmetric.out", 2, tc.in, dt(executor.Int8), scale, zp)
			if tc.wantErr {
				if !errors.Is(err, executor.ErrInvalidArgument) {
					t.Fatalf("err = %v, want ErrInvalidArgument", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s, z := executor.Data[float64](scale), executor.Data[int64](zp); !slices.Equal(s, tc.wantScale) || !slices.Equal(z, tc.wantZP) {
				t.Errorf("got scales %v zero points %v, want %v %v", s, z, tc.wantScale, tc.wantZP)
			}
		})
	}
}
