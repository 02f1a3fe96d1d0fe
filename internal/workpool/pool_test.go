package workpool

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
				Run(1+i%3, n, func(task int) { counts[task].Add(1) })
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

// TestWorkerPoolPanic: a task's panic, on a worker or the caller, reaches the caller only after
// every task of the region has run, and the pool keeps working afterwards.
func TestWorkerPoolPanic(t *testing.T) {
	for _, bad := range []int{0, 7} { // 0 is the caller's first task, 7 a worker's (claimed from the back)
		var ran atomic.Int32
		got := func() (r any) {
			defer func() { r = recover() }()
			Run(2, 8, func(task int) {
				ran.Add(1)
				if task == bad {
					panic("bad task")
				}
			})
			return nil
		}()
		if got != "bad task" {
			t.Errorf("task %d: recovered %v", bad, got)
		}
		if n := ran.Load(); n != 8 {
			t.Errorf("task %d: %d of 8 tasks ran before the panic was raised", bad, n)
		}
	}
	var sum atomic.Int32
	Run(2, 4, func(task int) { sum.Add(int32(task)) })
	if sum.Load() != 6 {
		t.Errorf("after the panics: sum %d", sum.Load())
	}
}
