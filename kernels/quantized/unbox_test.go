package quantized

import (
	"testing"

	"github.com/etgo/etgo/internal/unboxgen"
)

// The generated unboxing must be what the schemas and this package's kernel names give today.
func TestUnboxGenUpToDate(t *testing.T) { unboxgen.CheckUpToDate(t, ".", "quantized") }

// Every registered kernel unboxes its arguments exactly as its generated unboxer does, argument
// by argument (see unboxgen.CheckKernels).
func TestKernelsUnboxAsTheirSchema(t *testing.T) {
	unboxgen.CheckKernels(t, Kernels(), generatedUnboxers)
}
