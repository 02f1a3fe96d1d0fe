package transforms

import (
	"math"
	"testing"

	"github.com/x448/float16"

	"github.com/etgo/etgo/ir"
)

// TestRound64: float64 → float16/bfloat16 rounds once (no double rounding through float32), and
// float32 directly.
func TestRound64(t *testing.T) {
	half := func(b uint16) float32 { return float16.Frombits(b).Float32() }
	// 1 + 2^-11 + 2^-40: just above the fp16 midpoint between 1 and 1+2^-10; float32 rounds it
	// to the midpoint itself (1 + 2^-11), which ties to even (1) in fp16 — wrong.
	above := 1 + math.Ldexp(1, -11) + math.Ldexp(1, -40)
	// 1 + 2^-8 + 2^-40: the same for bfloat16 (7 fraction bits).
	aboveBF := 1 + math.Ldexp(1, -8) + math.Ldexp(1, -40)
	for _, c := range []struct {
		name string
		x    float64
		dt   ir.DType
		want float32
	}{
		{"fp16 above a midpoint", above, ir.Float16, half(0x3c01)},
		{"fp16 exact", 0.5, ir.Float16, 0.5},
		{"fp16 below a midpoint", 1 + math.Ldexp(1, -11) - math.Ldexp(1, -40), ir.Float16, 1},
		{"fp16 overflow", 1e6, ir.Float16, float32(math.Inf(1))},
		{"fp16 subnormal", math.Ldexp(3, -25) + math.Ldexp(1, -60), ir.Float16, half(0x0002)},
		{"bf16 above a midpoint", aboveBF, ir.BFloat16, math.Float32frombits(0x3f810000)},
		{"fp32 rounds once", above, ir.Float32, float32(above)},
		{"fp16 NaN", math.NaN(), ir.Float16, float32(math.NaN())},
	} {
		r, err := roundTo(c.dt)
		if err != nil {
			t.Fatal(err)
		}
		got := round64(c.x, c.dt, r)
		if got != c.want && !(got != got && c.want != c.want) {
			t.Errorf("%s: %v → %g (%#x), want %g", c.name, c.x, got, math.Float32bits(got), c.want)
		}
	}
	if _, err := roundTo(ir.Int8); err == nil {
		t.Error("int8 weights accepted for rewriting")
	}
}

// TestHalfData: float16 and bfloat16 constants widen exactly and encode back to their bytes;
// a short buffer is refused.
func TestHalfData(t *testing.T) {
	for _, c := range []struct {
		dt    ir.DType
		bytes []byte
		want  []float32
	}{
		{ir.Float16, []byte{0x00, 0x3c, 0x00, 0xc0, 0x01, 0x00}, []float32{1, -2, float32(math.Ldexp(1, -24))}},
		{ir.BFloat16, []byte{0x80, 0x3f, 0x00, 0xc0, 0xc0, 0x7f}, []float32{1, -2, float32(math.NaN())}},
	} {
		k := &ir.Constant{Meta: ir.TensorMeta{DType: c.dt, Sizes: []ir.Dim{{Size: 3}}}, Data: c.bytes}
		got, err := Float32Data(k, "w")
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if got[i] != c.want[i] && !(got[i] != got[i] && c.want[i] != c.want[i]) {
				t.Errorf("%s element %d: %g, want %g", c.dt, i, got[i], c.want[i])
			}
		}
		if b := DTypeBytes(c.dt, got); string(b) != string(c.bytes) {
			t.Errorf("%s: re-encoded % x, want % x", c.dt, b, c.bytes)
		}
		k.Data = k.Data[:5]
		if _, err := Float32Data(k, "w"); err == nil {
			t.Errorf("%s: 5 bytes for 3 elements accepted", c.dt)
		}
	}
}
