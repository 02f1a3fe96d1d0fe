package vkrt

import (
	"fmt"
	"slices"

	"github.com/etgo/etgo/backends/vulkan/schema"
)

// Shape operators. Those that keep the elements' order (view, clone, squeeze, unsqueeze, the
// official prepack, a dim-order copy to the default order) share their input's region; the
// others move elements with strided copies (shaders/copy.comp).

// copy dispatches a strided copy over dims.
func (b *builder) copy(rin, rout int, dims []int, inBase int, inStrides []int, outBase int, outStrides []int) error {
	if len(dims) > 8 {
		return errUnsupportedf("%s of a rank-%d tensor", b.op, len(dims))
	}
	params := u32s(numel(dims), inBase, outBase, len(dims))
	params = padTo8(params, dims)
	params = padTo8(params, inStrides)
	params = padTo8(params, outStrides)
	return b.prog.dispatch("copy", numel(dims), params, rin, rout)
}

func (b *builder) sameDType(args []int32, in, out int) error {
	ti, err := b.tensorValue(args[in])
	if err != nil {
		return err
	}
	to, err := b.tensorValue(args[out])
	if err != nil {
		return err
	}
	if ti.DType != to.DType {
		return errUnsupportedf("%s from %s to %s", b.op, ti.DType, to.DType)
	}
	return nil
}

// aliasOp: clone(self, memory_format?, out) and et_vk.prepack(constant, out): the output is
// the last argument.
func aliasOp(b *builder, args []int32) error {
	r, dims, err := b.in(args, 0)
	if err != nil {
		return err
	}
	if len(args) < 2 {
		return b.errorf("%s without an output", b.op)
	}
	if err := b.sameDType(args, 0, len(args)-1); err != nil {
		return err
	}
	return b.alias(args, len(args)-1, r, dims)
}

// toDimOrderOp: _to_dim_order_copy(self, dtype?, non_blocking?, dim_order?, out) to the
// default dim order, keeping the dtype (an alias) or casting between float32, int32 and bool
// (shaders/cast.comp).
// The serialized dtype argument is None even when the dtype changes: the output tensor's
// datatype says what to make.
func toDimOrderOp(b *builder, args []int32) error {
	r, dims, err := b.in(args, 0)
	if err != nil {
		return err
	}
	if len(args) < 2 {
		return b.errorf("%s without an output", b.op)
	}
	last := len(args) - 1
	ti, err := b.tensorValue(args[0])
	if err != nil {
		return err
	}
	to, err := b.tensorValue(args[last])
	if err != nil {
		return err
	}
	cast := ti.DType != to.DType
	for _, d := range []schema.VkDataType{ti.DType, to.DType} {
		if err := elemType(d); err != nil {
			return fmt.Errorf("%s: %w", b.op, err)
		}
	}
	for i := 1; i < last; i++ {
		if v := b.value(args[i]); v.Kind == schema.GraphTypesIntList {
			for j, d := range v.IntList {
				if d != int64(j) {
					return errUnsupportedf("%s to dim order %v", b.op, v.IntList)
				}
			}
		}
	}
	if !cast {
		return b.alias(args, last, r, dims)
	}
	ro, err := b.out(args, last, dims)
	if err != nil {
		return err
	}
	return b.prog.dispatch("cast", numel(dims), u32s(numel(dims), kindOf(ti.DType), kindOf(to.DType)), r, ro)
}

// viewOp: view_copy(self, size, out), one size may be -1.
func viewOp(b *builder, args []int32) error {
	r, dims, err := b.in(args, 0)
	if err != nil {
		return err
	}
	sizes, err := b.intListArg(args, 1)
	if err != nil {
		return err
	}
	out := make([]int, len(sizes))
	infer, known := -1, 1
	for i, s := range sizes {
		switch {
		case s == -1 && infer < 0:
			infer = i
		case s < 0 || s > 1<<31:
			return b.errorf("view to %v", sizes)
		default:
			out[i] = int(s)
			known *= int(s)
		}
	}
	n := numel(dims)
	if infer >= 0 {
		if known == 0 || n%known != 0 {
			return b.errorf("view of %v to %v", dims, sizes)
		}
		out[infer] = n / known
	} else if known != n {
		return b.errorf("view of %v to %v", dims, sizes)
	}
	return b.alias(args, 2, r, out)
}

// squeezeOp: squeeze_copy.dims(self, dims, out) drops the listed dims of size 1.
func squeezeOp(b *builder, args []int32) error {
	r, dims, err := b.in(args, 0)
	if err != nil {
		return err
	}
	dl, err := b.intListArg(args, 1)
	if err != nil {
		return err
	}
	drop := make([]bool, len(dims))
	for _, d := range dl {
		i, err := b.normDim(d, len(dims))
		if err != nil {
			return err
		}
		if i < len(dims) {
			drop[i] = dims[i] == 1
		}
	}
	out := []int{}
	for i, d := range dims {
		if !drop[i] {
			out = append(out, d)
		}
	}
	return b.alias(args, 2, r, out)
}

// unsqueezeOp: unsqueeze_copy(self, dim, out).
func unsqueezeOp(b *builder, args []int32) error {
	r, dims, err := b.in(args, 0)
	if err != nil {
		return err
	}
	d, err := b.intArg(args, 1)
	if err != nil {
		return err
	}
	i, err := b.normDim(d, len(dims)+1)
	if err != nil {
		return err
	}
	out := slices.Insert(slices.Clone(dims), i, 1)
	return b.alias(args, 2, r, out)
}

// permuteOp: permute_copy(self, dims, out).
func permuteOp(b *builder, args []int32) error {
	r, dims, err := b.in(args, 0)
	if err != nil {
		return err
	}
	perm, err := b.intListArg(args, 1)
	if err != nil {
		return err
	}
	if len(perm) != len(dims) {
		return b.errorf("permute of %v by %v", dims, perm)
	}
	st := contiguousStrides(dims)
	out, inStrides := make([]int, len(dims)), make([]int, len(dims))
	seen := make([]bool, len(dims))
	for i, p := range perm {
		j, err := b.normDim(p, len(dims))
		if err != nil {
			return err
		}
		if seen[j] {
			return b.errorf("permute by %v", perm)
		}
		seen[j] = true
		out[i], inStrides[i] = dims[j], st[j]
	}
	ro, err := b.out(args, 2, out)
	if err != nil {
		return err
	}
	return b.copy(r, ro, out, 0, inStrides, 0, contiguousStrides(out))
}

// sliceOp: slice_copy.Tensor(self, dim, start?, end?, step, out), bounds clamped as torch does.
func sliceOp(b *builder, args []int32) error {
	r, dims, err := b.in(args, 0)
	if err != nil {
		return err
	}
	d64, err := b.intArg(args, 1)
	if err != nil {
		return err
	}
	d, err := b.normDim(d64, len(dims))
	if err != nil || len(dims) == 0 {
		return b.errorf("slice of %v along %d", dims, d64)
	}
	size := int64(dims[d])
	bound := func(i int, def int64) (int64, error) {
		if b.isNull(args, i) {
			return def, nil
		}
		v, err := b.intArg(args, i)
		if err != nil {
			return 0, err
		}
		if v < 0 {
			v += size
		}
		return min(max(v, 0), size), nil
	}
	start, err := bound(2, 0)
	if err != nil {
		return err
	}
	end, err := bound(3, size)
	if err != nil {
		return err
	}
	step := int64(1)
	if !b.isNull(args, 4) {
		if step, err = b.intArg(args, 4); err != nil {
			return err
		}
	}
	if step < 1 {
		return b.errorf("slice step %d", step)
	}
	n := 0
	if end > start {
		n = int((end - start + step - 1) / step)
	}
	out := slices.Clone(dims)
	out[d] = n
	ro, err := b.out(args, 5, out)
	if err != nil {
		return err
	}
	st := contiguousStrides(dims)
	inStrides := slices.Clone(st)
	inStrides[d] *= int(step)
	return b.copy(r, ro, out, int(start)*st[d], inStrides, 0, contiguousStrides(out))
}

// catOp: cat(tensors, dim, out), each input copied into its slice of the output.
func catOp(b *builder, args []int32) error {
	ids, err := b.valueListArg(args, 0)
	if err != nil {
		return err
	}
	d64, err := b.intArg(args, 1)
	if err != nil {
		return err
	}
	var out []int
	var regions []int
	var shapes [][]int
	dim := -1
	for _, id := range ids {
		r, err := b.tensor(id)
		if err != nil {
			return err
		}
		s := b.shape[id]
		if len(s) == 1 && s[0] == 0 {
			continue // torch skips empty 1-D inputs
		}
		if dim < 0 {
			if dim, err = b.normDim(d64, len(s)); err != nil {
				return err
			}
			out = slices.Clone(s)
			out[dim] = 0
		}
		if len(s) != len(out) {
			return b.errorf("cat of %v with %v", s, out)
		}
		for i := range s {
			if i != dim && s[i] != out[i] {
				return b.errorf("cat of %v with %v along %d", s, out, dim)
			}
		}
		out[dim] += s[dim]
		regions, shapes = append(regions, r), append(shapes, s)
	}
	if dim < 0 {
		return b.errorf("cat of no tensors")
	}
	ro, err := b.out(args, 2, out)
	if err != nil {
		return err
	}
	ost := contiguousStrides(out)
	off := 0
	for k, s := range shapes {
		if err := b.copy(regions[k], ro, s, 0, contiguousStrides(s), off*ost[dim], ost); err != nil {
			return err
		}
		off += s[dim]
	}
	return nil
}

// splitOp: split_with_sizes_copy(self, split_sizes, dim, out list).
func splitOp(b *builder, args []int32) error {
	r, dims, err := b.in(args, 0)
	if err != nil {
		return err
	}
	sizes, err := b.intListArg(args, 1)
	if err != nil {
		return err
	}
	d64, err := b.intArg(args, 2)
	if err != nil {
		return err
	}
	d, err := b.normDim(d64, len(dims))
	if err != nil || len(dims) == 0 {
		return b.errorf("split of %v along %d", dims, d64)
	}
	outs, err := b.valueListArg(args, 3)
	if err != nil {
		return err
	}
	if len(outs) != len(sizes) {
		return b.errorf("split into %d sizes with %d outputs", len(sizes), len(outs))
	}
	st := contiguousStrides(dims)
	off := 0
	for k, s := range sizes {
		if s < 0 || off+int(s) > dims[d] {
			return b.errorf("split of %v into %v", dims, sizes)
		}
		shape := slices.Clone(dims)
		shape[d] = int(s)
		ro, err := b.out(outs, k, shape)
		if err != nil {
			return err
		}
		if err := b.copy(r, ro, shape, off*st[d], st, 0, contiguousStrides(shape)); err != nil {
			return err
		}
		off += int(s)
	}
	if off != dims[d] {
		return b.errorf("split of %v into %v", dims, sizes)
	}
	return nil
}
