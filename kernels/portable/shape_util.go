package portable

import (
	"fmt"
	"math"
	"slices"

	"github.com/x448/float16"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

// Shared machinery of the shape family (memory-movement kernels: views, cat/split, indexing,
// fills, dtype and dim-order copies).
//
// Every movement is one strided copy: an iteration space of sizes, and for each index a
// destination and a source element offset, base + Σ index·stride, in elements. Views (permute,
// slice, select, expand, flip, ...) are source strides over the input's own strides; outs are
// written through their strides, so every dim order works on both sides. Elements move as
// unsigned integers of their width, so dtype-preserving copies are bit-exact (NaN payloads,
// int64 beyond 2^53); runs that are contiguous on both sides move with copy.

// shapeAllTypes are the dtypes the pure movement kernels accept: any element is moved as bits.
var shapeAllTypes = append(append([]executor.ScalarType{}, realBoolTypes...), executor.Uint16, executor.Uint32, executor.Uint64)

// shapeView is an iteration space with source strides into a tensor's memory.
type shapeView struct {
	sizes   []int
	strides []int
	base    int
}

// shapeViewOf is the identity view of t: its sizes and element strides.
func shapeViewOf(t *executor.Tensor) shapeView {
	return shapeView{sizes: slices.Clone(t.Sizes()), strides: slices.Clone(t.Strides())}
}

// shapeContiguousStrides are the row-major strides of sizes.
func shapeContiguousStrides(sizes []int) []int {
	s := make([]int, len(sizes))
	step := 1
	for i := len(sizes) - 1; i >= 0; i-- {
		s[i] = step
		step *= max(sizes[i], 1)
	}
	return s
}

func shapeNumel(sizes []int) int {
	n := 1
	for _, d := range sizes {
		n *= d
	}
	return n
}

// shapeCopyView writes src's view v into dst, whose region is dstBase + Σ index·dstStrides over
// v.sizes. dst and src must have the same element size.
func shapeCopyView(dst *executor.Tensor, dstBase int, dstStrides []int, src *executor.Tensor, v shapeView) {
	if shapeNumel(v.sizes) == 0 {
		return
	}
	sizes, ds, ss := shapeCoalesce(v.sizes, dstStrides, v.strides)
	switch executor.ElementSize(dst.ScalarType()) {
	case 1:
		shapeStrided(executor.Data[uint8](dst), executor.Data[uint8](src), sizes, dstBase, ds, v.base, ss)
	case 2:
		shapeStrided(executor.Data[uint16](dst), executor.Data[uint16](src), sizes, dstBase, ds, v.base, ss)
	case 4:
		shapeStrided(executor.Data[uint32](dst), executor.Data[uint32](src), sizes, dstBase, ds, v.base, ss)
	case 8:
		shapeStrided(executor.Data[uint64](dst), executor.Data[uint64](src), sizes, dstBase, ds, v.base, ss)
	default:
		panic(fmt.Sprintf("portable: element size %d", executor.ElementSize(dst.ScalarType())))
	}
}

// shapeWrite writes src's view v into the whole of out (whose sizes must equal v.sizes).
func shapeWrite(out, src *executor.Tensor, v shapeView) {
	shapeCopyView(out, 0, out.Strides(), src, v)
}

// shapeCoalesce drops size-1 dimensions and merges neighbours that are contiguous with each
// other on both sides, so contiguous copies become one long run.
func shapeCoalesce(sizes, a, b []int) ([]int, []int, []int) {
	var s, x, y []int
	for i, n := range sizes {
		if n == 1 {
			continue
		}
		if k := len(s) - 1; k >= 0 && x[k] == a[i]*n && y[k] == b[i]*n {
			s[k] *= n
			x[k], y[k] = a[i], b[i]
			continue
		}
		s, x, y = append(s, n), append(x, a[i]), append(y, b[i])
	}
	return s, x, y
}

// shapeStrided is the strided element copy over sizes (already coalesced, all sizes > 1).
func shapeStrided[T any](dst, src []T, sizes []int, dOff int, dStr []int, sOff int, sStr []int) {
	r := len(sizes)
	if r == 0 {
		dst[dOff] = src[sOff]
		return
	}
	inner, di, si := sizes[r-1], dStr[r-1], sStr[r-1]
	idx := make([]int, r-1)
	for {
		switch {
		case di == 1 && si == 1:
			copy(dst[dOff:dOff+inner], src[sOff:sOff+inner])
		case si == 0:
			v := src[sOff]
			for k, d := 0, dOff; k < inner; k, d = k+1, d+di {
				dst[d] = v
			}
		default:
			for k, d, s := 0, dOff, sOff; k < inner; k, d, s = k+1, d+di, s+si {
				dst[d] = src[s]
			}
		}
		// Advance the outer index.
		d := r - 2
		for ; d >= 0; d-- {
			idx[d]++
			dOff += dStr[d]
			sOff += sStr[d]
			if idx[d] < sizes[d] {
				break
			}
			dOff -= idx[d] * dStr[d]
			sOff -= idx[d] * sStr[d]
			idx[d] = 0
		}
		if d < 0 {
			return
		}
	}
}

// shapeContiguous returns t, or a contiguous copy of it when its dim order is not the default.
func shapeContiguous(t *executor.Tensor) *executor.Tensor {
	if t.IsContiguous() {
		return t
	}
	c, _ := executor.NewTensor(t.ScalarType(), t.Sizes()...)
	shapeWrite(c, t, shapeViewOf(t))
	return c
}

// shapeReshape copies in's elements, in logical order, into out (same numel, any shapes).
func shapeReshape(out, in *executor.Tensor) {
	c := shapeContiguous(in)
	shapeWrite(out, c, shapeView{sizes: slices.Clone(out.Sizes()), strides: shapeContiguousStrides(out.Sizes())})
}

// shapeSameDtype refuses an out whose dtype differs from the input's.
func shapeSameDtype(in, out *executor.Tensor) error {
	if in.ScalarType() != out.ScalarType() {
		return fmt.Errorf("%w: out is %s, the input %s; this operation keeps the dtype", executor.ErrInvalidArgument,
			executor.DTypeName(out.ScalarType()), executor.DTypeName(in.ScalarType()))
	}
	return nil
}

// shapeCanCast is c10::canCast for real types: no floating to integral or bool, no integral to bool.
func shapeCanCast(from, to executor.ScalarType) bool {
	return category(from) <= category(to)
}

// shapeConvert returns in converted to dtype as a new contiguous tensor of the same sizes (in
// itself when it already has that dtype). Conversions follow C++ static_cast: floats truncate
// toward zero into integers, integers wrap, anything non-zero is true.
func shapeConvert(in *executor.Tensor, dtype executor.ScalarType) *executor.Tensor {
	if in.ScalarType() == dtype {
		return in
	}
	c, _ := executor.NewTensor(dtype, in.Sizes()...)
	shapeConvertInto(c, in)
	return c
}

// shapeConvertInto writes in (any dtype, any dim order) into out (same sizes, any dtype and dim
// order), converting each element.
func shapeConvertInto(out, in *executor.Tensor) {
	if in.ScalarType() == out.ScalarType() {
		shapeWrite(out, in, shapeViewOf(in))
		return
	}
	if out.Numel() == 0 {
		return
	}
	src := in.ScalarType()
	if isFloat(src) {
		storeF64(out, loadF64(in))
		return
	}
	v := loadI64(in)
	switch out.ScalarType() {
	case executor.Float32: // one rounding, as static_cast<float>(int64_t)
		d := executor.Data[float32](out)
		forEach(out, func(i, o int) { d[o] = float32(v[i]) })
	case executor.Float16:
		d := executor.Data[uint16](out)
		forEach(out, func(i, o int) { d[o] = float16.Fromfloat32(float32(v[i])).Bits() })
	case executor.BFloat16:
		d := executor.Data[uint16](out)
		forEach(out, func(i, o int) { d[o] = toBF16(float32(v[i])) })
	default:
		storeI64(out, v)
	}
}

// shapeFillValue converts a Scalar to a one-element tensor of dtype, refusing values that
// overflow it as ExecuTorch's check_overflow_scalar_cast does (infinities and NaN fit floating
// types; anything fits bool; unsigned types accept negatives down to -max, which wrap).
func shapeFillValue(s scalar, dtype executor.ScalarType, i int, name string) (*executor.Tensor, error) {
	t, err := executor.NewTensor(dtype)
	if err != nil {
		return nil, unbox.ArgError(i, name, "%v", err)
	}
	bad := func() error {
		v := any(s.I)
		if s.IsFloat {
			v = s.F
		}
		return unbox.ArgError(i, name, "value %v overflows %s", v, executor.DTypeName(dtype))
	}
	switch {
	case dtype == executor.Bool:
		d := executor.Data[bool](t)
		if s.IsFloat {
			d[0] = s.F != 0
		} else {
			d[0] = s.I != 0
		}
		return t, nil
	case isFloat(dtype):
		lim := map[executor.ScalarType]float64{executor.Float16: 65504, executor.BFloat16: 3.3895313892515355e38,
			executor.Float32: math.MaxFloat32, executor.Float64: math.MaxFloat64}[dtype]
		if s.IsFloat {
			if !math.IsInf(s.F, 0) && !math.IsNaN(s.F) && math.Abs(s.F) > lim {
				return nil, bad()
			}
			storeF64(t, []float64{s.F})
			return t, nil
		}
		src, _ := executor.FromSlice([]int64{s.I})
		if math.Abs(float64(s.I)) > lim {
			return nil, bad()
		}
		shapeConvertInto(t, src)
		return t, nil
	}
	lo, hi := shapeIntRange(dtype)
	if s.IsFloat {
		// NaN and infinities overflow an integral type; unsigned types take no negative floats.
		if lo < 0 && shapeIsUnsigned(dtype) {
			lo = 0
		}
		if math.IsNaN(s.F) || s.F < float64(lo) || s.F > float64(hi) {
			return nil, bad()
		}
		storeI64(t, []int64{int64(s.F)})
		return t, nil
	}
	if s.I < lo || s.I > hi {
		return nil, bad()
	}
	storeI64(t, []int64{s.I})
	return t, nil
}

// shapeIntRange is the range of values an integral dtype accepts from an int64 scalar; unsigned
// types accept -max..max (c10::overflows lets negatives wrap).
func shapeIntRange(t executor.ScalarType) (int64, int64) {
	switch t {
	case executor.Uint8:
		return -math.MaxUint8, math.MaxUint8
	case executor.Int8:
		return math.MinInt8, math.MaxInt8
	case executor.Int16:
		return math.MinInt16, math.MaxInt16
	case executor.Int32:
		return math.MinInt32, math.MaxInt32
	case executor.Uint16:
		return -math.MaxUint16, math.MaxUint16
	case executor.Uint32:
		return -math.MaxUint32, math.MaxUint32
	}
	return math.MinInt64, math.MaxInt64
}

func shapeIsUnsigned(t executor.ScalarType) bool {
	return t == executor.Uint8 || t == executor.Uint16 || t == executor.Uint32 || t == executor.Uint64
}

// shapeFill writes the one element of v (same dtype as out) to every element of out.
func shapeFill(out, v *executor.Tensor) {
	shapeWrite(out, v, shapeView{sizes: slices.Clone(out.Sizes()), strides: make([]int, out.Dim())})
}

// shapeSizes converts an IntList of sizes, refusing negative entries.
func shapeSizes(l []int64, i int, name string) ([]int, error) {
	if len(l) > executor.MaxRank {
		return nil, unbox.ArgError(i, name, "%d dimensions exceed the limit of %d", len(l), executor.MaxRank)
	}
	out := make([]int, len(l))
	for k, v := range l {
		if v < 0 {
			return nil, unbox.ArgError(i, name, "size %d at dimension %d is negative", v, k)
		}
		if v > 1<<40 {
			return nil, unbox.ArgError(i, name, "size %d at dimension %d is too large", v, k)
		}
		out[k] = int(v)
	}
	return out, nil
}

// shapeMemoryFormat checks a MemoryFormat? argument: None, contiguous (0) or preserve (1) are
// accepted (values are copied through strides, so the out's dim order is honoured either way);
// contiguous needs a contiguous out.
func shapeMemoryFormat(format optional[int64], i int, out *executor.Tensor) error {
	if !format.OK {
		return nil
	}
	switch f := format.Val; f {
	case 0:
		if !out.IsContiguous() {
			return unbox.ArgError(i, "memory_format", "torch.contiguous_format, but out has dim order %v", out.DimOrder())
		}
	case 1:
	default:
		return unbox.ArgError(i, "memory_format", "memory format %d is not supported (only contiguous or preserve)", f)
	}
	return nil
}

// shapeIndexValues reads an integer index tensor (int64 or int32) in logical order.
func shapeIndexValues(t *executor.Tensor, i int, name string) ([]int64, error) {
	switch t.ScalarType() {
	case executor.Int64, executor.Int32:
		return loadI64(t), nil
	}
	return nil, unbox.ArgError(i, name, "index tensor must be int64 or int32, got %s", executor.DTypeName(t.ScalarType()))
}

// shapeWrapIndex maps a possibly negative index into [0, n).
func shapeWrapIndex(v int64, n int, i int, name string) (int, error) {
	if v < -int64(n) || v >= int64(n) {
		return 0, unbox.ArgError(i, name, "index %d is out of bounds for size %d", v, n)
	}
	if v < 0 {
		v += int64(n)
	}
	return int(v), nil
}

// shapeGatherElems sets dst's element at dstOffs[k] to src's element at srcOffs[k], for every
// k; both tensors have the same element size. Used by the indexing kernels.
func shapeGatherElems(dst *executor.Tensor, dstOffs []int, src *executor.Tensor, srcOffs []int) {
	switch executor.ElementSize(dst.ScalarType()) {
	case 1:
		shapeGatherT(executor.Data[uint8](dst), dstOffs, executor.Data[uint8](src), srcOffs)
	case 2:
		shapeGatherT(executor.Data[uint16](dst), dstOffs, executor.Data[uint16](src), srcOffs)
	case 4:
		shapeGatherT(executor.Data[uint32](dst), dstOffs, executor.Data[uint32](src), srcOffs)
	case 8:
		shapeGatherT(executor.Data[uint64](dst), dstOffs, executor.Data[uint64](src), srcOffs)
	}
}

func shapeGatherT[T any](dst []T, dOffs []int, src []T, sOffs []int) {
	for k, d := range dOffs {
		dst[d] = src[sOffs[k]]
	}
}

// shapeOffsets lists the element offsets of every element of a view, in logical order.
func shapeOffsets(sizes, strides []int, base int) []int {
	n := shapeNumel(sizes)
	out := make([]int, n)
	idx := make([]int, len(sizes))
	off := base
	for e := 0; e < n; e++ {
		out[e] = off
		for d := len(idx) - 1; d >= 0; d-- {
			idx[d]++
			off += strides[d]
			if idx[d] < sizes[d] {
				break
			}
			off -= idx[d] * strides[d]
			idx[d] = 0
		}
	}
	return out
}

// shapeContigOut returns out itself when it is contiguous, else a contiguous scratch tensor of
// its dtype and sizes, and a finish func that writes the scratch into out.
func shapeContigOut(out *executor.Tensor) (*executor.Tensor, func()) {
	if out.IsContiguous() {
		return out, func() {}
	}
	c, _ := executor.NewTensor(out.ScalarType(), out.Sizes()...)
	return c, func() { shapeWrite(out, c, shapeViewOf(c)) }
}

// shapeSelectRows writes out = self with dimension dim replaced by the indices rows:
// out[..., j, ...] = self[..., rows[j], ...] (rows already validated). out must be sized.
func shapeSelectRows(out, self *executor.Tensor, dim int, rows []int) {
	ostr := out.Strides()
	dstStrides := slices.Delete(slices.Clone(ostr), dim, dim+1)
	for j, r := range rows {
		v := shapeViewOf(self)
		v.base = r * v.strides[dim]
		v.sizes = slices.Delete(v.sizes, dim, dim+1)
		v.strides = slices.Delete(v.strides, dim, dim+1)
		shapeCopyView(out, j*ostr[dim], dstStrides, self, v)
	}
}
