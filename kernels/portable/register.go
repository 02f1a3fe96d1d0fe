package portable

import (
	"sort"
	"strings"

	"github.com/etgo/etgo/runtime"
)

// kernels is filled by each operator file's init.
var kernels []runtime.Kernel

func register(ks ...runtime.Kernel) { kernels = append(kernels, ks...) }

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
func Register(r *runtime.Registry) error { return r.RegisterKernels(kernels...) }

// Kernels returns the portable kernels sorted by name.
func Kernels() []runtime.Kernel {
	out := append([]runtime.Kernel(nil), kernels...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Dtype sets the kernels declare (the first tensor argument's type).
var (
	floatTypes    = []runtime.ScalarType{runtime.Float32, runtime.Float64, runtime.Float16, runtime.BFloat16}
	intTypes      = []runtime.ScalarType{runtime.Uint8, runtime.Int8, runtime.Int16, runtime.Int32, runtime.Int64}
	realTypes     = append(append([]runtime.ScalarType{}, floatTypes...), intTypes...)
	realBoolTypes = append(append([]runtime.ScalarType{}, realTypes...), runtime.Bool)
)
