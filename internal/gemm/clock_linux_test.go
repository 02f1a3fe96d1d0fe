//go:build linux

package gemm

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadClock reads the calling thread's CPU time (the benchmarks lock their OS thread): time
// another process held the core does not count, so on a shared machine a kernel's rate is its
// own, while cache misses (others' cache pressure included) still do.
func threadClock() time.Duration {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		return wallClock()
	}
	return time.Duration(ts.Nano())
}
