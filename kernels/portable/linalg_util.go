package portable

import (
	"fmt"
	"unsafe"

	"github.com/etgo/etgo/internal/gemm"
	"github.com/etgo/etgo/kernels/unbox"

	"github.com/etgo/etgo/executor"
)

// Shared machinery of the linalg family (mm, bmm, addmm, baddbmm, convolution): a blocked
// matrix multiply over typed slices, im2col/col2im convolution on top of it, and the dtype
// plumbing that lets one generic implementation serve every dtype. Floating types compute in
// float32 (Float32, Float16, BFloat16) or float64; integral types in int64, wrapped to the out
// type when stored (the same result as C++'s wrapping arithmetic in the narrow type).

// linalgNum is a computation type.
type linalgNum interface {
	~float32 | ~float64 | ~int64
}

// linalgRowMajor reports whether t's elements lie in memory in logical row-major order: its
// dim order is the default, or differs from it only in dimensions of size 1 (a transposed
// convolution's weight with one output channel per group comes as [1, 0, 2, 3], for one).
func linalgRowMajor(t *executor.Tensor) bool {
	if t.IsContiguous() || t.Numel() == 0 {
		return true
	}
	sizes, strides := t.Sizes(), t.Strides()
	step := 1
	for d := len(sizes) - 1; d >= 0; d-- {
		if sizes[d] == 1 {
			continue
		}
		if strides[d] != step {
			return false
		}
		step *= sizes[d]
	}
	return true
}

// linalgWantRowMajor refuses a tensor whose memory is not in the default dim order.
func linalgWantRowMajor(t *executor.Tensor, i int, name string) error {
	if linalgRowMajor(t) {
		return nil
	}
	return unbox.ArgError(i, name, "dim order %v is not supported; this kernel needs the default (contiguous) dim order", t.DimOrder())
}

// linalgSameDType checks that every tensor has the dtype of the first.
func linalgSameDType(ts []*executor.Tensor, names []string) error {
	for k := 1; k < len(ts); k++ {
		if ts[k].ScalarType() != ts[0].ScalarType() {
			return fmt.Errorf("%w: %s is %s but %s is %s; they must have the same dtype", executor.ErrInvalidArgument,
				names[k], executor.DTypeName(ts[k].ScalarType()), names[0], executor.DTypeName(ts[0].ScalarType()))
		}
	}
	return nil
}

// linalgSupported reports whether a dtype is one this family computes with (floating and
// integral; not Bool, as in PyTorch and ExecuTorch).
func linalgSupported(t executor.ScalarType) bool {
	return isFloat(t) || (isIntegral(t) && t != executor.Uint16 && t != executor.Uint32 && t != executor.Uint64)
}

// linalgComputeType names the computation type a dtype uses: 32 (float32), 64 (float64) or 0
// (int64).
func linalgComputeType(t executor.ScalarType) int {
	switch t {
	case executor.Float64:
		return 64
	case executor.Float32, executor.Float16, executor.BFloat16:
		return 32
	}
	return 0
}

// linalgNative returns t's own memory as []T when t holds T in a row-major layout.
func linalgNative[T linalgNum](t *executor.Tensor) ([]T, bool) {
	if !linalgRowMajor(t) {
		return nil, false
	}
	var z T
	switch any(z).(type) {
	case float32:
		if t.ScalarType() == executor.Float32 {
			return any(executor.Data[float32](t)).([]T), true
		}
	case float64:
		if t.ScalarType() == executor.Float64 {
			return any(executor.Data[float64](t)).([]T), true
		}
	case int64:
		if t.ScalarType() == executor.Int64 {
			return any(executor.Data[int64](t)).([]T), true
		}
	}
	return nil, false
}

// linalgView returns t's elements in logical order in the computation type T: t's own memory
// when its dtype is T and its layout row-major, otherwise a converted copy.
func linalgView[T linalgNum](t *executor.Tensor) []T {
	if v, ok := linalgNative[T](t); ok {
		return v
	}
	out := make([]T, t.Numel())
	if isFloat(t.ScalarType()) {
		for i, v := range loadF64(t) {
			out[i] = T(v)
		}
	} else {
		for i, v := range loadI64(t) {
			out[i] = T(v)
		}
	}
	return out
}

// linalgOutput returns a buffer for out's elements in logical order, and a function that
// stores the buffer into out. The buffer is out's own memory, holding whatever out held, (and
// the store a no-op) when out has type T, a row-major layout, and shares no memory with any
// input; otherwise it is a zeroed scratch buffer. Callers set every element.
func linalgOutput[T linalgNum](out *executor.Tensor, inputs ...*executor.Tensor) ([]T, func()) {
	overlap := false
	for _, in := range inputs {
		if in != nil && linalgOverlap(in, out) {
			overlap = true
		}
	}
	if v, ok := linalgNative[T](out); ok && !overlap {
		return v, func() {}
	}
	buf := make([]T, out.Numel())
	return buf, func() {
		var z T
		if _, ok := any(z).(int64); ok {
			iv := make([]int64, len(buf))
			for i, x := range buf {
				iv[i] = int64(x)
			}
			storeI64(out, iv)
			return
		}
		fv := make([]float64, len(buf))
		for i, x := range buf {
			fv[i] = float64(x)
		}
		storeF64(out, fv)
	}
}

// linalgOverlap reports whether two tensors share memory.
func linalgOverlap(a, b *executor.Tensor) bool {
	x, y := a.Bytes(), b.Bytes()
	if len(x) == 0 || len(y) == 0 {
		return false
	}
	x0, y0 := uintptr(unsafe.Pointer(&x[0])), uintptr(unsafe.Pointer(&y[0]))
	return x0 < y0+uintptr(len(y)) && y0 < x0+uintptr(len(x))
}

// linalgGemm accumulates c += a·b (row-major, with row strides); see internal/gemm.
func linalgGemm[T linalgNum](m, n, k int, a []T, lda int, b []T, ldb int, c []T, ldc int) {
	gemm.Gemm(m, n, k, a, lda, b, ldb, c, ldc)
}

// linalgMM describes out[b] = alpha·(x[b]·y[b]) + beta·self for batch matrices x[b] (m×k) and
// y[b] (k×n); self (nil for mm and bmm) broadcasts to out's shape and is ignored when beta is
// zero, as PyTorch documents (its NaN and inf do not propagate). Every tensor is row-major.
type linalgMM struct {
	x, y, self, out *executor.Tensor
	batch, m, k, n  int
	alpha, beta     scalar
}

func (p *linalgMM) run() {
	switch linalgComputeType(p.out.ScalarType()) {
	case 32:
		linalgMMRun(p, float32(p.alpha.F), float32(p.beta.F))
	case 64:
		linalgMMRun(p, p.alpha.F, p.beta.F)
	default: // integral: Scalars truncate to integers, as PyTorch's scalar_to does
		linalgMMRun(p, p.alpha.I, p.beta.I)
	}
}

func linalgMMRun[T linalgNum](p *linalgMM, alpha, beta T) {
	xs, ys := linalgView[T](p.x), linalgView[T](p.y)
	cs, flush := linalgOutput[T](p.out, p.x, p.y, p.self)
	clear(cs)
	mk, kn, mn := p.m*p.k, p.k*p.n, p.m*p.n
	for b := 0; b < p.batch; b++ {
		linalgGemm(p.m, p.n, p.k, xs[b*mk:(b+1)*mk], p.k, ys[b*kn:(b+1)*kn], p.n, cs[b*mn:(b+1)*mn], p.n)
	}
	if p.self != nil {
		switch {
		case beta == 0:
			if alpha != 1 {
				for i := range cs {
					cs[i] *= alpha
				}
			}
		default:
			sv := linalgView[T](p.self)
			idx := broadcastIndex(p.self.Sizes(), p.out.Sizes())
			for i := range cs {
				cs[i] = alpha*cs[i] + beta*at(sv, idx, i)
			}
		}
	}
	flush()
}

// linalgConvGeom is a 3-D convolution's geometry; a 2-D one has d = kd = od = 1, with unit
// stride and dilation and no padding along d, and a 1-D one has h = kh = oh = 1 too. For a
// transposed convolution, c is the input's channels, the weight is [c, oc/groups, kd, kh, kw]
// and the output is the input's gradient shape.
type linalgConvGeom struct {
	n, c, d, h, w  int // input
	oc, od, oh, ow int // output
	kd, kh, kw     int // kernel
	sd, sh, sw     int // stride
	pd, ph, pw     int // padding
	dd, dh, dw     int // dilation
	groups         int
	transposed     bool
}

// linalgSpan is the run of positions o in [lo, hi) of a window tap whose source o*stride + off
// lies inside [0, size), and first, the source of position lo. An empty run is lo = hi = first
// = 0, so slicing a source at first..first+(hi-lo) is in bounds whatever the tap: a window
// wider than its input, overhanging both sides, has taps that reach no position at all.
type linalgSpan struct{ lo, hi, first int }

// linalgValidRange returns the span of positions o in [0, count) whose source o*stride + off
// lies in [0, size).
func linalgValidRange(off, stride, size, count int) linalgSpan {
	lo, hi := 0, 0
	if off < 0 {
		lo = (-off + stride - 1) / stride
	}
	if last := size - 1 - off; last >= 0 {
		hi = min(last/stride+1, count)
	}
	if lo >= hi {
		return linalgSpan{}
	}
	return linalgSpan{lo: lo, hi: hi, first: lo*stride + off}
}

// linalgConv computes a convolution over row-major buffers: in [n, c, d, h, w], weight, bias
// (nil or one value per output channel) into out [n, oc, od, oh, ow], which it overwrites.
func linalgConv[T linalgNum](g *linalgConvGeom, in, w, bias, out []T) {
	np := g.od * g.oh * g.ow
	for b := 0; b < g.n; b++ {
		for o := 0; o < g.oc; o++ {
			var v T
			if bias != nil {
				v = bias[o]
			}
			plane := out[(b*g.oc+o)*np : (b*g.oc+o+1)*np]
			for i := range plane {
				plane[i] = v
			}
		}
	}
	if g.transposed {
		linalgConvTransposed(g, in, w, out)
	} else {
		linalgConvForward(g, in, w, out)
	}
}

// linalgConvForward accumulates a convolution into out: per image, group and output depth
// slice, the weight [ocg, cg·kd·kh·kw] times the im2col matrix [cg·kd·kh·kw, oh·ow] (one slice
// per output depth keeps the matrix as small as a 2-D one). A 1×1(×1) kernel with unit stride
// and no padding multiplies the input planes directly; a group with one input channel
// (depthwise) runs a direct loop instead, where im2col would cost as much as the product.
func linalgConvForward[T linalgNum](g *linalgConvGeom, in, w, out []T) {
	cg, ocg := g.c/g.groups, g.oc/g.groups
	vol, ohw := g.d*g.h*g.w, g.oh*g.ow
	np := g.od * ohw
	kdim := cg * g.kd * g.kh * g.kw
	pointwise := g.kd == 1 && g.kh == 1 && g.kw == 1 && g.sd == 1 && g.sh == 1 && g.sw == 1 && g.pd == 0 && g.ph == 0 && g.pw == 0
	var col []T
	var spans []linalgSpan // depthwise: each kernel column's output columns
	switch {
	case pointwise:
	case cg == 1:
		spans = make([]linalgSpan, g.kw)
		for kx := range g.kw {
			spans[kx] = linalgValidRange(kx*g.dw-g.pw, g.sw, g.w, g.ow)
		}
	default:
		col = make([]T, kdim*ohw)
	}
	for b := 0; b < g.n; b++ {
		for grp := 0; grp < g.groups; grp++ {
			inG := in[(b*g.c+grp*cg)*vol : (b*g.c+(grp+1)*cg)*vol]
			outG := out[(b*g.oc+grp*ocg)*np : (b*g.oc+(grp+1)*ocg)*np]
			wG := w[grp*ocg*kdim : (grp+1)*ocg*kdim]
			switch {
			case pointwise:
				linalgGemm(ocg, np, cg, wG, kdim, inG, vol, outG, np)
			case cg == 1:
				for o := 0; o < ocg; o++ {
					linalgConvVolume(g, inG, wG[o*kdim:(o+1)*kdim], outG[o*np:(o+1)*np], spans)
				}
			default:
				for oz := 0; oz < g.od; oz++ {
					linalgIm2col(g, inG, cg, oz, col)
					linalgGemm(ocg, ohw, kdim, wG, kdim, col, ohw, outG[oz*ohw:], np)
				}
			}
		}
	}
}

// linalgIm2col fills col [cg·kd·kh·kw, oh·ow] for output depth oz: row (c, kz, ky, kx) holds,
// for every output position of that depth, the input value under kernel tap (kz, ky, kx) of
// channel c, or zero in the padding.
func linalgIm2col[T linalgNum](g *linalgConvGeom, in []T, cg, oz int, col []T) {
	hw, ohw := g.h*g.w, g.oh*g.ow
	r := 0
	for c := 0; c < cg; c++ {
		for kz := 0; kz < g.kd; kz++ {
			iz := oz*g.sd - g.pd + kz*g.dd
			if iz < 0 || iz >= g.d {
				clear(col[r*ohw : (r+g.kh*g.kw)*ohw])
				r += g.kh * g.kw
				continue
			}
			plane := in[(c*g.d+iz)*hw : (c*g.d+iz+1)*hw]
			for ky := 0; ky < g.kh; ky++ {
				for kx := 0; kx < g.kw; kx++ {
					row := col[r*ohw : (r+1)*ohw]
					r++
					sp := linalgValidRange(kx*g.dw-g.pw, g.sw, g.w, g.ow)
					lo, hi := sp.lo, sp.hi
					for oy := 0; oy < g.oh; oy++ {
						dst := row[oy*g.ow : (oy+1)*g.ow]
						iy := oy*g.sh - g.ph + ky*g.dh
						if iy < 0 || iy >= g.h || lo == hi {
							clear(dst)
							continue
						}
						src := plane[iy*g.w : (iy+1)*g.w]
						clear(dst[:lo])
						clear(dst[hi:])
						if g.sw == 1 {
							copy(dst[lo:hi], src[sp.first:sp.first+hi-lo])
						} else {
							ix := sp.first
							for ox := lo; ox < hi; ox++ {
								dst[ox] = src[ix]
								ix += g.sw
							}
						}
					}
				}
			}
		}
	}
}

// linalgConvVolume accumulates one input volume [d, h, w] convolved with one kernel
// [kd, kh, kw] into one output volume [od, oh, ow], plane by plane.
func linalgConvVolume[T linalgNum](g *linalgConvGeom, in, k, out []T, spans []linalgSpan) {
	hw, ohw, khw := g.h*g.w, g.oh*g.ow, g.kh*g.kw
	for oz := 0; oz < g.od; oz++ {
		for kz := 0; kz < g.kd; kz++ {
			iz := oz*g.sd - g.pd + kz*g.dd
			if iz < 0 || iz >= g.d {
				continue
			}
			linalgConvPlane(g, in[iz*hw:(iz+1)*hw], k[kz*khw:(kz+1)*khw], out[oz*ohw:(oz+1)*ohw], spans)
		}
	}
}

// linalgConvPlane accumulates one input plane [h, w] convolved with one kernel [kh, kw] into
// one output plane [oh, ow], row by row so the output row stays in cache. Kernel column kx
// reaches the output columns of spans[kx].
func linalgConvPlane[T linalgNum](g *linalgConvGeom, in, k, out []T, spans []linalgSpan) {
	for oy := 0; oy < g.oh; oy++ {
		dst := out[oy*g.ow : (oy+1)*g.ow]
		for ky := 0; ky < g.kh; ky++ {
			iy := oy*g.sh - g.ph + ky*g.dh
			if iy < 0 || iy >= g.h {
				continue
			}
			src := in[iy*g.w : (iy+1)*g.w]
			for kx := 0; kx < g.kw; kx++ {
				wv, sp := k[ky*g.kw+kx], spans[kx]
				if g.sw == 1 {
					d := dst[sp.lo:sp.hi]
					s := src[sp.first : sp.first+len(d)]
					for j := range d {
						d[j] += wv * s[j]
					}
					continue
				}
				ix := sp.first
				for ox := sp.lo; ox < sp.hi; ox++ {
					dst[ox] += wv * src[ix]
					ix += g.sw
				}
			}
		}
	}
}

// linalgConvTransposed accumulates a transposed convolution into out: per image and group,
// col [ocg·kd·kh·kw, d·h·w] = weightᵀ times the input [cg, d·h·w], then col2im adds each
// column entry to the output position its kernel tap reaches.
func linalgConvTransposed[T linalgNum](g *linalgConvGeom, in, w, out []T) {
	cg, ocg := g.c/g.groups, g.oc/g.groups
	hw, ohw := g.h*g.w, g.oh*g.ow
	vol, np := g.d*hw, g.od*ohw
	kdim := ocg * g.kd * g.kh * g.kw
	// wt holds each group's weight [cg, kdim] transposed to [kdim, cg].
	wt := make([]T, len(w))
	for grp := 0; grp < g.groups; grp++ {
		src, dst := w[grp*cg*kdim:(grp+1)*cg*kdim], wt[grp*cg*kdim:(grp+1)*cg*kdim]
		for ci := 0; ci < cg; ci++ {
			for r := 0; r < kdim; r++ {
				dst[r*cg+ci] = src[ci*kdim+r]
			}
		}
	}
	col := make([]T, kdim*vol)
	spans := make([]linalgSpan, g.kw) // each kernel column's input columns
	for kx := range g.kw {
		spans[kx] = linalgValidRange(kx*g.dw-g.pw, g.sw, g.ow, g.w)
	}
	for b := 0; b < g.n; b++ {
		for grp := 0; grp < g.groups; grp++ {
			inG := in[(b*g.c+grp*cg)*vol : (b*g.c+(grp+1)*cg)*vol]
			clear(col)
			linalgGemm(kdim, vol, cg, wt[grp*cg*kdim:(grp+1)*cg*kdim], cg, inG, vol, col, vol)
			r := 0
			for o := 0; o < ocg; o++ {
				volume := out[(b*g.oc+grp*ocg+o)*np : (b*g.oc+grp*ocg+o+1)*np]
				for kz := 0; kz < g.kd; kz++ {
					for ky := 0; ky < g.kh; ky++ {
						for kx := 0; kx < g.kw; kx++ {
							row := col[r*vol : (r+1)*vol]
							r++
							sp := spans[kx]
							for iz := 0; iz < g.d; iz++ {
								oz := iz*g.sd - g.pd + kz*g.dd
								if oz < 0 || oz >= g.od {
									continue
								}
								plane, srcPlane := volume[oz*ohw:(oz+1)*ohw], row[iz*hw:(iz+1)*hw]
								for iy := 0; iy < g.h; iy++ {
									oy := iy*g.sh - g.ph + ky*g.dh
									if oy < 0 || oy >= g.oh {
										continue
									}
									dst := plane[oy*g.ow : (oy+1)*g.ow]
									src := srcPlane[iy*g.w : (iy+1)*g.w]
									ox := sp.first
									for ix := sp.lo; ix < sp.hi; ix++ {
										dst[ox] += src[ix]
										ox += g.sw
									}
								}
							}
						}
					}
				}
			}
		}
	}
}

// linalgMatmulCheck validates the operands of mm (batched false: x [m, k], y [k, n]) or bmm
// (batched: x [b, m, k], y [b, k, n]) at argument positions ix and iy, and sizes out (at
// position iout).
func linalgMatmulCheck(x, y, out *executor.Tensor, ix, iy, iout int, nx, ny string, batched bool) (*linalgMM, error) {
	rank := 2
	if batched {
		rank = 3
	}
	for _, t := range []struct {
		t    *executor.Tensor
		i    int
		name string
	}{{x, ix, nx}, {y, iy, ny}} {
		if t.t.Dim() != rank {
			return nil, unbox.ArgError(t.i, t.name, "want a %d-D tensor, got %d-D sizes %v", rank, t.t.Dim(), t.t.Sizes())
		}
		if err := linalgWantRowMajor(t.t, t.i, t.name); err != nil {
			return nil, err
		}
	}
	if err := linalgSameDType([]*executor.Tensor{x, y, out}, []string{nx, ny, "out"}); err != nil {
		return nil, err
	}
	if !linalgSupported(x.ScalarType()) {
		return nil, unbox.ArgError(ix, nx, "dtype %s is not supported", executor.DTypeName(x.ScalarType()))
	}
	p := &linalgMM{x: x, y: y, out: out, batch: 1, alpha: scalar{F: 1, I: 1}}
	xs, ys := x.Sizes(), y.Sizes()
	if batched {
		if xs[0] != ys[0] {
			return nil, unbox.ArgError(iy, ny, "batch size %d does not match %s's %d", ys[0], nx, xs[0])
		}
		p.batch, xs, ys = xs[0], xs[1:], ys[1:]
	}
	p.m, p.k, p.n = xs[0], xs[1], ys[1]
	if ys[0] != p.k {
		return nil, unbox.ArgError(iy, ny, "sizes %v cannot multiply %s's %v (inner sizes %d and %d differ)", y.Sizes(), nx, x.Sizes(), p.k, ys[0])
	}
	sizes := []int{p.m, p.n}
	if batched {
		sizes = []int{p.batch, p.m, p.n}
	}
	if out.Dim() != rank {
		return nil, unbox.ArgError(iout, "out", "want a %d-D tensor, got %d-D sizes %v", rank, out.Dim(), out.Sizes())
	}
	if err := resize(out, sizes); err != nil {
		return nil, err
	}
	return p, nil
}
