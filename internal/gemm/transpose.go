package gemm

// Transpose writes the transpose of a rows×cols matrix: dst[c*ldd+r] = src[r*lds+c] for r < rows,
// c < cols (strides in elements). It is the 2-d core every static transpose reduces to once
// its permutation is normalised (XNNPACK's x32-transposec): full 8×8 blocks go through the
// vector kernel where there is one, the edges (and the whole matrix elsewhere) through
// TransposeGo. It reports false, writing nothing, when the matrices do not fit dst or src.
func Transpose(dst []float32, ldd int, src []float32, lds int, rows, cols int) bool {
	if !transposeFits(len(dst), ldd, len(src), lds, rows, cols) {
		return false
	}
	if rows == 0 || cols == 0 {
		return true
	}
	rb, cb := rows&^7, cols&^7
	if rb > 0 && cb > 0 && transposeVector(dst, ldd, src, lds, rb, cb) {
		if cb < cols { // the right edge: columns cb.. of every full row block
			transposeTile(dst[cb*ldd:], ldd, src[cb:], lds, rb, cols-cb)
		}
		if rb < rows { // the bottom edge: every column of the last rows
			transposeTile(dst[rb:], ldd, src[rb*lds:], lds, rows-rb, cols)
		}
		return true
	}
	transposeTile(dst, ldd, src, lds, rows, cols)
	return true
}

// TransposeGo is Transpose for any element type, in Go.
func TransposeGo[T any](dst []T, ldd int, src []T, lds int, rows, cols int) bool {
	if !transposeFits(len(dst), ldd, len(src), lds, rows, cols) {
		return false
	}
	if rows > 0 && cols > 0 {
		transposeTile(dst, ldd, src, lds, rows, cols)
	}
	return true
}

// transposeFits says a rows×cols matrix at stride lds lies in src and its transpose at stride
// ldd in dst (strides at least the row lengths, so rows never overlap).
func transposeFits(ndst, ldd, nsrc, lds, rows, cols int) bool {
	if rows < 0 || cols < 0 {
		return false
	}
	if rows == 0 || cols == 0 {
		return true
	}
	return lds >= cols && ldd >= rows && (rows-1)*lds+cols <= nsrc && (cols-1)*ldd+rows <= ndst
}

// transposeTile walks 8×8 tiles, so that each tile's eight source rows and eight destination rows
// stay in cache while it is written (operands checked by the caller).
func transposeTile[T any](dst []T, ldd int, src []T, lds int, rows, cols int) {
	const b = 8
	for r0 := 0; r0 < rows; r0 += b {
		r1 := min(r0+b, rows)
		for c0 := 0; c0 < cols; c0 += b {
			c1 := min(c0+b, cols)
			for r := r0; r < r1; r++ {
				s := src[r*lds+c0 : r*lds+c1]
				d := dst[c0*ldd+r:]
				for k, v := range s {
					d[k*ldd] = v
				}
			}
		}
	}
}
