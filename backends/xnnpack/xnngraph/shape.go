package xnngraph

// XNNPACK node flags the graphs use.
const (
	FlagTransposeWeights = 0x1
	FlagAlignCorners     = 0x8
	FlagKeepDims         = 0x40
)

// TrailingBroadcast returns the element count of b when b is out's trailing dimensions with only
// ones before them (so b repeats whole along out's leading dimensions), else 0.
func TrailingBroadcast(b, out []int) int {
	if len(b) > len(out) {
		return 0
	}
	off := len(out) - len(b)
	inner, leading := 1, true
	for i, d := range b {
		if leading && d == 1 {
			continue
		}
		leading = false
		if d != out[off+i] {
			return 0
		}
		inner *= d
	}
	return inner
}

// BroadcastDims applies numpy broadcasting to two shapes.
func BroadcastDims(a, b []int) ([]int, error) {
	return BroadcastDimsTo(nil, a, b)
}

// BroadcastDimsTo is BroadcastDims into dst's storage when it is large enough (elementwise ops
// pass a stack array, so no allocation per node).
func BroadcastDimsTo(dst, a, b []int) ([]int, error) {
	n := max(len(a), len(b))
	out := dst[:0]
	if cap(out) < n {
		out = make([]int, n)
	}
	out = out[:n]
	for i := 0; i < n; i++ {
		x, y := 1, 1
		if k := i - (n - len(a)); k >= 0 {
			x = a[k]
		}
		if k := i - (n - len(b)); k >= 0 {
			y = b[k]
		}
		switch {
		case x == y || y == 1:
			out[i] = x
		case x == 1:
			out[i] = y
		default:
			return nil, blobErr("shapes %v and %v do not broadcast", a, b)
		}
	}
	return out, nil
}
