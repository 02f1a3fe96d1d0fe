package optimized

import (
	"unsafe"

	"github.com/etgo/etgo/runtime"
)

// allDTypes are the shape operators' dtypes (the portable library's: every real type, Bool and
// the unsigned ones); the fast paths below copy bytes, so they serve every dtype.
var allDTypes = []runtime.ScalarType{runtime.Float32, runtime.Float64, runtime.Float16, runtime.BFloat16,
	runtime.Uint8, runtime.Int8, runtime.Int16, runtime.Int32, runtime.Int64, runtime.Bool,
	runtime.Uint16, runtime.Uint32, runtime.Uint64}

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
