package aot

import (
	"encoding/binary"
	"math"
	"slices"
	"testing"

	"github.com/etgo/etgo/ir"
)

func TestPackQC4W(t *testing.T) {
	for _, tc := range []struct {
		name  string
		codes []int8
		shape []int
		want  []byte
		err   bool
	}{
		{"even row", []int8{-8, 7, 0, 1}, []int{1, 4}, []byte{0xF0, 0x98}, false},
		// an odd row is padded with a zero code (8 after the offset) in the high nibble
		{"odd rows", []int8{1, 2, 3, -1, -2, -3}, []int{2, 3}, []byte{0xA9, 0x8B, 0x67, 0x85}, false},
		{"out of range", []int8{8, 0}, []int{1, 2}, nil, true},
		{"size mismatch", []int8{0, 0, 0}, []int{2, 2}, nil, true},
	} {
		data := make([]byte, len(tc.codes))
		for i, c := range tc.codes {
			data[i] = byte(c)
		}
		got, err := packQC4W(data, tc.shape)
		if (err != nil) != tc.err || !slices.Equal(got, tc.want) {
			t.Errorf("%s: packQC4W = %x, %v; want %x, error %v", tc.name, got, err, tc.want, tc.err)
		}
	}
}

func TestBF16(t *testing.T) {
	for _, tc := range []struct {
		in   float32
		want uint16
	}{
		{1, 0x3F80},
		{math.Float32frombits(0x3F808000), 0x3F80}, // a tie rounds to even (down)
		{math.Float32frombits(0x3F818000), 0x3F82}, // a tie rounds to even (up)
		{math.Float32frombits(0x3F808001), 0x3F81},
		{float32(math.Inf(1)), 0x7F80},
	} {
		if got := bf16(tc.in); got != tc.want {
			t.Errorf("bf16(%v) = %#x, want %#x", tc.in, got, tc.want)
		}
	}
	if got := bf16(float32(math.NaN())); got&0x7F80 != 0x7F80 || got&0x7F == 0 {
		t.Errorf("bf16(NaN) = %#x, not a NaN", got)
	}
}

// TestQuantizeBias: a bias is quantized to int32 as torch's decomposed kernels do it, in
// float32 (round half to even), per tensor and per channel.
func TestQuantizeBias(t *testing.T) {
	f32 := func(v ...float32) []byte {
		b := make([]byte, 4*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
		}
		return b
	}
	i32 := func(b []byte) []int32 {
		out := make([]int32, len(b)/4)
		for i := range out {
			out[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
		}
		return out
	}
	c := &ir.Constant{Meta: ir.TensorMeta{DType: ir.Float32, Sizes: []ir.Dim{{Size: 3}}}, Data: f32(0.25, -0.75, 1)}
	got, err := quantizeConstant(c, "b", &qparams{scale: 0.5, dtype: ir.Int32})
	if err != nil || !slices.Equal(i32(got), []int32{0, -2, 2}) {
		t.Errorf("per tensor: %v, %v; want [0 -2 2]", i32(got), err)
	}
	got, err = quantizeConstant(c, "b", &qparams{perChannel: true, scales: []float32{0.25, 0.5, 0.125}, dtype: ir.Int32})
	if err != nil || !slices.Equal(i32(got), []int32{1, -2, 8}) {
		t.Errorf("per channel: %v, %v; want [1 -2 8]", i32(got), err)
	}
	if _, err := quantizeConstant(c, "b", &qparams{perChannel: true, scales: []float32{1}, dtype: ir.Int32}); err == nil {
		t.Error("per channel with too few scales: no error")
	}
}
