package quantized_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

// TestEmbeddingByte: uint8 and int8 weights, zero points, and the official refusals (int32
// indices, an index out of range, an .out call whose scales are not out's type).
func TestEmbeddingByte(t *testing.T) {
	u8 := must(executor.FromSlice([]uint8{0, 255, 10, 20}, 2, 2))
	i8 := must(executor.FromSlice([]int8{-128, 127, 10, -20}, 2, 2))
	scales := f32s([]float32{0.5, 2}, 2)
	cases := []struct {
		name    string
		op      string
		weight  *executor.Tensor
		scales  *executor.Tensor
		zp      *executor.Tensor
		indices *executor.Tensor
		want    []float32
	}{
		{"uint8", ".out", u8, scales, nil, must(executor.FromSlice([]int64{1, 0}, 2)), []float32{20, 40, 0, 127.5}},
		{"int8 zero points", ".dtype_out", i8, scales, f32s([]float32{1, -1}, 2), must(executor.FromSlice([]int64{0, 1}, 2)), []float32{-64.5, 63, 22, -38}},
		{"int32 indices", ".out", u8, scales, nil, must(executor.FromSlice([]int32{0, 1}, 2)), nil},
		{"index out of range", ".out", u8, scales, nil, must(executor.FromSlice([]int64{0, 2}, 2)), nil},
		{"half scales into float .out", ".out", u8, must(executor.FromSlice([]uint16{0x3c00, 0x3c00}, 2)), nil, must(executor.FromSlice([]int64{0, 1}, 2)), nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.scales.ScalarType() == executor.Uint16 {
				tc.scales = must(executor.FromBytes(executor.Float16, []int{2}, tc.scales.Bytes()))
			}
			out := must(executor.NewTensor(executor.Float32, 2, 2))
			args := []any{tc.weight, tc.scales, tc.zp, -128, 255, tc.indices}
			if tc.op == ".dtype_out" {
				args = append(args, dt(executor.Float32))
			}
			err := call("quantized_decomposed::embedding_byte"+tc.op, 1, append(args, out)...)
			if tc.want == nil {
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
