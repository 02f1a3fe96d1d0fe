//go:build amd64 && !purego

package gemm

import "unsafe"

//go:noescape
func dwq8A2(x *int8, zrow *int8, offs *int32, npix int, ntaps int, w *int32, wstride int, bias *int32, scale *float32, out *int8, ldo int, c int, lo float32, hi float32, zp int32, ptrs *uintptr)

// dwTileAVX2 runs the AVX2 depthwise kernel over the channels in whole groups of 8 and the Go
// loop over the rest (fewer than 8; the kernel's 8-code loads would read past a tap's C codes).
func dwTileAVX2(q *QDW, x []int8, offs []int32, npix int, out []int8, ldo int) {
	c8 := q.C &^ 7
	if c8 > 0 {
		var buf [25]uintptr // the pixel's tap addresses: uintptrs, which the collector does not follow
		ptrs := buf[:]
		if q.Taps > len(buf) {
			ptrs = make([]uintptr, q.Taps)
		}
		dwq8A2(unsafe.SliceData(x), &q.zrow[0], &offs[0], npix, q.Taps, &q.w[0], 4*len(q.bias), &q.bias[0], &q.scale[0],
			&out[0], ldo, c8, q.lo, q.hi, q.zp, &ptrs[0])
	}
	if c8 < q.C {
		dwChannelsGo(q, x, offs, npix, out, ldo, c8)
	}
}

// dwChannelsGo is dwTileGo for channels [c0, C).
func dwChannelsGo(q *QDW, x []int8, offs []int32, npix int, out []int8, ldo int, c0 int) {
	cp := len(q.bias)
	var acc [8]int32
	n := q.C - c0
	for i := range npix {
		copy(acc[:n], q.bias[c0:q.C])
		for t, o := range offs[i*q.Taps : (i+1)*q.Taps] {
			src := q.zrow[c0:q.C]
			if o >= 0 {
				src = x[int(o)+c0:][:n]
			}
			w := q.w[t*cp+c0:][:n]
			for ch, v := range src {
				acc[ch] += int32(v) * w[ch]
			}
		}
		row := out[i*ldo+c0:][:n]
		for ch := range row {
			row[ch] = int8(requantFP32(acc[ch], q.scale[c0+ch], q.lo, q.hi, q.zp))
		}
	}
}
