//go:build !unix

package llm

import "time"

// processCPU is not read on this platform: Stats' CPU times stay 0.
func processCPU() time.Duration { return 0 }
