package llm

import (
	"strings"
	"testing"

	"github.com/etgo/etgo/executor"
)

// TestUpdateCache holds llama::update_cache.out to the official kernel: the cache after the
// update, prefill and decode positions, two batch lines.
func TestUpdateCache(t *testing.T) {
	n := 0
	for _, c := range loadCases(t) {
		if c.Op != "update_cache" {
			continue
		}
		n++
		t.Run(c.Name, func(t *testing.T) {
			value, cache := fill(t, c.Value, 5, nil), fill(t, c.Cache, 6, nil)
			out, _ := executor.NewTensor(executor.Float32, 1)
			if err := updateCacheKernel(nil, []*executor.EValue{tv(value), tv(cache), iv(c.StartPos), tv(out), tv(out)}); err != nil {
				t.Fatal(err)
			}
			compareOut(t, executor.Data[float32](cache), c.Out, 0)
			if executor.Data[float32](out)[0] != 0 {
				t.Error("out was written")
			}
		})
	}
	if n == 0 {
		t.Fatal("no update_cache cases")
	}
}

func TestUpdateCacheErrors(t *testing.T) {
	mk := func(dt executor.ScalarType, sizes ...int) *executor.Tensor {
		x, _ := executor.NewTensor(dt, sizes...)
		return x
	}
	f32 := func(sizes ...int) *executor.Tensor { return mk(executor.Float32, sizes...) }
	cases := []struct {
		name         string
		value, cache *executor.Tensor
		start        int64
		want         string
	}{
		{"negative start_pos", f32(1, 1, 2, 4), f32(1, 8, 2, 4), -1, "start_pos"},
		{"start_pos at the end", f32(1, 1, 2, 4), f32(1, 8, 2, 4), 8, "start_pos"},
		{"overflows the cache", f32(1, 3, 2, 4), f32(1, 8, 2, 4), 6, "does not fit"},
		{"heads differ", f32(1, 1, 1, 4), f32(1, 8, 2, 4), 0, "number of heads"},
		{"head size differs", f32(1, 1, 2, 3), f32(1, 8, 2, 4), 0, "head size"},
		{"batch differs", f32(2, 1, 2, 4), f32(1, 8, 2, 4), 0, "batch size"},
		{"element sizes differ", mk(executor.Float16, 1, 1, 2, 4), f32(1, 8, 2, 4), 0, "size"},
		{"3-D cache", f32(1, 1, 2, 4), f32(8, 2, 4), 0, "4-D"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := f32(1)
			err := updateCacheKernel(nil, []*executor.EValue{tv(c.value), tv(c.cache), iv(c.start), tv(out), tv(out)})
			if err == nil || !isInvalid(err) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one saying %q", err, c.want)
			}
			for _, x := range executor.Data[float32](c.cache) {
				if x != 0 {
					t.Fatal("the cache was written")
				}
			}
		})
	}
	// An int32 value goes into a float32 cache bit for bit, as the official memcpy does.
	v, _ := executor.FromSlice([]int32{1, 2}, 1, 1, 1, 2)
	cache := f32(1, 2, 1, 2)
	out := f32(1)
	if err := updateCacheKernel(nil, []*executor.EValue{tv(v), tv(cache), iv(1), tv(out), tv(out)}); err != nil {
		t.Fatal(err)
	}
	if b := cache.Bytes(); b[8] != 1 || b[12] != 2 {
		t.Errorf("cache bytes %v", b)
	}
}

func TestUpdateCacheWithIndices(t *testing.T) {
	f32 := func(v []float32, sizes ...int) *executor.Tensor {
		x, _ := executor.FromSlice(v, sizes...)
		return x
	}
	idx := func(v ...int64) *executor.Tensor {
		x, _ := executor.FromSlice(v, 1, len(v))
		return x
	}
	cases := []struct {
		name    string
		indices *executor.Tensor
		want    []float32
		err     string
	}{
		{"scatter", idx(3, 0), []float32{3, 4, 0, 0, 0, 0, 1, 2}, ""},
		{"same position twice: the last wins", idx(1, 1), []float32{0, 0, 3, 4, 0, 0, 0, 0}, ""},
		{"index past the cache", idx(0, 4), nil, "outside"},
		{"negative index", idx(-1, 0), nil, "outside"},
		{"indices of another length", idx(0), nil, "do not match"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			value := f32([]float32{1, 2, 3, 4}, 1, 2, 1, 2)
			cache := f32(make([]float32, 8), 1, 4, 1, 2)
			out := f32([]float32{0}, 1)
			err := updateCacheWithIndicesKernel(nil, []*executor.EValue{tv(value), tv(cache), iv(99), tv(c.indices), tv(out), tv(out)})
			if c.err != "" {
				if err == nil || !isInvalid(err) || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				for _, x := range executor.Data[float32](cache) {
					if x != 0 {
						t.Fatal("the cache was written")
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := executor.Data[float32](cache)
			for i := range c.want {
				if got[i] != c.want[i] {
					t.Fatalf("cache %v, want %v", got, c.want)
				}
			}
		})
	}
}
