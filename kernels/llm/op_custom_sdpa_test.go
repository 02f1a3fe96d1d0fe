package llm

import (
	"errors"
	"strings"
	"testing"

	"github.com/etgo/etgo/executor"
)

// TestCustomSDPA holds llama::custom_sdpa.out to the official kernel: causal prefill and decode at
// several start_pos, grouped-query and multi-query attention, batches, non-causal calls, explicit
// scales (0 included), masks (-inf entries, a fully masked row), head sizes with vector tails,
// several query blocks, two key blocks (the online softmax) and NaN/±Inf in every input, read or
// not read.
func TestCustomSDPA(t *testing.T) {
	n := 0
	for _, c := range loadCases(t) {
		if c.Op != "custom_sdpa" {
			continue
		}
		n++
		t.Run(c.Name, func(t *testing.T) {
			q := fill(t, c.Q, 1, c.QSpec)
			k := fill(t, c.KV, 2, c.KSpec)
			v := fill(t, c.KV, 3, c.VSpec)
			mask := nonev()
			if c.Mask != nil {
				m := fill(t, c.Mask, 4, nil)
				md := executor.Data[float32](m)
				for i := range md {
					md[i] *= 4
				}
				for _, p := range c.MaskSpec {
					x, _ := special(p[1].(string))
					md[int(p[0].(float64))] = float32(x)
				}
				mask = tv(m)
			}
			scale := nonev()
			if c.Scale != nil {
				scale = dv(*c.Scale)
			}
			out, _ := executor.NewTensor(executor.Float32, c.Q...)
			args := []*executor.EValue{tv(q), tv(k), tv(v), iv(c.StartPos), mask, dv(0), bv(c.Causal), scale, tv(out), tv(out)}
			for _, threads := range []int{1, 3} {
				clear(executor.Data[float32](out))
				if err := customSDPAKernel(threads)(nil, args); err != nil {
					t.Fatal(err)
				}
				compareOut(t, executor.Data[float32](out), c.Out, 2e-6)
			}
		})
	}
	if n < 20 {
		t.Errorf("only %d custom_sdpa cases", n)
	}
}

// TestCustomSDPAErrors: what the official kernel refuses (or aborts on, or would read out of
// bounds for) is an error here, naming the argument, and out is left alone.
func TestCustomSDPAErrors(t *testing.T) {
	f32 := func(sizes ...int) *executor.Tensor {
		x, _ := executor.NewTensor(executor.Float32, sizes...)
		return x
	}
	q, k, v := f32(1, 2, 4, 8), f32(1, 16, 2, 8), f32(1, 16, 2, 8)
	i64 := func(sizes ...int) *executor.Tensor {
		x, _ := executor.NewTensor(executor.Int64, sizes...)
		return x
	}
	f16 := func(sizes ...int) *executor.Tensor {
		x, _ := executor.NewTensor(executor.Float16, sizes...)
		return x
	}
	ok := func() []*executor.EValue {
		out := f32(1, 2, 4, 8)
		return []*executor.EValue{tv(q), tv(k), tv(v), iv(3), nonev(), dv(0), bv(true), nonev(), tv(out), tv(out)}
	}
	cases := []struct {
		name   string
		edit   func(a []*executor.EValue) []*executor.EValue
		want   string
		unsupp bool
	}{
		{"too few arguments", func(a []*executor.EValue) []*executor.EValue { return a[:9] }, "9 arguments", false},
		{"start_pos not an Int", func(a []*executor.EValue) []*executor.EValue { a[3] = dv(1); return a }, "start_pos", false},
		{"negative start_pos", func(a []*executor.EValue) []*executor.EValue { a[3] = iv(-1); return a }, "start_pos", false},
		{"start_pos past the cache", func(a []*executor.EValue) []*executor.EValue { a[3] = iv(15); return a }, "past the cache", false},
		{"mask and causal", func(a []*executor.EValue) []*executor.EValue { a[4] = tv(f32(2, 16)); return a }, "cannot be set at the same time", false},
		{"mask of the wrong shape", func(a []*executor.EValue) []*executor.EValue { a[4], a[6] = tv(f32(2, 15)), bv(false); return a }, "attn_mask", false},
		{"mask not 2-D", func(a []*executor.EValue) []*executor.EValue { a[4], a[6] = tv(f32(1, 2, 16)), bv(false); return a }, "2-D", false},
		{"mask not float", func(a []*executor.EValue) []*executor.EValue { a[4], a[6] = tv(i64(2, 16)), bv(false); return a }, "float32", false},
		{"query 3-D", func(a []*executor.EValue) []*executor.EValue { a[0] = tv(f32(2, 4, 8)); return a }, "4-D", false},
		{"head sizes differ", func(a []*executor.EValue) []*executor.EValue { a[1] = tv(f32(1, 16, 2, 4)); return a }, "head size", false},
		{"key and value caches differ", func(a []*executor.EValue) []*executor.EValue { a[1] = tv(f32(1, 8, 2, 8)); return a }, "differ in shape", false},
		{"heads not divisible", func(a []*executor.EValue) []*executor.EValue {
			a[1], a[2] = tv(f32(1, 16, 3, 8)), tv(f32(1, 16, 3, 8))
			return a
		}, "grouped", false},
		{"more kv heads than heads", func(a []*executor.EValue) []*executor.EValue {
			a[1], a[2] = tv(f32(1, 16, 8, 8)), tv(f32(1, 16, 8, 8))
			return a
		}, "grouped", false},
		{"batch differs", func(a []*executor.EValue) []*executor.EValue {
			a[1], a[2] = tv(f32(2, 16, 2, 8)), tv(f32(2, 16, 2, 8))
			return a
		}, "batch", false},
		{"key of another dtype", func(a []*executor.EValue) []*executor.EValue { a[1] = tv(i64(1, 16, 2, 8)); return a }, "one dtype", false},
		{"float16 attention", func(a []*executor.EValue) []*executor.EValue {
			a[0], a[1], a[2] = tv(f16(1, 2, 4, 8)), tv(f16(1, 16, 2, 8)), tv(f16(1, 16, 2, 8))
			return a
		}, "float32 only", true},
		{"is_causal not a Bool", func(a []*executor.EValue) []*executor.EValue { a[6] = iv(1); return a }, "is_causal", false},
		{"out too small to resize", func(a []*executor.EValue) []*executor.EValue {
			out := f32(1, 1, 4, 8)
			a[8], a[9] = tv(out), tv(out)
			return a
		}, "out", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := customSDPAKernel(1)(nil, c.edit(ok()))
			if err == nil {
				t.Fatal("no error")
			}
			if c.unsupp != errors.Is(err, executor.ErrNotSupported) || (!c.unsupp && !isInvalid(err)) {
				t.Errorf("error %v is not the right kind", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not say %q", err, c.want)
			}
		})
	}
	if err := customSDPAKernel(1)(nil, ok()); err != nil {
		t.Errorf("the valid call fails: %v", err)
	}
}
