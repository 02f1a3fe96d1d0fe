package xnnpack

import (
	"context"
	"testing"

	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/internal/zoo/zoorun"
)

// TestTake: take prefers the most recently released buffer of about the right size (still in
// cache), then the smallest that fits, then a new one; the rest keep their release order.
func TestTake(t *testing.T) {
	bufs := func(caps ...int) [][]float32 {
		var out [][]float32
		for _, c := range caps {
			out = append(out, make([]float32, c))
		}
		return out
	}
	for _, tc := range []struct {
		name    string
		pool    []int
		n       int
		want    int   // cap of the buffer taken (0: a new one of n)
		wantRem []int // caps left, in order
	}{
		{"recent of the right size", []int{100, 120, 110}, 100, 110, []int{100, 120}},
		{"skips the recent one too large", []int{100, 5000}, 100, 100, []int{5000}},
		{"smallest that fits when none is near", []int{5000, 9000}, 100, 5000, []int{9000}},
		{"none fits", []int{10, 20}, 100, 0, []int{10, 20}},
		{"exact", []int{64}, 64, 64, nil},
		{"recent within a page's slack", []int{3000, 1200}, 100, 1200, []int{3000}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pool := bufs(tc.pool...)
			b := take(&pool, tc.n)
			want := tc.want
			if want == 0 {
				want = tc.n
			}
			if cap(b) != want {
				t.Errorf("took cap %d, want %d", cap(b), want)
			}
			var rem []int
			for _, p := range pool {
				rem = append(rem, cap(p))
			}
			if len(rem) != len(tc.wantRem) {
				t.Fatalf("left %v, want %v", rem, tc.wantRem)
			}
			for i := range rem {
				if rem[i] != tc.wantRem[i] {
					t.Fatalf("left %v, want %v", rem, tc.wantRem)
				}
			}
		})
	}
}

// TestSteadyStateAllocations: once a method has run, later runs take every intermediate value
// from the plan's pool: the bytes a run allocates are a small fraction of its intermediates.
func TestSteadyStateAllocations(t *testing.T) {
	m := zooModel(t, "mobilenet_v2_small")
	meth := load(t, newRegistry(t, Backend{Threads: 1}), m)
	defer meth.Close()
	inputs := zoorun.Inputs(t, m)
	run := func() {
		if _, err := meth.Run(context.Background(), inputs...); err != nil {
			t.Fatal(err)
		}
	}
	first := testutil.Allocated(run)
	const runs = 4
	per := testutil.Allocated(func() {
		for range runs {
			run()
		}
	}) / runs
	t.Logf("first run allocated %d bytes, later runs %d each", first, per)
	if per*8 > first {
		t.Errorf("later runs allocate %d bytes each, the first %d: the pool does not reach a steady state", per, first)
	}
}
