package portable

import (
	"sort"
	"strings"

	"github.com/etgo/etgo/executor"
)

// kernels is filled by each operator file's init.
var kernels []executor.Kernel

func register(ks ...executor.Kernel) { kernels = append(kernels, ks...) }

// opName is the operator of a kernel name, for messages: "bitwise_and" for
// "aten::bitwise_and.Tensor_out".
func opName(kernel string) string {
	if i := strings.Index(kernel, "::"); i >= 0 {
		kernel = kernel[i+2:]
	}
	if i := strings.IndexByte(kernel, '.'); i >= 0 {
		kernel = kernel[:i]
	}
	return kernel
}

// Register adds every portable kernel to r.
func Register(r *executor.Registry) error { return r.RegisterKernels(kernels...) }

// Kernels returns the portable kernels sorted by name.
func Kernels() []executor.Kernel {
	out := append([]executor.Kernel(nil), kernels...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Dtype sets the kernels declare (the first tensor argument's type).
var (
	floatTypes    = []executor.ScalarType{executor.Float32, executor.Float64, executor.Float16, executor.BFloat16}
	intTypes      = []executor.ScalarType{executor.Uint8, executor.Int8, executor.Int16, executor.Int32, executor.Int64}
	realTypes     = append(append([]executor.ScalarType{}, floatTypes...), intTypes...)
	realBoolTypes = append(append([]executor.ScalarType{}, realTypes...), executor.Bool)
)
