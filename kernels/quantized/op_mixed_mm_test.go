package quantized_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

// TestMixedMM: out = input · (weight scaled per row); zero points and non-int8 weights are
// refused.
func TestMixedMM(t *testing.T) {
	in := f32s([]float32{1, 2}, 1, 2)
	w := must(executor.FromSlice([]int8{1, -1, 3, 4}, 2, 2))
	cases := []struct {
		name    string
		w       *executor.Tensor
		zp      *executor.Tensor
		want    []float32
		wantErr bool
	}{
		{"mm", w, nil, []float32{1*1*0.5 + 2*3*2, 1*-1*0.5 + 2*4*2}, false},
		{"zero points", w, f32s([]float32{0, 0}, 2), nil, true},
		{"uint8 weight", must(executor.FromSlice([]uint8{1, 1, 3, 4}, 2, 2)), nil, nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := must(executor.NewTensor(executor.Float32, 1, 2))
			err := call("quantized_decomposed::mixed_mm.out", 1, in, tc.w, f32s([]float32{0.5, 2}, 2), tc.zp, out)
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
