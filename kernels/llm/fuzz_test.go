package llm

import (
	"errors"
	"testing"

	"github.com/etgo/etgo/executor"
)

// FuzzKernels: any shapes, positions, masks and flags a program could hand the attention and
// cache kernels either run or fail with ErrInvalidArgument/ErrNotSupported — never a panic or an
// access outside a tensor.
func FuzzKernels(f *testing.F) {
	f.Add(uint8(1), uint8(2), uint8(4), uint8(2), uint8(8), uint8(16), int64(3), uint8(0), false, uint8(0))
	f.Add(uint8(2), uint8(5), uint8(6), uint8(3), uint8(3), uint8(7), int64(-1), uint8(1), true, uint8(1))
	f.Add(uint8(1), uint8(40), uint8(1), uint8(1), uint8(4), uint8(200), int64(150), uint8(2), true, uint8(2))
	f.Fuzz(func(t *testing.T, b, s, h, hkv, d, cap_ uint8, start int64, maskKind uint8, causal bool, op uint8) {
		dim := func(x uint8, limit int) int { return int(x) % limit }
		B, S, H, Hkv, D, C := dim(b, 3), dim(s, 48), dim(h, 8), dim(hkv, 8), dim(d, 20), dim(cap_, 160)
		f32 := func(sizes ...int) *executor.Tensor {
			x, err := executor.NewTensor(executor.Float32, sizes...)
			if err != nil {
				t.Skip()
			}
			data := executor.Data[float32](x)
			for i := range data {
				data[i] = float32(i%7) - 3
			}
			return x
		}
		q, k, v := f32(B, S, H, D), f32(B, C, Hkv, D), f32(B, C, Hkv, D)
		out := f32(B, S, H, D)
		mask := nonev()
		switch maskKind % 3 {
		case 1:
			mask = tv(f32(S, C))
		case 2:
			mask = tv(f32(S, C+1))
		}
		var err error
		switch op % 3 {
		case 0:
			err = customSDPAKernel(2)(nil, []*executor.EValue{tv(q), tv(k), tv(v), iv(start), mask, dv(0), bv(causal), nonev(), tv(out), tv(out)})
		case 1:
			kn, vn := f32(B, S, Hkv, D), f32(B, S, Hkv, D)
			err = sdpaWithKVCacheKernel(1)(nil, []*executor.EValue{tv(q), tv(kn), tv(vn), tv(k), tv(v), iv(start), iv(int64(S)), mask, dv(0), bv(causal), nonev(), tv(out), tv(out)})
		case 2:
			err = updateCacheKernel(nil, []*executor.EValue{tv(f32(B, S, Hkv, D)), tv(k), iv(start), tv(out), tv(out)})
		}
		if err != nil && !errors.Is(err, executor.ErrInvalidArgument) && !errors.Is(err, executor.ErrNotSupported) {
			t.Fatalf("error of the wrong kind: %v", err)
		}
	})
}
