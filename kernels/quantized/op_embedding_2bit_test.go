package quantized_test

import (
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

// TestEmbedding2Bit: the lowest bit pair is column 0, values are pair-2; float16 and bfloat16
// outputs round the float32 product to nearest even.
func TestEmbedding2Bit(t *testing.T) {
	w := must(executor.FromSlice([]uint8{0b11_10_01_00}, 1, 1)) // [-2 -1 0 1]
	cases := []struct {
		name string
		out  executor.ScalarType
		want []uint16 // nil: float32 result in wantF
		wF   []float32
	}{
		{"float32", executor.Float32, nil, []float32{-0.2, -0.1, 0, 0.1}},
		{"float16", executor.Float16, []uint16{0xb266, 0xae66, 0x0000, 0x2e66}, nil},
		{"bfloat16", executor.BFloat16, []uint16{0xbe4d, 0xbdcd, 0x0000, 0x3dcd}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := must(executor.NewTensor(tc.out, 1, 4))
			if err := call("quantized_decomposed::embedding_2bit.dtype_out", 1, w, f32s([]float32{0.1}, 1), nil, -2, 1,
				must(executor.FromSlice([]int64{0}, 1)), nil, out); err != nil {
				t.Fatal(err)
			}
			if tc.want == nil {
				if got := executor.Data[float32](out); !slices.Equal(got, tc.wF) {
					t.Errorf("got %v, want %v", got, tc.wF)
				}
				return
			}
			if got := executor.Data[uint16](out); !slices.Equal(got, tc.want) {
				t.Errorf("got %#04x, want %#04x", got, tc.want)
			}
		})
	}
}
