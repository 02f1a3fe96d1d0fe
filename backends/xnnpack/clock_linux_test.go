//go:build linux

package xnnpack

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadClock reads the calling thread's CPU time (benchmarks lock their OS thread and run the
// plan at one thread): on a shared machine the time others held the core does not count.
func threadClock() time.Duration {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		return time.Duration(time.Now().UnixNano())
	}
	return time.Duration(ts.Nano())
}
