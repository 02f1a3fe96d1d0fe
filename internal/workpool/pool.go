// Package workpool runs parallel regions on a process-wide set of persistent goroutines, for
// kernels whose layers are microseconds long (the XNNPACK backend's): a region's tasks are
// claimed with an atomic counter by the caller and by workers that spin briefly between regions
// instead of parking, and a panic in any task is re-raised on the caller.
package workpool

import (
	"sync"
	"sync/atomic"
	"time"
)

// workerPool is a process-wide set of persistent goroutines for parallel regions. Starting a
// goroutine per region and waking an idle P costs tens of microseconds on a VM (an IPI and a futex
// wake-up), as much as a whole small layer; these workers instead spin on an atomic for a short
// while after each region, so the next region (usually microseconds later) starts at once, and
// park only when the model goes quiet. Work is split into tasks claimed with an atomic counter, so
// the caller also takes a late worker's share instead of waiting for it.
type workerPool struct {
	mu  sync.Mutex // one region at a time; a concurrent caller runs its region alone
	_   [64]byte
	gen atomic.Uint64 // bumped per region; polled by spinning workers
	_   [56]byte
	job atomic.Pointer[poolJob]
	// callerWake wakes a caller that stopped spinning for the last tasks (buffered: one token).
	callerWake chan struct{}
	workers    []*poolWorker
	// serialFor counts regions still to run on the caller alone after a worker was found
	// descheduled (see stallWait).
	serialFor atomic.Int32
}

type poolWorker struct {
	sleeping atomic.Bool
	wake     chan struct{}
}

// poolJob is one parallel region: tasks [0, n) of fn. The caller claims tasks from the front and
// workers from the back, so with two threads the caller computes the first part of every layer's
// rows and the worker the last: consecutive layers then mostly find their input in their own
// core's L2 (the rows a layer reads are near the rows the previous one wrote), while a thread
// that falls behind still has its remaining tasks taken by the other. The claim and completion
// counters sit on their own cache lines: both threads hit them once per task.
type poolJob struct {
	fn      func(task int)
	n       int64
	helpers int // workers allowed to join (the plan's thread count minus the caller)
	_       [40]byte
	ends    atomic.Uint64 // unclaimed tasks [front, back): front in the low 32 bits
	_       [56]byte
	// remaining counts unfinished tasks; the one finishing the last wakes a blocked caller.
	remaining     atomic.Int64
	callerBlocked atomic.Bool
	wake          chan struct{}
	// panicked holds the first panic a task raised. A worker must not crash the process (a
	// bad blob is an error, not an abort), and the caller must not return while workers still
	// run the job; so every task's panic is caught, the job completes, and the caller re-raises
	// it on its own goroutine, where the runtime turns it into an error.
	panicked atomic.Pointer[taskPanic]
}

type taskPanic struct{ value any }

// spinFor is how long an idle worker polls for the next region before parking: long enough to
// bridge the serial gaps between layers, short enough that an idle process stops burning a core.
const spinFor = 200 * time.Microsecond

// waitSpin is how long the caller polls for workers' last tasks before blocking: on a machine
// whose cores are busy with other processes a worker's thread may be descheduled mid-task, and
// spinning then only takes a core from whoever runs instead.
const waitSpin = 20 * time.Microsecond

// When the caller waits more than stallWait for a worker's last task, the worker's thread was
// almost certainly descheduled (another process wants the core), and every region would pay an OS
// time slice like that: the next stallRegions regions run on the caller alone, with the workers
// parked, before two threads are tried again.
const (
	stallWait    = time.Millisecond
	stallRegions = 64
)

var pool = workerPool{callerWake: make(chan struct{}, 1)}

// ensure starts workers until there are n.
func (wp *workerPool) ensure(n int) {
	for len(wp.workers) < n {
		w := &poolWorker{wake: make(chan struct{}, 1)}
		wp.workers = append(wp.workers, w)
		go wp.loop(len(wp.workers)-1, w, wp.gen.Load())
	}
}

func (wp *workerPool) loop(id int, w *poolWorker, seen uint64) {
	for {
		start := time.Now()
		// Pure polling (no Gosched: a yield costs about a microsecond, when the next region
		// should start in tens of nanoseconds); the runtime still preempts this loop for GC.
		for spins := 0; wp.gen.Load() == seen; spins++ {
			if spins&4095 != 4095 || time.Since(start) < spinFor {
				continue
			}
			w.sleeping.Store(true)
			if wp.gen.Load() != seen { // a region began while going to sleep
				w.sleeping.Store(false)
				break
			}
			<-w.wake
			start = time.Now()
		}
		seen = wp.gen.Load()
		if j := wp.job.Load(); j != nil && id < j.helpers {
			j.work(false)
		}
	}
}

// claim takes the next task from the front or the back; ok is false when none are left.
func (j *poolJob) claim(front bool) (task int, ok bool) {
	for {
		v := j.ends.Load()
		f, b := v&0xffffffff, v>>32
		if f >= b {
			return 0, false
		}
		if front {
			if j.ends.CompareAndSwap(v, b<<32|(f+1)) {
				return int(f), true
			}
		} else if j.ends.CompareAndSwap(v, (b-1)<<32|f) {
			return int(b - 1), true
		}
	}
}

// work claims and runs tasks until none are left.
func (j *poolJob) work(front bool) {
	for {
		t, ok := j.claim(front)
		if !ok {
			return
		}
		j.runTask(t)
		if j.remaining.Add(-1) == 0 && j.callerBlocked.Load() {
			select {
			case j.wake <- struct{}{}:
			default:
			}
		}
	}
}

// runTask runs one task, recording (not propagating) a panic.
func (j *poolJob) runTask(t int) {
	defer func() {
		if r := recover(); r != nil {
			j.panicked.CompareAndSwap(nil, &taskPanic{r})
		}
	}()
	j.fn(t)
}

// Run executes fn(0..n-1) on the caller and up to threads-1 workers, returning when all are done.
// A panic in any task is re-raised on the caller once every task has finished. One region runs
// at a time: a caller that finds the pool busy runs its region alone.
func Run(threads, n int, fn func(task int)) { pool.run(threads, n, fn) }

func (wp *workerPool) run(threads, n int, fn func(task int)) {
	if int64(n) >= 1<<31 {
		threads = 1 // the claim word holds 32-bit task indices
	}
	if threads > 1 && wp.serialFor.Load() > 0 {
		wp.serialFor.Add(-1)
		threads = 1
	}
	if threads <= 1 || n <= 1 || !wp.mu.TryLock() {
		for t := 0; t < n; t++ {
			fn(t)
		}
		return
	}
	defer wp.mu.Unlock()
	helpers := min(threads-1, n-1)
	wp.ensure(helpers)
	select { // a token left by an earlier region whose caller did not need it
	case <-wp.callerWake:
	default:
	}
	j := &poolJob{fn: fn, n: int64(n), helpers: helpers, wake: wp.callerWake}
	j.ends.Store(uint64(n) << 32)
	j.remaining.Store(int64(n))
	wp.job.Store(j)
	wp.gen.Add(1)
	for _, w := range wp.workers[:helpers] {
		if w.sleeping.Swap(false) {
			select {
			case w.wake <- struct{}{}:
			default:
			}
		}
	}
	j.work(true)
	start := time.Now()
	for spins := 0; j.remaining.Load() != 0; spins++ {
		if spins&255 == 255 && time.Since(start) > waitSpin {
			j.callerBlocked.Store(true)
			if j.remaining.Load() != 0 { // else the last task finished before seeing the flag
				<-wp.callerWake
			}
			if time.Since(start) > stallWait {
				wp.serialFor.Store(stallRegions)
			}
			break
		}
	}
	wp.job.Store(nil) // drop fn's captures
	if p := j.panicked.Load(); p != nil {
		panic(p.value)
	}
}
