package emit

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPlanMemoryNoOverlap: on random lifetimes and sizes, no two buffers alive at the same time
// share a byte, every offset is aligned, and the arena is no larger than any single strategy's.
func TestPlanMemoryNoOverlap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 300; trial++ {
		n := 1 + r.IntN(40)
		bufs := make([]*buffer, n)
		for i := range bufs {
			start := r.IntN(30)
			bufs[i] = &buffer{size: alignUp(int64(r.IntN(5000)), Alignment), start: start, end: start + r.IntN(8)}
		}
		total := planMemory(bufs)
		for i, a := range bufs {
			if a.offset%Alignment != 0 || a.offset+a.size > total {
				t.Fatalf("trial %d: buffer %d at %d size %d outside arena %d or unaligned", trial, i, a.offset, a.size, total)
			}
			for j, b := range bufs[:i] {
				if a.overlaps(b) && a.size > 0 && b.size > 0 && a.offset < b.offset+b.size && b.offset < a.offset+a.size {
					t.Fatalf("trial %d: buffers %d and %d are alive together and overlap", trial, j, i)
				}
			}
		}
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(x, y int) int { return cmp.Compare(bufs[y].size, bufs[x].size) })
		if _, official := sharedObjects(bufs, order); total > official {
			t.Fatalf("trial %d: %d bytes, more than the shared-object strategy's %d", trial, total, official)
		}
	}
}
