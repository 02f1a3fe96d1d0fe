package testutil

import "runtime"

// Allocated returns the heap bytes f allocated (in all goroutines, so call it from a test that
// does not run in parallel). A reader refusing a bomb should allocate little whatever the bomb
// claims; its peak memory cannot exceed this.
func Allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
