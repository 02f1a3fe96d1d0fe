package xnnpack

import (
	"sync"
	"testing"
)

// TestParallelChunks checks plan.parallel covers [0, n) exactly once in multiples of unit.
func TestParallelChunks(t *testing.T) {
	for _, threads := range []int{1, 2, 3} {
		p := &plan{threads: threads}
		for _, c := range []struct{ n, unit int }{{0, 1}, {1, 1}, {5, 14}, {49, 14}, {196, 14}, {1000, 1}, {7, 1}} {
			var mu sync.Mutex
			seen := make([]int, c.n)
			p.parallel(c.n, c.unit, minParallelWork, func(lo, hi int) {
				if lo%c.unit != 0 {
					t.Errorf("chunk starts at %d, not a multiple of %d", lo, c.unit)
				}
				mu.Lock()
				defer mu.Unlock()
				for i := lo; i < hi; i++ {
					seen[i]++
				}
			})
			for i, s := range seen {
				if s != 1 {
					t.Fatalf("threads %d n %d unit %d: row %d covered %d times", threads, c.n, c.unit, i, s)
				}
			}
		}
	}
}
