//go:build !unix

package main

import "time"

// processCPU is 0 where getrusage is not available: tune's CPU column then reads 0.
func processCPU() time.Duration { return 0 }
