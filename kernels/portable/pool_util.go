package portable

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

// Shared helpers of the pooling, padding and upsampling kernels. The spatial kernels treat
// their input as planes: a rank-3 [C,H,W] or rank-4 [N,C,H,W] tensor is N*C planes of H×W in
// logical order, whatever its dim order.

// poolWindow holds a window's parameters per spatial dimension, outermost first: [0] for H
// and [1] for W of a 2-d window (n = 2), [0] for D, [1] for H and [2] for W of a 3-d one.
type poolWindow struct {
	n          int // spatial dimensions: 2 or 3
	k, s, p, d [3]int
	ceil       bool
	shift      int // added to argument indices in errors: 1 when self is argument 1
}

// as3d returns a 2-d window as a 3-d one over a depth of 1 (a 1-deep window, stride and
// dilation 1, no padding), so one loop over volumes serves both.
func (w poolWindow) as3d() poolWindow {
	if w.n == 3 {
		return w
	}
	w.n = 3
	w.k, w.s, w.p, w.d = [3]int{1, w.k[0], w.k[1]}, [3]int{1, w.s[0], w.s[1]}, [3]int{0, w.p[0], w.p[1]}, [3]int{1, w.d[0], w.d[1]}
	return w
}

// poolDims expands an int[n] argument (argument i; n = 2 or 3) given as one or n values (or
// none, when def is non-nil: stride's empty list means the kernel size).
func poolDims(v []int64, i int, name, op string, n int, def []int) ([3]int, error) {
	for _, x := range v { // before converting to int, which is 32 bits on some targets
		if x > math.MaxInt32 || x < -math.MaxInt32 {
			return [3]int{}, unbox.ArgError(i, name, "%v is too large", v)
		}
	}
	var r [3]int
	switch {
	case len(v) == 0 && def != nil:
		copy(r[:], def[:n])
		return r, nil
	case len(v) == 1:
		for j := range n {
			r[j] = int(v[0])
		}
		return r, nil
	case len(v) == n:
		for j := range n {
			r[j] = int(v[j])
		}
		return r, nil
	}
	count := [...]string{2: "two", 3: "three"}[n]
	if def != nil {
		return [3]int{}, unbox.ArgError(i, name, "%s: %s must either be omitted, a single int, or a tuple of %s ints, got %v", op, name, count, v)
	}
	return [3]int{}, unbox.ArgError(i, name, "%s: %s must either be a single int, or a tuple of %s ints, got %v", op, name, count, v)
}

// poolWindowArgs checks max_pool{2,3}d's kernel_size, stride, padding, dilation and ceil_mode,
// arguments first..first+4 (n spatial dimensions); errors about the window name those indices.
func poolWindowArgs(k, s, p, d []int64, ceil bool, first int, op string, n int) (poolWindow, error) {
	w := poolWindow{n: n, shift: first - 1, ceil: ceil}
	var err error
	if w.k, err = poolDims(k, first, "kernel_size", op, n, nil); err != nil {
		return w, err
	}
	if w.s, err = poolDims(s, first+1, "stride", op, n, w.k[:]); err != nil {
		return w, err
	}
	if w.p, err = poolDims(p, first+2, "padding", op, n, nil); err != nil {
		return w, err
	}
	w.d, err = poolDims(d, first+3, "dilation", op, n, nil)
	return w, err
}

// poolAvgWindowArgs checks avg_pool{2,3}d's kernel_size, stride, padding and ceil_mode,
// arguments 1..4 (n spatial dimensions; no dilation).
func poolAvgWindowArgs(a avgPool2dOutArgs, op string, n int) (poolWindow, error) {
	w := poolWindow{n: n, d: [3]int{1, 1, 1}, ceil: a.CeilMode}
	var err error
	if w.k, err = poolDims(a.KernelSize, 1, "kernel_size", op, n, nil); err != nil {
		return w, err
	}
	if w.s, err = poolDims(a.Stride, 2, "stride", op, n, w.k[:]); err != nil {
		return w, err
	}
	w.p, err = poolDims(a.Padding, 3, "padding", op, n, nil)
	return w, err
}

// poolCheckInput accepts n+1 dims with no zero size and n+2 dims with only N possibly zero
// (n spatial dimensions).
func poolCheckInput(in *executor.Tensor, n, shift int) error {
	s := in.Sizes()
	ok := len(s) == n+1 || len(s) == n+2
	for i, x := range s {
		if x == 0 && !(i == 0 && len(s) == n+2) {
			ok = false
		}
	}
	if !ok {
		return unbox.ArgError(shift, "self", "expected %dD or %dD (batch mode) tensor with optional 0 dim batch size, got sizes %v", n+1, n+2, s)
	}
	return nil
}

// poolFloorDiv divides rounding toward negative infinity.
func poolFloorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// poolOutSize is PyTorch's pooling_output_shape: in ceil mode the last window must start
// inside the input or its left padding.
func poolOutSize(in, k, p, s, d int, ceil bool) int {
	num := in + 2*p - d*(k-1) - 1
	if ceil {
		num += s - 1
	}
	o := poolFloorDiv(num, s) + 1
	if ceil && (o-1)*s >= in+p {
		o--
	}
	return o
}

// poolShape validates a window against the input (PyTorch's pool2d_shape_check and
// pool3d_shape_check) and returns the out sizes.
func poolShape(in *executor.Tensor, w *poolWindow) ([]int, error) {
	n := w.n
	for i, v := range [][3]int{w.k, w.s, w.p, w.d} {
		for _, x := range v[:n] {
			if x > math.MaxInt32 {
				name := [...]string{"kernel_size", "stride", "padding", "dilation"}[i]
				return nil, unbox.ArgError(i+1+w.shift, name, "%v is too large", v[:n])
			}
		}
	}
	for i, c := range []struct {
		v        [3]int
		min      int
		name, is string
	}{{w.k, 1, "kernel_size", "kernel size should be greater than zero"}, {w.s, 1, "stride", "stride should be greater than zero"},
		{w.p, 0, "padding", "pad must be non-negative"}, {w.d, 1, "dilation", "dilation should be greater than zero"}} {
		if slices.Min(c.v[:n]) < c.min {
			return nil, unbox.ArgError(i+1+w.shift, c.name, "%s, got %v", c.is, c.v[:n])
		}
	}
	for j := range n {
		if w.p[j] > w.k[j]/2 {
			return nil, unbox.ArgError(3+w.shift, "padding", "pad should be at most half of kernel size, got padding %v for kernel size %v", w.p[:n], w.k[:n])
		}
	}
	if err := poolCheckInput(in, n, w.shift); err != nil {
		return nil, err
	}
	s := in.Sizes()
	out := append([]int(nil), s...)
	o := out[len(s)-n:]
	small := false
	for j := range n {
		o[j] = poolOutSize(s[len(s)-n+j], w.k[j], w.p[j], w.s[j], w.d[j], w.ceil)
		small = small || o[j] < 1
	}
	if small {
		dims := make([]string, n)
		for j := range n {
			dims[j] = fmt.Sprint(o[j])
		}
		return nil, fmt.Errorf("%w: given input size %v, the calculated output size %s is too small", executor.ErrInvalidArgument, s, strings.Join(dims, "x"))
	}
	return out, nil
}

// poolPlanes returns the number of planes and the plane height and width of a rank ≥ 2 shape.
func poolPlanes(s []int) (planes, h, w int) {
	planes = 1
	for _, d := range s[:len(s)-2] {
		planes *= d
	}
	return planes, s[len(s)-2], s[len(s)-1]
}

// poolVolumes returns the number of volumes and the volume depth, height and width of a shape
// with n spatial dimensions: for n = 2, planes of depth 1.
func poolVolumes(s []int, n int) (volumes, d, h, w int) {
	volumes, h, w = poolPlanes(s)
	if n == 2 {
		return volumes, 1, h, w
	}
	d = s[len(s)-3]
	return volumes / d, d, h, w
}

// poolSameDtype refuses an out whose dtype differs from the input's.
func poolSameDtype(in, out *executor.Tensor, name string) error {
	if in.ScalarType() != out.ScalarType() {
		return fmt.Errorf("%w: %s is %s, want the input's %s", executor.ErrInvalidArgument, name,
			executor.DTypeName(out.ScalarType()), executor.DTypeName(in.ScalarType()))
	}
	return nil
}

// poolDtype refuses input dtypes outside the kernel's set.
func poolDtype(in *executor.Tensor, op string, ok []executor.ScalarType) error {
	for _, t := range ok {
		if in.ScalarType() == t {
			return nil
		}
	}
	return unbox.ArgError(0, "self", "%s does not support %s", op, executor.DTypeName(in.ScalarType()))
}

// poolOffsets maps logical element indices to memory offsets; nil for a contiguous tensor.
func poolOffsets(t *executor.Tensor) []int {
	if t.IsContiguous() {
		return nil
	}
	offs := make([]int, t.Numel())
	forEach(t, func(i, o int) { offs[i] = o })
	return offs
}

// poolGather writes out[i] = in[src[i]] bit for bit (logical indices, any dim order and
// dtype); where src[i] < 0 it writes fill's only element (fill has out's dtype).
func poolGather(in, out *executor.Tensor, src []int, fill *executor.Tensor) error {
	switch executor.ElementSize(out.ScalarType()) {
	case 1:
		poolGatherT[uint8](in, out, src, fill)
	case 2:
		poolGatherT[uint16](in, out, src, fill)
	case 4:
		poolGatherT[uint32](in, out, src, fill)
	case 8:
		poolGatherT[uint64](in, out, src, fill)
	default:
		return fmt.Errorf("%w: unsupported dtype %s", executor.ErrInvalidArgument, executor.DTypeName(out.ScalarType()))
	}
	return nil
}

func poolGatherT[T uint8 | uint16 | uint32 | uint64](in, out *executor.Tensor, src []int, fill *executor.Tensor) {
	if len(src) == 0 {
		return
	}
	x, y := executor.Data[T](in), executor.Data[T](out)
	xo, yo := poolOffsets(in), poolOffsets(out)
	var f T
	if fill != nil {
		f = executor.Data[T](fill)[0]
	}
	for i, s := range src {
		v := f
		if s >= 0 {
			if xo != nil {
				s = xo[s]
			}
			v = x[s]
		}
		if yo != nil {
			y[yo[i]] = v
		} else {
			y[i] = v
		}
	}
}

// poolGather2d fills src for planes of oh×ow taken from planes of ih×iw through row and
// column maps (a map entry < 0 means fill).
func poolGather2d(planes, ih, iw int, rows, cols []int) []int {
	oh, ow := len(rows), len(cols)
	src := make([]int, planes*oh*ow)
	e := 0
	for p := 0; p < planes; p++ {
		base := p * ih * iw
		for _, r := range rows {
			for _, c := range cols {
				if r < 0 || c < 0 {
					src[e] = -1
				} else {
					src[e] = base + r*iw + c
				}
				e++
			}
		}
	}
	return src
}

// poolLowest is the identity of max for a dtype: -Inf for floats, the type's minimum for
// integers.
func poolLowest(t executor.ScalarType) (float64, int64) {
	switch t {
	case executor.Uint8, executor.Uint16, executor.Uint32, executor.Uint64, executor.Bool:
		return math.Inf(-1), 0
	case executor.Int8:
		return math.Inf(-1), math.MinInt8
	case executor.Int16:
		return math.Inf(-1), math.MinInt16
	case executor.Int32:
		return math.Inf(-1), math.MinInt32
	}
	return math.Inf(-1), math.MinInt64
}

// poolF32 converts float64 values (exact float32 values) to float32.
func poolF32(v []float64) []float32 {
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x)
	}
	return out
}

// poolF64 widens float32 values.
func poolF64(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

// poolEdgePad is reflection_pad{1,2,3}d.out and replication_pad{1,2,3}d.out(Tensor self,
// SymInt[2n] padding, *, Tensor(a!) out): padding holds (left, right[, top, bottom[, front,
// back]]) and a negative pad crops. The input is [C,W] or [N,C,W] (n=1), [C,H,W] or [N,C,H,W]
// (n=2), [C,D,H,W] or [N,C,D,H,W] (n=3), only N possibly zero.
func poolEdgePad(a selfPaddingOutArgs, n int, op string, reflect bool) error {
	in, pad, out := a.Self, a.Padding, a.Out
	if len(pad) != 2*n {
		return unbox.ArgError(1, "padding", "want %d values, got %d", 2*n, len(pad))
	}
	s := in.Sizes()
	rank := len(s)
	if rank != n+1 && rank != n+2 {
		return unbox.ArgError(0, "self", "%s expects a %dD or %dD (batch mode) tensor, got sizes %v", op, n+1, n+2, s)
	}
	first := 0
	if rank == n+2 {
		first = 1 // the batch may be empty
	}
	for d := first; d < rank; d++ {
		if s[d] == 0 {
			return unbox.ArgError(0, "self", "%s expects non-zero sizes except the batch, got sizes %v", op, s)
		}
	}
	if err := poolDtype(in, op, realBoolTypes); err != nil {
		return err
	}
	if err := poolSameDtype(in, out, "out"); err != nil {
		return err
	}
	sizes := append([]int(nil), s...)
	for i := 0; i < n; i++ {
		d := rank - 1 - i
		lo, hi := pad[2*i], pad[2*i+1]
		if reflect && (lo >= int64(s[d]) || hi >= int64(s[d])) {
			return unbox.ArgError(1, "padding", "padding (%d, %d) should be less than the size %d of dimension %d", lo, hi, s[d], d)
		}
		if lo > math.MaxInt32 || hi > math.MaxInt32 || lo < math.MinInt32 || hi < math.MinInt32 {
			return unbox.ArgError(1, "padding", "padding (%d, %d) is too large", lo, hi)
		}
		sizes[d] = s[d] + int(lo) + int(hi)
		if sizes[d] < 1 {
			return unbox.ArgError(1, "padding", "dimension %d of size %d padded by (%d, %d) leaves size %d, want at least 1", d, s[d], lo, hi, sizes[d])
		}
	}
	if err := resize(out, sizes); err != nil {
		return err
	}
	maps := [][]int{{0}, {0}, nil} // depths, rows, cols
	for i := 0; i < n; i++ {
		d := rank - 1 - i
		lo := int(pad[2*i])
		m := make([]int, sizes[d])
		for j := range m {
			switch {
			case j < lo && reflect:
				m[j] = lo - j
			case j < lo:
				m[j] = 0
			case j < s[d]+lo:
				m[j] = j - lo
			case reflect:
				m[j] = 2*s[d] + lo - j - 2
			default:
				m[j] = s[d] - 1
			}
		}
		maps[2-i] = m
	}
	planes, inner := 1, 1 // planes of (depth×)height×width
	for _, d := range s[:rank-n] {
		planes *= d
	}
	for _, d := range s[rank-n:] {
		inner *= d
	}
	ih, iw := 1, s[rank-1]
	if n >= 2 {
		ih = s[rank-2]
	}
	od, oh, ow := len(maps[0]), len(maps[1]), len(maps[2])
	src := make([]int, planes*od*oh*ow)
	e := 0
	for p := 0; p < planes; p++ {
		for _, z := range maps[0] {
			for _, r := range maps[1] {
				base := p*inner + (z*ih+r)*iw
				for _, c := range maps[2] {
					src[e] = base + c
					e++
				}
			}
		}
	}
	return poolGather(in, out, src, nil)
}

// poolUpsampleArgs checks the output_size and scale_factors (arguments sizeArg and scaleArg) of
// an upsample_*2d.vec_out call (exactly one is given) and returns the out sizes and the scales
// PyTorch passes to its kernel (hasScale false when output_size was given).
func poolUpsampleArgs(in *executor.Tensor, outputSize optional[[]int64], scaleFactors optional[[]float64], sizeArg, scaleArg int) (sizes []int, scale [2]float64, hasScale bool, err error) {
	osz, hasSize := outputSize.Val, outputSize.OK
	sf, hasScale := scaleFactors.Val, scaleFactors.OK
	if hasSize == hasScale {
		return nil, scale, false, unbox.ArgError(sizeArg, "output_size", "must specify exactly one of output_size and scale_factors")
	}
	if hasSize && len(osz) != 2 {
		return nil, scale, false, unbox.ArgError(sizeArg, "output_size", "want 2 sizes, got %v", osz)
	}
	if hasScale && len(sf) != 2 {
		return nil, scale, false, unbox.ArgError(scaleArg, "scale_factors", "want 2 scales, got %v", sf)
	}
	s := in.Sizes()
	if len(s) != 4 {
		return nil, scale, false, unbox.ArgError(0, "input", "expected a 4D [N,C,H,W] tensor, got sizes %v", s)
	}
	sizes = append([]int(nil), s...)
	if hasSize {
		sizes[2], sizes[3] = int(osz[0]), int(osz[1])
	} else {
		scale = [2]float64{sf[0], sf[1]}
		sizes[2], sizes[3] = int(float64(s[2])*sf[0]), int(float64(s[3])*sf[1])
	}
	if s[2] <= 0 || s[3] <= 0 || sizes[2] <= 0 || sizes[3] <= 0 {
		return nil, scale, false, fmt.Errorf("%w: input and output sizes should be greater than 0, got input %dx%d, output %dx%d",
			executor.ErrInvalidArgument, s[2], s[3], sizes[2], sizes[3])
	}
	if s[1] == 0 {
		return nil, scale, false, unbox.ArgError(0, "input", "non-empty 4D tensor expected (only the batch may be empty), got sizes %v", s)
	}
	return sizes, scale, hasScale, nil
}
