//go:build !amd64 || purego

package llm

// useAVX2 is false here: the tests that flip it to reach both paths see the Go loops twice.
var useAVX2 = false

func dot(a, b []float32) float32 { return dotGo(a, b) }

func axpy(dst, x []float32, w float32) { axpyGo(dst, x, w) }

func dotRows(out, q, k []float32, stride int) { dotRowsGo(out, q, k, stride) }

func axpyRows(dst, v []float32, stride int, p []float32) { axpyRowsGo(dst, v, stride, p) }
