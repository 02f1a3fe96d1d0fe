package vkrt

import (
	"encoding/binary"
	"math"
)

// constFloats reads a constant fp32 tensor argument's elements (batch norm folds them at Init).
func (b *builder) constFloats(args []int32, i int) ([]float32, error) {
	id, err := b.arg(args, i)
	if err != nil {
		return nil, err
	}
	t, err := b.tensorValue(id)
	if err != nil {
		return nil, err
	}
	if t.ConstantID < 0 {
		return nil, errUnsupportedf("%s with a computed argument %d (etgo folds constant statistics)", b.op, i)
	}
	if err := elemType(t.DType); err != nil {
		return nil, err
	}
	n := numel(dimsOf(t.Dims))
	raw := b.consts[t.ConstantID]
	if len(raw) < 4*n {
		return nil, b.errorf("constant value %d has %d bytes for %d elements", id, len(raw), n)
	}
	out := make([]float32, n)
	for k := range out {
		out[k] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*k:]))
	}
	return out, nil
}

func floatBytes(v []float32) []byte {
	raw := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(x))
	}
	return raw
}

// batchNormOp: _native_batch_norm_legit_no_training(input, weight?, bias?, running_mean,
// running_var, momentum, eps, out [y, mean, invstd]) over dim 1. The statistics are
// constants: scale = weight / sqrt(var + eps) and shift = bias - mean * scale are computed
// once (in float64, rounded once), and the shader computes x * scale + shift
// (shaders/affine.comp).
func batchNormOp(b *builder, args []int32) error {
	rx, sx, err := b.in(args, 0)
	if err != nil {
		return err
	}
	if len(sx) < 2 {
		return b.errorf("batch norm of a %v tensor", sx)
	}
	c := sx[1]
	mean, err := b.constFloats(args, 3)
	if err != nil {
		return err
	}
	vari, err := b.constFloats(args, 4)
	if err != nil {
		return err
	}
	var w, bias []float32
	if !b.isNull(args, 1) {
		if w, err = b.constFloats(args, 1); err != nil {
			return err
		}
	}
	if !b.isNull(args, 2) {
		if bias, err = b.constFloats(args, 2); err != nil {
			return err
		}
	}
	eps, _, err := b.scalarArg(args, 6)
	if err != nil {
		return err
	}
	if len(mean) != c || len(vari) != c || (w != nil && len(w) != c) || (bias != nil && len(bias) != c) {
		return b.errorf("batch norm of %d channels with statistics of %d", c, len(mean))
	}
	scale, shift := make([]float32, c), make([]float32, c)
	for i := range scale {
		s := 1 / math.Sqrt(float64(vari[i])+float64(float32(eps)))
		if w != nil {
			s *= float64(w[i])
		}
		sh := -float64(mean[i]) * s
		if bias != nil {
			sh += float64(bias[i])
		}
		scale[i], shift[i] = float32(s), float32(sh)
	}
	rs, err := b.prog.alloc(4*c, floatBytes(scale))
	if err != nil {
		return err
	}
	rt, err := b.prog.alloc(4*c, floatBytes(shift))
	if err != nil {
		return err
	}
	outs, err := b.valueListArg(args, 7)
	if err != nil {
		return err
	}
	if len(outs) == 0 {
		return b.errorf("batch norm without outputs")
	}
	ro, err := b.out(outs, 0, sx)
	if err != nil {
		return err
	}
	// The other two outputs are empty in inference (torch returns 0-element tensors).
	for k := 1; k < len(outs); k++ {
		t, err := b.tensorValue(outs[k])
		if err != nil {
			return err
		}
		if _, err := b.out(outs, k, dimsOf(t.Dims)); err != nil {
			return err
		}
	}
	inner := numel(sx[2:])
	return b.prog.dispatch("affine", numel(sx), u32s(numel(sx), c, inner), rx, rs, rt, ro)
}

// layerNormOp: native_layer_norm(input, normalized_shape, weight?, bias?, eps, out [y, mean,
// rstd]) (shaders/layernorm.comp).
func layerNormOp(b *builder, args []int32) error {
	rx, sx, err := b.in(args, 0)
	if err != nil {
		return err
	}
	ns, err := b.intListArg(args, 1)
	if err != nil {
		return err
	}
	if len(ns) == 0 || len(ns) > len(sx) {
		return b.errorf("layer norm of %v over %v", sx, ns)
	}
	lead := len(sx) - len(ns)
	for i, d := range ns {
		if int64(sx[lead+i]) != d {
			return b.errorf("layer norm of %v over %v", sx, ns)
		}
	}
	D := numel(sx[lead:])
	rows := numel(sx[:lead])
	bind := func(i int) (int, int, error) {
		if b.isNull(args, i) {
			r, err := b.dummy()
			return r, 0, err
		}
		r, s, err := b.in(args, i)
		if err == nil && numel(s) != D {
			err = b.errorf("layer norm parameter of %v for rows of %d", s, D)
		}
		return r, 1, err
	}
	rw, hasW, err := bind(2)
	if err != nil {
		return err
	}
	rb, hasB, err := bind(3)
	if err != nil {
		return err
	}
	eps, _, err := b.scalarArg(args, 4)
	if err != nil {
		return err
	}
	outs, err := b.valueListArg(args, 5)
	if err != nil {
		return err
	}
	if len(outs) != 3 {
		return b.errorf("layer norm with %d outputs", len(outs))
	}
	ro, err := b.out(outs, 0, sx)
	if err != nil {
		return err
	}
	stat := append(append([]int{}, sx[:lead]...), make([]int, len(ns))...)
	for i := lead; i < len(stat); i++ {
		stat[i] = 1
	}
	rm, err := b.out(outs, 1, stat)
	if err != nil {
		return err
	}
	rr, err := b.out(outs, 2, stat)
	if err != nil {
		return err
	}
	params := []uint32{uint32(rows), uint32(D), f32bits(eps), uint32(hasW), uint32(hasB)}
	return b.prog.dispatch("layernorm", rows, params, rx, rw, rb, ro, rm, rr)
}
