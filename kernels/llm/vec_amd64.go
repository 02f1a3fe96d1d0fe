//go:build amd64 && !purego

package llm

import "golang.org/x/sys/cpu"

var useAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

func dot(a, b []float32) float32 {
	if useAVX2 && len(a) > 0 {
		_ = b[len(a)-1]
		var s float32
		dotRowsAVX2(&a[0], &b[0], 0, 1, len(a), &s)
		return s
	}
	return dotGo(a, b)
}

func axpy(dst, x []float32, w float32) {
	if useAVX2 && len(dst) > 0 {
		_ = x[len(dst)-1]
		axpyRowsAVX2(&dst[0], &x[0], 0, &w, 1, len(dst))
		return
	}
	axpyGo(dst, x, w)
}

//go:noescape
func dotRowsAVX2(q *float32, k *float32, stride int, n int, d int, out *float32)

//go:noescape
func axpyRowsAVX2(dst *float32, v *float32, stride int, p *float32, n int, d int)

// dotRows sets out[c] = dot(q, k[c*stride:][:len(q)]) for c < len(out).
func dotRows(out, q, k []float32, stride int) {
	n, d := len(out), len(q)
	if n == 0 {
		return
	}
	if d == 0 { // (a zero head dim: every score is the empty sum)
		clear(out)
		return
	}
	_ = k[(n-1)*stride+d-1]
	if useAVX2 && d > 0 {
		dotRowsAVX2(&q[0], &k[0], stride, n, d, &out[0])
		return
	}
	dotRowsGo(out, q, k, stride)
}

// axpyRows adds p[c]·v[c*stride:][:len(dst)] to dst for c = 0..len(p)-1, in order.
func axpyRows(dst, v []float32, stride int, p []float32) {
	n, d := len(p), len(dst)
	if n == 0 || d == 0 {
		return
	}
	_ = v[(n-1)*stride+d-1]
	if useAVX2 {
		axpyRowsAVX2(&dst[0], &v[0], stride, &p[0], n, d)
		return
	}
	axpyRowsGo(dst, v, stride, p)
}
