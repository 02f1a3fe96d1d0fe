package xnnpack

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestWorkerPool runs regions of many sizes, from several goroutines at once and across a park
// (longer than the spin), and checks every task runs exactly once per region.
func TestWorkerPool(t *testing.T) {
	var wg sync.WaitGroup
	for g := 0; g < 3; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 300; i++ {
				n := i%17 + 1
				counts := make([]atomic.Int32, n)
				pool.run(1+i%3, n, func(task int) { counts[task].Add(1) })
				for k := range counts {
					if c := counts[k].Load(); c != 1 {
						t.Errorf("region %d: task %d of %d ran %d times", i, k, n, c)
						return
					}
				}
				if i == 150 && g == 0 {
					time.Sleep(2 * spinFor) // workers park; the next region must wake them
				}
			}
		}()
	}
	wg.Wait()
}

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
