//go:build amd64 && !purego

package llm

import "golang.org/x/sys/cpu"

var useAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

//go:noescape
func dotAVX2(a, b []float32) float32

//go:noescape
func axpyAVX2(dst, x []float32, w float32)

func dot(a, b []float32) float32 {
	if useAVX2 {
		return dotAVX2(a, b[:len(a)])
	}
	return dotGo(a, b)
}

func axpy(dst, x []float32, w float32) {
	if useAVX2 {
		axpyAVX2(dst, x[:len(dst)], w)
		return
	}
	axpyGo(dst, x, w)
}
