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

// StridedCopy copies count runs of run values: run r from src[r*srcStride:] to dst[r*dstStride:]
// (an im2col's kernel rows for a row of output pixels). It reports false, copying nothing, when a
// run would fall outside dst or src.
func StridedCopy(dst []float32, dstStride int, src []float32, srcStride int, count, run int) bool {
	if count <= 0 || run <= 0 {
		return count >= 0 && run >= 0
	}
	if dstStride < 0 || srcStride < 0 || (count-1)*dstStride+run > len(dst) || (count-1)*srcStride+run > len(src) {
		return false
	}
	if stridedCopyVector(dst, dstStride, src, srcStride, count, run) {
		return true
	}
	for r := 0; r < count; r++ {
		copy(dst[r*dstStride:r*dstStride+run], src[r*srcStride:r*srcStride+run])
	}
	return true
}

// SumRows adds rows of x into acc: acc[c] += Σ_r x[r*stride+c] for c < len(acc), r < rows (a
// global average pool's sum over pixels). It reports false, adding nothing, when a row would fall
// outside x.
func SumRows(acc, x []float32, rows, stride int) bool {
	n := len(acc)
	if rows <= 0 || n == 0 {
		return rows >= 0
	}
	if stride < 0 || (rows-1)*stride+n > len(x) {
		return false
	}
	if sumRowsVector(acc, x, rows, stride) {
		return true
	}
	for r := 0; r < rows; r++ {
		addGo(acc, acc, x[r*stride:r*stride+n])
	}
	return true
}
