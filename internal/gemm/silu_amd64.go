//go:build amd64 && !purego

package gemm

// sigmoidVector says Sigmoid runs sigmoid8 on the multiple-of-8 part of its input.
func sigmoidVector() bool { return useAVX2 }

//go:noescape
func silu8(dst *float32, src *float32, n int, sigFirst bool)

// siluVector is sigmoid8's sigmoid times x on every element of src, whatever its length (a
// part of fewer than 8 runs through a padded copy, as those elements are in Sigmoid's vector
// part of the tensor).
func siluVector(dst, src []float32, sigFirst bool) {
	src = src[:len(dst)]
	v := len(dst) &^ 7
	if v > 0 {
		silu8(&dst[0], &src[0], v, sigFirst)
	}
	if r := len(dst) - v; r > 0 {
		var t [8]float32
		copy(t[:], src[v:])
		silu8(&t[0], &t[0], 8, sigFirst)
		copy(dst[v:], t[:r])
	}
}
