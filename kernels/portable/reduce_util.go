package portable

import (
	"fmt"
	"math"
	"slices"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

// Shared machinery of the reduction family (sum, mean, amax, argmax, any, var, prod, ...).
//
// A reduction reads its input in logical (row-major) order with loadF64/loadI64, so every dim
// order works, and folds, for each output element, the input elements that differ from it only
// in the reduced dimensions, visited in row-major order of those dimensions (which fixes the
// index argmax reports and the order sums accumulate in).

// reducePlan maps output elements to the input elements they reduce, as logical offsets into
// the row-major input.
type reducePlan struct {
	outSizes []int
	// base[o] is the offset of output o's first input element; inner[r] the offset of its r-th
	// reduced element relative to base.
	base, inner []int
}

// reduceAllDims marks every dimension as reduced.
func reduceAllDims(rank int) []bool {
	set := make([]bool, rank)
	for i := range set {
		set[i] = true
	}
	return set
}

// reduceDimList resolves an int[]? dim argument: None or an empty list reduces every dimension
// (PyTorch's and ExecuTorch's rule for sum, mean, amax, var). Dims may be negative; a dim named
// twice is an error. A rank-0 tensor accepts 0 and -1.
func reduceDimList(rank int, dims []int64, argIdx int, name string) ([]bool, error) {
	if len(dims) == 0 {
		return reduceAllDims(rank), nil
	}
	set := make([]bool, rank)
	seenScalar := false
	for _, d := range dims {
		nd, err := unbox.NormDim(d, rank, argIdx, name)
		if err != nil {
			return nil, err
		}
		if rank == 0 {
			if seenScalar {
				return nil, unbox.ArgError(argIdx, name, "dimension %d appears more than once", nd)
			}
			seenScalar = true
			continue
		}
		if set[nd] {
			return nil, unbox.ArgError(argIdx, name, "dimension %d appears more than once", nd)
		}
		set[nd] = true
	}
	return set, nil
}

// reduceOneDim resolves a single int dim argument.
func reduceOneDim(rank int, dim int64, argIdx int, name string) ([]bool, error) {
	nd, err := unbox.NormDim(dim, rank, argIdx, name)
	if err != nil {
		return nil, err
	}
	set := make([]bool, rank)
	if rank > 0 {
		set[nd] = true
	}
	return set, nil
}

// newReducePlan builds the plan for reducing a tensor of the given sizes over the marked dims;
// keepdim keeps reduced dims as size 1 in outSizes.
func newReducePlan(sizes []int, set []bool, keepdim bool) *reducePlan {
	p := &reducePlan{outSizes: []int{}}
	for d, n := range sizes {
		switch {
		case !set[d]:
			p.outSizes = append(p.outSizes, n)
		case keepdim:
			p.outSizes = append(p.outSizes, 1)
		}
	}
	strides := make([]int, len(sizes))
	step := 1
	for d := len(sizes) - 1; d >= 0; d-- {
		strides[d] = step
		step *= sizes[d]
	}
	p.base = reduceOffsets(sizes, strides, set, false)
	p.inner = reduceOffsets(sizes, strides, set, true)
	return p
}

// reduceOffsets lists, in row-major order over the dims d with set[d] == want, the offsets
// sum(idx[d] * strides[d]).
func reduceOffsets(sizes, strides []int, set []bool, want bool) []int {
	n := 1
	var dims []int
	for d := range sizes {
		if set[d] == want {
			n *= sizes[d]
			dims = append(dims, d)
		}
	}
	out := make([]int, n)
	idx := make([]int, len(dims))
	off := 0
	for e := range out {
		out[e] = off
		for k := len(dims) - 1; k >= 0; k-- {
			d := dims[k]
			idx[k]++
			off += strides[d]
			if idx[k] < sizes[d] {
				break
			}
			off -= idx[k] * strides[d]
			idx[k] = 0
		}
	}
	return out
}

func (p *reducePlan) outNumel() int { return len(p.base) }
func (p *reducePlan) redNumel() int { return len(p.inner) }

// requireNonEmpty refuses to reduce over zero elements into a non-empty out, for reductions
// with no identity (amax, argmax, max.dim): PyTorch's "Expected reduction dim to have non-zero
// size".
func (p *reducePlan) requireNonEmpty(argIdx int, name string) error {
	if p.redNumel() == 0 && p.outNumel() > 0 {
		return unbox.ArgError(argIdx, name, "the reduced dimensions have zero size; this reduction has no identity")
	}
	return nil
}

// reduceDtype checks an optional ScalarType argument (argument i, dtype): when given it must
// name out's dtype.
func reduceDtype(dtype optional[int64], i int, out *executor.Tensor) (executor.ScalarType, bool, error) {
	if !dtype.OK {
		return 0, false, nil
	}
	st := executor.ScalarType(dtype.Val)
	if st != out.ScalarType() {
		return 0, false, unbox.ArgError(i, "dtype", "dtype %s differs from out's %s", executor.DTypeName(st), executor.DTypeName(out.ScalarType()))
	}
	return st, true, nil
}

// reduceLoadAs reads in's elements converted to the type outType (as PyTorch casts the input
// to the result dtype before accumulating): float64 values when outType is floating, else
// int64 values wrapped to outType (a bool out sees 0 or 1: nonzero, NaN included, is true).
// isF reports which slice is filled.
func reduceLoadAs(in *executor.Tensor, outType executor.ScalarType) (f []float64, i []int64, isF bool) {
	if isFloat(outType) {
		return loadF64(in), nil, true
	}
	if outType == executor.Bool && isFloat(in.ScalarType()) {
		x := loadF64(in)
		v := make([]int64, len(x))
		for k, e := range x {
			if e != 0 {
				v[k] = 1
			}
		}
		return nil, v, false
	}
	v := loadI64(in)
	if outType != executor.Int64 && outType != in.ScalarType() {
		wrapTo(outType, v)
	}
	return nil, v, false
}

// reduceSumF64 sums each output's reduced elements in float64. Contiguous float32 input is
// read in place (the plan's logical offsets are then its memory offsets).
func reduceSumF64(p *reducePlan, in *executor.Tensor) []float64 {
	if reduceContiguousF32(in) {
		return reduceSumOf(p, executor.Data[float32](in))
	}
	return reduceSumOf(p, loadF64(in))
}

func reduceSumOf[T float32 | float64](p *reducePlan, v []T) []float64 {
	out := make([]float64, p.outNumel())
	if len(p.inner) == 0 {
		return out
	}
	if n := len(p.inner); p.inner[n-1] == n-1 { // the reduced elements are adjacent
		for o, b := range p.base {
			acc := 0.0
			for _, x := range v[b : b+n] {
				acc += float64(x)
			}
			out[o] = acc
		}
		return out
	}
	for o, b := range p.base {
		acc := 0.0
		for _, r := range p.inner {
			acc += float64(v[b+r])
		}
		out[o] = acc
	}
	return out
}

// reduceFold folds each output's reduced elements with f from init.
func reduceFold[T int64 | float64](p *reducePlan, v []T, init T, f func(acc, x T) T) []T {
	out := make([]T, p.outNumel())
	for o, b := range p.base {
		acc := init
		for _, r := range p.inner {
			acc = f(acc, v[b+r])
		}
		out[o] = acc
	}
	return out
}

// reduceExtreme returns, for each output, the first extreme element (better(x, acc) means x
// replaces acc) and its index among the reduced elements. A NaN is the extreme: the first NaN
// wins, as in PyTorch. The plan must have reduced elements.
func reduceExtreme[T int64 | float64](p *reducePlan, v []T, better func(x, acc T) bool) ([]T, []int64) {
	vals := make([]T, p.outNumel())
	idx := make([]int64, p.outNumel())
	for o, b := range p.base {
		acc, ai := v[b+p.inner[0]], 0
		for r := 1; r < len(p.inner) && acc == acc; r++ {
			x := v[b+p.inner[r]]
			if x != x || better(x, acc) {
				acc, ai = x, r
			}
		}
		vals[o], idx[o] = acc, int64(ai)
	}
	return vals, idx
}

// reduceStore writes float64 or int64 values into t (cast to its type).
func reduceStore[T int64 | float64](t *executor.Tensor, v []T) {
	switch v := any(v).(type) {
	case []float64:
		storeF64(t, v)
	case []int64:
		storeI64(t, v)
	}
}

// reduceExtremeOut is amax/amin: the extreme over dims into an out of the input's dtype.
func reduceExtremeOut(self *executor.Tensor, set []bool, keepdim bool, out *executor.Tensor, outIdx int,
	gtF func(x, acc float64) bool, gtI func(x, acc int64) bool) error {
	if out.ScalarType() != self.ScalarType() {
		return unbox.ArgError(outIdx, "out", "out is %s; it must have the input's dtype %s",
			executor.DTypeName(out.ScalarType()), executor.DTypeName(self.ScalarType()))
	}
	p := newReducePlan(self.Sizes(), set, keepdim)
	if err := p.requireNonEmpty(1, "dim"); err != nil {
		return err
	}
	if err := resize(out, p.outSizes); err != nil {
		return err
	}
	if p.outNumel() == 0 {
		return nil
	}
	if isFloat(self.ScalarType()) {
		v, _ := reduceExtreme(p, loadF64(self), gtF)
		storeF64(out, v)
		return nil
	}
	v, _ := reduceExtreme(p, loadI64(self), gtI)
	storeI64(out, v)
	return nil
}

// reduceArgExtremeOut is argmax/argmin: dim (nil = flattened) into an Int64 out.
func reduceArgExtremeOut(self *executor.Tensor, set []bool, keepdim bool, out *executor.Tensor, outIdx int,
	gtF func(x, acc float64) bool, gtI func(x, acc int64) bool) error {
	if self.ScalarType() == executor.Bool {
		return unbox.ArgError(0, "self", "bool input is not supported")
	}
	if out.ScalarType() != executor.Int64 {
		return unbox.ArgError(outIdx, "out", "out is %s; it must be int64", executor.DTypeName(out.ScalarType()))
	}
	p := newReducePlan(self.Sizes(), set, keepdim)
	if err := p.requireNonEmpty(1, "dim"); err != nil {
		return err
	}
	if err := resize(out, p.outSizes); err != nil {
		return err
	}
	if p.outNumel() == 0 {
		return nil
	}
	var idx []int64
	if isFloat(self.ScalarType()) {
		_, idx = reduceExtreme(p, loadF64(self), gtF)
	} else {
		_, idx = reduceExtreme(p, loadI64(self), gtI)
	}
	storeI64(out, idx)
	return nil
}

// reduceValuesIndicesOut is max.dim_max / min.dim_min: the extreme along one dim (vals,
// argument 3) and its index (indices, argument 4). Its messages call them values and indices
// whatever the schema names them (max and max_values, min and min_indices).
func reduceValuesIndicesOut(self *executor.Tensor, dim int64, keepdim bool, vals, indices *executor.Tensor, gtF func(x, acc float64) bool, gtI func(x, acc int64) bool) error {
	if vals.ScalarType() != self.ScalarType() {
		return unbox.ArgError(3, "values", "values is %s; it must have the input's dtype %s",
			executor.DTypeName(vals.ScalarType()), executor.DTypeName(self.ScalarType()))
	}
	if indices.ScalarType() != executor.Int64 {
		return unbox.ArgError(4, "indices", "indices is %s; it must be int64", executor.DTypeName(indices.ScalarType()))
	}
	set, err := reduceOneDim(self.Dim(), dim, 1, "dim")
	if err != nil {
		return err
	}
	p := newReducePlan(self.Sizes(), set, keepdim)
	if err := p.requireNonEmpty(1, "dim"); err != nil {
		return err
	}
	if err := vals.Resize(p.outSizes); err != nil {
		return fmt.Errorf("values: %w", err)
	}
	if err := indices.Resize(p.outSizes); err != nil {
		return fmt.Errorf("indices: %w", err)
	}
	if p.outNumel() == 0 {
		return nil
	}
	var idx []int64
	if isFloat(self.ScalarType()) {
		var v []float64
		v, idx = reduceExtreme(p, loadF64(self), gtF)
		storeF64(vals, v)
	} else {
		var v []int64
		v, idx = reduceExtreme(p, loadI64(self), gtI)
		storeI64(vals, v)
	}
	storeI64(indices, idx)
	return nil
}

// reduceTruthOut is any/all: set nil means no reduction (elementwise truth). The out is Bool
// or Uint8, as in PyTorch and ExecuTorch.
func reduceTruthOut(self *executor.Tensor, set []bool, keepdim bool, out *executor.Tensor, outIdx int, all bool) error {
	if t := out.ScalarType(); t != executor.Bool && t != executor.Uint8 {
		return unbox.ArgError(outIdx, "out", "out is %s; it must be bool or uint8", executor.DTypeName(t))
	}
	if sizes := self.Sizes(); set != nil && len(sizes) > 0 && self.ScalarType() == executor.Bool && out.ScalarType() == executor.Bool &&
		self.IsContiguous() && onlyLast(set) && sizes[len(sizes)-1] > 0 {
		// any/all of a bool tensor over its last dim (attention's NaN guard on every step): by
		// rows, without widening every element to float64.
		outSizes := slices.Clone(sizes[:len(sizes)-1])
		if keepdim {
			outSizes = append(outSizes, 1)
		}
		if err := resize(out, outSizes); err != nil {
			return err
		}
		if out.IsContiguous() {
			d, r := executor.Data[bool](self), executor.Data[bool](out)
			inner := sizes[len(sizes)-1]
			for row := range self.Numel() / inner {
				acc := all
				for _, v := range d[row*inner : (row+1)*inner] {
					if v != all {
						acc = !all
						break
					}
				}
				r[row] = acc
			}
			return nil
		}
	}
	x := loadF64(self) // C++'s bool(x): NaN is true
	if set == nil {
		if err := resize(out, self.Sizes()); err != nil {
			return err
		}
		for i, v := range x {
			x[i] = reduceBool(v != 0)
		}
		storeF64(out, x)
		return nil
	}
	p := newReducePlan(self.Sizes(), set, keepdim)
	if err := resize(out, p.outSizes); err != nil {
		return err
	}
	init := reduceBool(all)
	storeF64(out, reduceFold(p, x, init, func(acc, v float64) float64 {
		if all {
			return reduceBool(acc != 0 && v != 0)
		}
		return reduceBool(acc != 0 || v != 0)
	}))
	return nil
}

func reduceBool(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func reduceGreaterF(x, acc float64) bool { return x > acc }
func reduceGreaterI(x, acc int64) bool   { return x > acc }
func reduceLessF(x, acc float64) bool    { return x < acc }
func reduceLessI(x, acc int64) bool      { return x < acc }

// reduceScan replaces each element by the fold of it and the elements before it along the
// reduced dim (cumsum, cumprod), in place.
func reduceScan[T int64 | float64](p *reducePlan, v []T, init T, f func(acc, x T) T) []T {
	for _, b := range p.base {
		acc := init
		for _, r := range p.inner {
			acc = f(acc, v[b+r])
			v[b+r] = acc
		}
	}
	return v
}

// reduceSplit views sizes around dim d as (outer, n, inner): element (o, k, i) of a row-major
// tensor is at (o*n + k)*inner + i.
func reduceSplit(sizes []int, d int) (outer, n, inner int) {
	outer, n, inner = 1, 1, 1
	for i, s := range sizes {
		switch {
		case i < d:
			outer *= s
		case i == d:
			n = s
		default:
			inner *= s
		}
	}
	return outer, n, inner
}

// reduceContiguousF32 reports whether every tensor is a contiguous float32 tensor (nil
// tensors, absent optional ones, are ignored): the fast paths' condition.
func reduceContiguousF32(ts ...*executor.Tensor) bool {
	for _, t := range ts {
		if t != nil && (t.ScalarType() != executor.Float32 || !t.IsContiguous()) {
			return false
		}
	}
	return true
}

// reduceF32OrNil is executor.Data[float32] with nil for an absent tensor.
func reduceF32OrNil(t *executor.Tensor) []float32 {
	if t == nil {
		return nil
	}
	return executor.Data[float32](t)
}

// reduceF64OrNil is loadF64 with nil for an absent tensor.
func reduceF64OrNil(t *executor.Tensor) []float64 {
	if t == nil {
		return nil
	}
	return loadF64(t)
}

// reduceSameDtype checks that an optional tensor argument has want's dtype.
func reduceSameDtype(t *executor.Tensor, want executor.ScalarType, i int, name string) error {
	if t != nil && t.ScalarType() != want {
		return unbox.ArgError(i, name, "%s differs from the input's %s", executor.DTypeName(t.ScalarType()), executor.DTypeName(want))
	}
	return nil
}

// reduceNormOuts checks that the three outs of a normalization (out, mean, rstd), arguments
// i..i+2, have the input's dtype. Its messages call them out0, out1 and out2 whatever the
// schema names them (batch norm's out, save_mean and save_invstd).
func reduceNormOuts(i int, dtype executor.ScalarType, outs ...*executor.Tensor) error {
	for k, t := range outs {
		if err := reduceSameDtype(t, dtype, i+k, fmt.Sprintf("out%d", k)); err != nil {
			return err
		}
	}
	return nil
}

// reduceResizeNamed resizes t, naming it in the error.
func reduceResizeNamed(t *executor.Tensor, sizes []int, name string) error {
	if err := t.Resize(sizes); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// reduceMeanRstd returns the mean of v and 1/sqrt(biased variance + eps), in float64 (two passes).
func reduceMeanRstd[T float32 | float64](v []T, eps float64) (float64, float64) {
	sum := 0.0
	for _, x := range v {
		sum += float64(x)
	}
	mu := sum / float64(len(v))
	ss := 0.0
	for _, x := range v {
		d := float64(x) - mu
		ss += d * d
	}
	return mu, 1 / math.Sqrt(ss/float64(len(v))+eps)
}

// truthOverloads are the out, dims_out and all_out kernels of aten::any or aten::all, each with
// its generated unboxer.
type truthOverloads struct {
	dim       string
	unboxDim  unboxFn[selfDimIntKeepdimOutArgs]
	dims      string
	unboxDims unboxFn[selfDimOptIntListKeepdimOutArgs]
	all       string
	unboxAll  unboxFn[selfOutArgs]
}

// truthKernels returns the overloads of aten::any (all false) or aten::all (all true), which
// differ only in the reduction.
func truthKernels(k truthOverloads, all bool) []executor.Kernel {
	return []executor.Kernel{
		{Name: k.dim, DTypes: realBoolTypes, Fn: truthDimOut(k.unboxDim, all)},
		{Name: k.dims, DTypes: realBoolTypes, Fn: truthDimsOut(k.unboxDims, all)},
		{Name: k.all, DTypes: realBoolTypes, Fn: truthAllOut(k.unboxAll, all)},
	}
}

// truthDimOut is {any,all}.out(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) out).
func truthDimOut(unbox unboxFn[selfDimIntKeepdimOutArgs], all bool) executor.KernelFunc {
	return func(ctx *executor.KernelContext, args []*executor.EValue) error {
		a, err := unbox(args)
		if err != nil {
			return err
		}
		set, err := reduceOneDim(a.Self.Dim(), a.Dim, 1, "dim")
		if err != nil {
			return err
		}
		return reduceTruthOut(a.Self, set, a.Keepdim, a.Out, 3, all)
	}
}

// truthDimsOut is {any,all}.dims_out(Tensor self, int[]? dim=None, bool keepdim=False, *,
// Tensor(a!) out). None reduces every dim; an empty list reduces none (the out is self's truth,
// elementwise), as in PyTorch and ExecuTorch.
func truthDimsOut(unbox unboxFn[selfDimOptIntListKeepdimOutArgs], all bool) executor.KernelFunc {
	return func(ctx *executor.KernelContext, args []*executor.EValue) error {
		a, err := unbox(args)
		if err != nil {
			return err
		}
		var set []bool // nil: no reduction
		if dims := a.Dim; !dims.OK || len(dims.Val) > 0 {
			if set, err = reduceDimList(a.Self.Dim(), dims.Val, 1, "dim"); err != nil {
				return err
			}
		}
		return reduceTruthOut(a.Self, set, a.Keepdim, a.Out, 3, all)
	}
}

// truthAllOut is {any,all}.all_out(Tensor self, *, Tensor(a!) out): over every element, into a
// 0-d out.
func truthAllOut(unbox unboxFn[selfOutArgs], all bool) executor.KernelFunc {
	return func(ctx *executor.KernelContext, args []*executor.EValue) error {
		a, err := unbox(args)
		if err != nil {
			return err
		}
		return reduceTruthOut(a.Self, reduceAllDims(a.Self.Dim()), false, a.Out, 1, all)
	}
}

// onlyLast reports a reduction set that holds exactly the last dim.
func onlyLast(set []bool) bool {
	for i, in := range set {
		if in != (i == len(set)-1) {
			return false
		}
	}
	return true
}

// reduceSumIn sums each output's reduced elements of x in row-major order in the arithmetic of
// type at, as the official kernels' map_reduce loops do: each element is cast to at, each
// partial sum rounded to at (float32 sums float32, a float16 accumulator rounds every step).
// The sum starts from the first element (-0 + x is x, so a lone -0 stays -0); an empty
// reduction gives +0.
func reduceSumIn[T float32 | float64](p *reducePlan, x []T, at executor.ScalarType) []float64 {
	out := make([]float64, p.outNumel())
	if len(p.inner) == 0 {
		return out
	}
	negZero := math.Copysign(0, -1)
	for o, b := range p.base {
		if at == executor.Float32 {
			acc := float32(negZero)
			for _, r := range p.inner {
				acc += float32(x[b+r])
			}
			out[o] = float64(acc)
			continue
		}
		acc := negZero
		for _, r := range p.inner {
			acc = roundTo(at, acc+roundTo(at, float64(x[b+r])))
		}
		out[o] = acc
	}
	return out
}
