//go:build !linux

package gemm

import "time"

// threadClock is the wall clock where no per-thread CPU clock is read.
func threadClock() time.Duration { return wallClock() }
