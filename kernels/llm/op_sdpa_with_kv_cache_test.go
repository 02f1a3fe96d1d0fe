package llm

import (
	"strings"
	"testing"

	"github.com/etgo/etgo/executor"
)

// TestSDPAWithKVCache: the fused operator is update_cache of key and value, then custom_sdpa over
// the caches (the official sdpa_with_kv_cache_out), on the official cases.
func TestSDPAWithKVCache(t *testing.T) {
	for _, c := range loadCases(t) {
		if c.Op != "custom_sdpa" || c.Mask != nil || c.Q[1] > c.KV[1]-int(c.StartPos) {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			q := fill(t, c.Q, 1, c.QSpec)
			kFull, vFull := fill(t, c.KV, 2, c.KSpec), fill(t, c.KV, 3, c.VSpec)
			// Split the official inputs: the caches hold everything but the new positions,
			// which come in as key and value.
			b, s, hkv, d := c.KV[0], c.Q[1], c.KV[2], c.KV[3]
			kNew, _ := executor.NewTensor(executor.Float32, b, s, hkv, d)
			vNew, _ := executor.NewTensor(executor.Float32, b, s, hkv, d)
			kc, vc := kFull.Clone(), vFull.Clone()
			line := hkv * d
			for bi := 0; bi < b; bi++ {
				for p := 0; p < s; p++ {
					from := (bi*c.KV[1] + int(c.StartPos) + p) * line
					to := (bi*s + p) * line
					copy(executor.Data[float32](kNew)[to:to+line], executor.Data[float32](kFull)[from:from+line])
					copy(executor.Data[float32](vNew)[to:to+line], executor.Data[float32](vFull)[from:from+line])
					clear(executor.Data[float32](kc)[from : from+line])
					clear(executor.Data[float32](vc)[from : from+line])
				}
			}
			scale := nonev()
			if c.Scale != nil {
				scale = dv(*c.Scale)
			}
			out, _ := executor.NewTensor(executor.Float32, c.Q...)
			args := []*executor.EValue{tv(q), tv(kNew), tv(vNew), tv(kc), tv(vc), iv(c.StartPos), iv(int64(s)), nonev(), dv(0), bv(c.Causal), scale, tv(out), tv(out)}
			if err := sdpaWithKVCacheKernel(1)(nil, args); err != nil {
				t.Fatal(err)
			}
			compareOut(t, executor.Data[float32](out), c.Out, 2e-6)
		})
	}
}

func TestSDPAWithKVCacheErrors(t *testing.T) {
	f32 := func(sizes ...int) *executor.Tensor {
		x, _ := executor.NewTensor(executor.Float32, sizes...)
		return x
	}
	cases := []struct {
		name     string
		start    int64
		seq      int64
		newLen   int
		cacheLen int
		want     string
	}{
		{"start_pos at the cache end", 8, 1, 1, 8, "start_pos"},
		{"negative start_pos", -1, 1, 1, 8, "start_pos"},
		{"seq_len overflows", 6, 3, 1, 8, "does not fit"},
		{"key longer than seq_len overflows", 6, 1, 3, 8, "overflow"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q, kNew, vNew := f32(1, c.newLen, 2, 4), f32(1, c.newLen, 2, 4), f32(1, c.newLen, 2, 4)
			for _, x := range [][]float32{executor.Data[float32](kNew), executor.Data[float32](vNew)} {
				for i := range x {
					x[i] = 1
				}
			}
			kc, vc := f32(1, c.cacheLen, 2, 4), f32(1, c.cacheLen, 2, 4)
			out := f32(1, c.newLen, 2, 4)
			args := []*executor.EValue{tv(q), tv(kNew), tv(vNew), tv(kc), tv(vc), iv(c.start), iv(c.seq), nonev(), dv(0), bv(true), nonev(), tv(out), tv(out)}
			err := sdpaWithKVCacheKernel(1)(nil, args)
			if err == nil || !isInvalid(err) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
			for _, x := range append(executor.Data[float32](kc), executor.Data[float32](vc)...) {
				if x != 0 {
					t.Fatal("a cache was written")
				}
			}
		})
	}
}
