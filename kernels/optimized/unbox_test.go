package optimized

import (
	"testing"

	"github.com/etgo/etgo/internal/unboxgen"
)

// The generated unboxing must be what the schemas and this package's kernel names give today:
// a stale file means a kernel was added or torch's schemas changed without `go generate`.
func TestUnboxGenUpToDate(t *testing.T) { unboxgen.CheckUpToDate(t, ".", "optimized") }

// Every registered kernel with a schema unboxes its arguments exactly as its generated unboxer
// does, argument by argument (see unboxgen.CheckKernels).
func TestKernelsUnboxAsTheirSchema(t *testing.T) {
	unboxgen.CheckKernels(t, Kernels(1), generatedUnboxers)
}
