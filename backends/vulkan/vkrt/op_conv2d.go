package vkrt

import "math"

// convOp runs aten.convolution and et_vk.conv_with_clamp (shaders/conv2d.comp): (input, weight,
// bias?, stride, padding, dilation, transposed, output_padding, groups[, output_min,
// output_max], out) on 4-D NCHW tensors, every group count (depthwise and pointwise included).
func convOp(b *builder, args []int32) error {
	rx, sx, err := b.in(args, 0)
	if err != nil {
		return err
	}
	rw, sw, err := b.in(args, 1)
	if err != nil {
		return err
	}
	if len(sx) != 4 || len(sw) != 4 {
		return b.errorf("convolution of %v by a weight of %v (etgo runs 2-D convolutions)", sx, sw)
	}
	transposed, err := b.boolArg(args, 6)
	if err != nil {
		return err
	}
	if transposed {
		return errUnsupportedf("transposed convolution")
	}
	pair := func(i int, def int) ([2]int, error) {
		l, err := b.intListArg(args, i)
		if err != nil {
			return [2]int{}, err
		}
		switch len(l) {
		case 0:
			return [2]int{def, def}, nil
		case 1:
			return [2]int{int(l[0]), int(l[0])}, nil
		case 2:
			return [2]int{int(l[0]), int(l[1])}, nil
		}
		return [2]int{}, b.errorf("convolution argument %d has %d items", i, len(l))
	}
	stride, err := pair(3, 1)
	if err != nil {
		return err
	}
	pad, err := pair(4, 0)
	if err != nil {
		return err
	}
	dil, err := pair(5, 1)
	if err != nil {
		return err
	}
	groups, err := b.intArg(args, 8)
	if err != nil {
		return err
	}
	n, c, h, w := sx[0], sx[1], sx[2], sx[3]
	oc, cpg, kh, kw := sw[0], sw[1], sw[2], sw[3]
	if groups < 1 || int64(c) != groups*int64(cpg) || int64(oc)%groups != 0 {
		return b.errorf("convolution of %d channels, groups %d, weight %v", c, groups, sw)
	}
	for _, v := range []int{stride[0], stride[1], dil[0], dil[1]} {
		if v < 1 {
			return b.errorf("convolution stride %v dilation %v", stride, dil)
		}
	}
	if pad[0] < 0 || pad[1] < 0 {
		return b.errorf("convolution padding %v", pad)
	}
	oh := (h+2*pad[0]-dil[0]*(kh-1)-1)/stride[0] + 1
	ow := (w+2*pad[1]-dil[1]*(kw-1)-1)/stride[1] + 1
	if oh < 1 || ow < 1 {
		return b.errorf("convolution of %v by %v gives no output", sx, sw)
	}
	rbias, hasBias := rw, 0
	if !b.isNull(args, 2) {
		var sb []int
		if rbias, sb, err = b.in(args, 2); err != nil {
			return err
		}
		if numel(sb) != oc {
			return b.errorf("convolution bias of %v for %d channels", sb, oc)
		}
		hasBias = 1
	}
	lo, hi, outArg := math.Inf(-1), math.Inf(1), 9
	if len(args) >= 12 {
		outArg = 11
		if v, ok, err := b.scalarArg(args, 9); err != nil {
			return err
		} else if ok {
			lo = v
		}
		if v, ok, err := b.scalarArg(args, 10); err != nil {
			return err
		} else if ok {
			hi = v
		}
	}
	ro, err := b.out(args, outArg, []int{n, oc, oh, ow})
	if err != nil {
		return err
	}
	total := n * oc * oh * ow
	params := u32s(total, c, h, w, oc, oh, ow, kh, kw, stride[0], stride[1], pad[0], pad[1], dil[0], dil[1], int(groups), hasBias)
	params = append(params, f32bits(lo), f32bits(hi))
	return b.prog.dispatch("conv2d", total, params, rx, rw, rbias, ro)
}
