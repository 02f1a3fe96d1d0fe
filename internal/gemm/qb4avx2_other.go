//go:build !amd64 || purego

package gemm

// qb4a2Active reports whether the qb4w tiles are the AVX2 kernels' (none in this build).
func qb4a2Active() bool { return false }
