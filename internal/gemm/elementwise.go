package gemm

// The portable elementwise loops: the whole operation off amd64 or under purego, and the tails
// (fewer than 8 elements) after the vector kernels.

func hardswishGo(dst, src []float32) {
	src = src[:len(dst)]
	for i, x := range src {
		// max-then-min as the vector kernel: a NaN input stays NaN through x·r.
		r := x + 3
		if !(r > 0) {
			r = 0
		}
		if !(r < 6) {
			r = 6
		}
		dst[i] = x * r / 6
	}
}

func mulGo(dst, a, b []float32) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] * b[i]
	}
}

func addGo(dst, a, b []float32) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] + b[i]
	}
}

func maxIntoGo(dst, src []float32) {
	src = src[:len(dst)]
	for i, v := range src {
		if v > dst[i] || v != v {
			dst[i] = v
		}
	}
}
