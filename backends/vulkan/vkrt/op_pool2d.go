package vkrt

import "github.com/etgo/etgo/backends/vulkan/schema"

// 2-D max and average pooling over NCHW (or CHW) tensors (shaders/pool2d.comp).

type poolArgs struct {
	kernel, stride, pad, dil [2]int
	ceil                     bool
}

func (b *builder) pair(args []int32, i int, def [2]int) ([2]int, error) {
	if b.isNull(args, i) {
		return def, nil
	}
	l, err := b.intListArg(args, i)
	if err != nil {
		return [2]int{}, err
	}
	switch len(l) {
	case 0:
		return def, nil
	case 1:
		return [2]int{int(l[0]), int(l[0])}, nil
	case 2:
		return [2]int{int(l[0]), int(l[1])}, nil
	}
	return [2]int{}, b.errorf("%s: argument %d has %d items", b.op, i, len(l))
}

// poolOut is torch's pooling_output_shape.
func poolOut(in, k, s, p, d int, ceil bool) int {
	num := in + 2*p - d*(k-1) - 1
	if ceil {
		num += s - 1
	}
	out := num/s + 1
	if ceil && (out-1)*s >= in+p {
		out--
	}
	return out
}

// pool lowers one pooling call; outArgs are the outputs (max pooling with indices has two).
func (b *builder) pool(args []int32, kind int, a poolArgs, countIncludePad bool, divisor int, outIDs []int32) error {
	rx, sx, err := b.in(args, 0)
	if err != nil {
		return err
	}
	if len(sx) != 3 && len(sx) != 4 {
		return b.errorf("%s of a %v tensor", b.op, sx)
	}
	for i := 0; i < 2; i++ {
		if a.kernel[i] < 1 || a.stride[i] < 1 || a.dil[i] < 1 || a.pad[i] < 0 || 2*a.pad[i] > a.kernel[i] {
			return b.errorf("%s: kernel %v stride %v padding %v dilation %v", b.op, a.kernel, a.stride, a.pad, a.dil)
		}
	}
	h, w := sx[len(sx)-2], sx[len(sx)-1]
	oh := poolOut(h, a.kernel[0], a.stride[0], a.pad[0], a.dil[0], a.ceil)
	ow := poolOut(w, a.kernel[1], a.stride[1], a.pad[1], a.dil[1], a.ceil)
	if oh < 1 || ow < 1 {
		return b.errorf("%s of %v gives no output", b.op, sx)
	}
	dims := append(append([]int{}, sx[:len(sx)-2]...), oh, ow)
	ro, err := b.out(outIDs, 0, dims)
	if err != nil {
		return err
	}
	ri := ro
	if len(outIDs) > 1 {
		if ri, err = b.out(outIDs, 1, dims); err != nil {
			return err
		}
	} else if kind == 0 {
		if ri, err = b.prog.alloc(4*numel(dims), nil); err != nil {
			return err
		}
	}
	if kind == 1 {
		if ri, err = b.dummy(); err != nil {
			return err
		}
	}
	cip := 0
	if countIncludePad {
		cip = 1
	}
	total := numel(dims)
	params := u32s(kind, total, h, w, oh, ow, a.kernel[0], a.kernel[1], a.stride[0], a.stride[1], a.pad[0], a.pad[1], a.dil[0], a.dil[1], cip, divisor)
	return b.prog.dispatch("pool2d", total, params, rx, ro, ri)
}

// maxPoolOp: max_pool2d_with_indices(self, kernel, stride, padding, dilation, ceil_mode, out
// [values, indices]) and max_pool2d(self, kernel, stride, padding, dilation, ceil_mode, out).
func maxPoolOp(b *builder, args []int32) error {
	var a poolArgs
	var err error
	if a.kernel, err = b.pair(args, 1, [2]int{}); err != nil {
		return err
	}
	if a.stride, err = b.pair(args, 2, a.kernel); err != nil {
		return err
	}
	if a.pad, err = b.pair(args, 3, [2]int{}); err != nil {
		return err
	}
	if a.dil, err = b.pair(args, 4, [2]int{1, 1}); err != nil {
		return err
	}
	if a.ceil, err = b.boolArg(args, 5); err != nil {
		return err
	}
	id, err := b.arg(args, 6)
	if err != nil {
		return err
	}
	outs := []int32{id}
	if b.value(id).Kind == schema.GraphTypesValueList {
		if outs, err = b.valueListArg(args, 6); err != nil {
			return err
		}
		if len(outs) != 2 {
			return b.errorf("max_pool2d_with_indices with %d outputs", len(outs))
		}
	}
	return b.pool(args, 0, a, false, 0, outs)
}

// avgPoolOp: avg_pool2d(self, kernel, stride, padding, ceil_mode, count_include_pad,
// divisor_override, out).
func avgPoolOp(b *builder, args []int32) error {
	var a poolArgs
	var err error
	if a.kernel, err = b.pair(args, 1, [2]int{}); err != nil {
		return err
	}
	if a.stride, err = b.pair(args, 2, a.kernel); err != nil {
		return err
	}
	if a.pad, err = b.pair(args, 3, [2]int{}); err != nil {
		return err
	}
	a.dil = [2]int{1, 1}
	if a.ceil, err = b.boolArg(args, 4); err != nil {
		return err
	}
	cip, err := b.boolArg(args, 5)
	if err != nil {
		return err
	}
	div := 0
	if !b.isNull(args, 6) {
		d, err := b.intArg(args, 6)
		if err != nil {
			return err
		}
		if d <= 0 || d > 1<<30 {
			return b.errorf("avg_pool2d divisor %d", d)
		}
		div = int(d)
	}
	id, err := b.arg(args, 7)
	if err != nil {
		return err
	}
	return b.pool(args, 1, a, cip, div, []int32{id})
}
