package optimized

import (
	"unsafe"

	"github.com/etgo/etgo/executor"
)

// allDTypes are the shape operators' dtypes (the portable library's: every real type, Bool and
// the unsigned ones); the fast paths below copy bytes, so they serve every dtype.
var allDTypes = []executor.ScalarType{executor.Float32, executor.Float64, executor.Float16, executor.BFloat16,
	executor.Uint8, executor.Int8, executor.Int16, executor.Int32, executor.Int64, executor.Bool,
	executor.Uint16, executor.Uint32, executor.Uint64}

// bytesOverlap reports whether two byte slices share memory: a copy kernel whose out overlaps an
// input leaves the call to the portable kernel, which copies its inputs first.
func bytesOverlap(x, y []byte) bool {
	if len(x) == 0 || len(y) == 0 {
		return false
	}
	x0 := uintptr(unsafe.Pointer(unsafe.SliceData(x)))
	y0 := uintptr(unsafe.Pointer(unsafe.SliceData(y)))
	return x0 < y0+uintptr(len(y)) && y0 < x0+uintptr(len(x))
}
