//go:build !amd64 || purego

package llm

// useAVX2 is false here: the tests that flip it to reach both paths see the Go loops twice.
var useAVX2 = false

func dot(a, b []float32) float32 { return dotGo(a, b) }

func axpy(dst, x []float32, w float32) { axpyGo(dst, x, w) }
