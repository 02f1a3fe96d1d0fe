package quantized_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

// TestEmbedding4Bit: the high nibble is the even column, values are nibble-8, groups split the
// columns, zero points subtract before scaling.
func TestEmbedding4Bit(t *testing.T) {
	w := must(executor.FromSlice([]uint8{0x0f, 0x80, 0x19, 0x2a}, 2, 2)) // rows [-8 7 0 -8], [-7 1 -6 2]
	cases := []struct {
		name    string
		scales  *executor.Tensor
		zp      *executor.Tensor
		indices *executor.Tensor
		want    []float32
		wantErr bool
	}{
		{"per row", f32s([]float32{1, 0.5}, 2), nil, must(executor.FromSlice([]int64{1, 0}, 2)),
			[]float32{-3.5, 0.5, -3, 1, -8, 7, 0, -8}, false},
		{"groups and zero points", f32s([]float32{1, 2, 1, 10}, 2, 2), f32s([]float32{0, 1, 1, 0}, 2, 2),
			must(executor.FromSlice([]int32{0, 1}, 2)), []float32{-8, 7, -2, -18, -8, 0, -60, 20}, false},
		{"index out of range", f32s([]float32{1, 1}, 2), nil, must(executor.FromSlice([]int64{2, 0}, 2)), nil, true},
		{"negative index", f32s([]float32{1, 1}, 2), nil, must(executor.FromSlice([]int64{-1, 0}, 2)), nil, true},
		{"groups do not divide", f32s([]float32{1, 1, 1, 1, 1, 1}, 2, 3), nil, must(executor.FromSlice([]int64{0, 0}, 2)), nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := must(executor.NewTensor(executor.Float32, 2, 4))
			err := call("quantized_decomposed::embedding_4bit.dtype_out", 1, w, tc.scales, tc.zp, -8, 7, tc.indices, nil, out)
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
