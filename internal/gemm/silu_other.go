//go:build !amd64 || purego

package gemm

// Without the assembly kernels Sigmoid is sigmoidGo throughout.
func sigmoidVector() bool { return false }

func siluVector(dst, src []float32, sigFirst bool) {}
