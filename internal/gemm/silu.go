package gemm

// SiLU (x·sigmoid(x)) in one pass: what a Sigmoid node followed by a Multiply of its input by
// its output computes, fused so that the tensor is read once and written once, or applied to a
// convolution's output tile while it is in cache. The result must be bit for bit the two-pass
// one, so the sigmoid is Sigmoid's (its vector kernel where Sigmoid over the whole tensor would
// run it, sigmoidGo elsewhere: the two differ in the last bits) and the product is Mul's, with
// the operands in the graph's order (it decides which NaN a NaN input gives).

// SiLUAt sets dst[i] = x·sigmoid(x) for x = src[i], where src and dst are elements [off,
// off+len(dst)) of a tensor of total elements, exactly as Sigmoid over the whole tensor and then
// Mul give: Sigmoid's vector kernel takes the tensor's first total&^7 elements, its scalar loop
// the rest. sigFirst multiplies sigmoid(x)·x instead of x·sigmoid(x). dst may be src; src is at
// least as long as dst. (Elements past total take the scalar loop.)
func SiLUAt(dst, src []float32, off, total int, sigFirst bool) {
	src = src[:len(dst)]
	v := 0 // elements of dst in the tensor's vector part
	if sigmoidVector() {
		v = min(max(total&^7-off, 0), len(dst))
	}
	siluVector(dst[:v], src[:v], sigFirst)
	siluGo(dst[v:], src[v:], sigFirst)
}

// siluGo is SiLU on sigmoidGo and mulGo, in blocks so dst may be src.
func siluGo(dst, src []float32, sigFirst bool) {
	var s [64]float32
	for i := 0; i < len(dst); i += len(s) {
		e := min(i+len(s), len(dst))
		sb, x, d := s[:e-i], src[i:e], dst[i:e]
		sigmoidGo(sb, x)
		if sigFirst {
			mulGo(d, sb, x)
		} else {
			mulGo(d, x, sb)
		}
	}
}
