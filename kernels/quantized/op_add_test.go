package quantized_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

// TestAdd: dequantize both, add, quantize into out's parameters; quant ranges outside
// [0, 255] and mismatched operands are refused.
func TestAdd(t *testing.T) {
	a := must(executor.FromSlice([]uint8{10, 20, 255}, 3))
	b := must(executor.FromSlice([]uint8{2, 4, 255}, 3))
	cases := []struct {
		name    string
		b       *executor.Tensor
		outMin  int
		want    []uint8
		wantErr bool
	}{
		// (a-0)·0.5 + (b-2)·1 = 5, 12, 380.5 → /0.5 + 1 = 11, 25, 255 (clamped)
		{"add", b, 0, []uint8{11, 25, 255}, false},
		{"out range clamps", b, 20, []uint8{20, 25, 255}, false},
		{"shape", must(executor.FromSlice([]uint8{1, 2}, 2)), 0, nil, true},
		{"dtype", must(executor.FromSlice([]int8{1, 2, 3}, 3)), 0, nil, true},
		{"range", b, -1, nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := must(executor.NewTensor(executor.Uint8, 3))
			err := call("quantized_decomposed::add.out", 1, a, 0.5, 0, 0, 255, tc.b, 1.0, 2, 0, 255, 0.5, 1, tc.outMin, 255, out)
			if tc.wantErr {
				if !errors.Is(err, executor.ErrInvalidArgument) {
					t.Fatalf("err = %v, want ErrInvalidArgument", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := executor.Data[uint8](out); !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}
