package vkrt

// reduceOp: mean.dim and sum.dim_IntList (self, dims?, keepdim, dtype?, out) over any dims
// (shaders/reduce.comp); mode 1 divides by the count.
func reduceOp(mode int) opFunc {
	return func(b *builder, args []int32) error {
		rx, sx, err := b.in(args, 0)
		if err != nil {
			return err
		}
		dl, err := b.intListArg(args, 1)
		if err != nil {
			return err
		}
		keep, err := b.boolArg(args, 2)
		if err != nil {
			return err
		}
		if !b.isNull(args, 3) {
			return errUnsupportedf("%s with a dtype", b.op)
		}
		red := make([]bool, len(sx))
		if len(dl) == 0 {
			for i := range red {
				red[i] = true
			}
		}
		for _, d := range dl {
			i, err := b.normDim(d, len(sx))
			if err != nil {
				return err
			}
			red[i] = true
		}
		st := contiguousStrides(sx)
		var keptDims, keptStrides, redDims, redStrides, out []int
		for i, d := range sx {
			if red[i] {
				redDims, redStrides = append(redDims, d), append(redStrides, st[i])
				if keep {
					out = append(out, 1)
				}
				continue
			}
			keptDims, keptStrides = append(keptDims, d), append(keptStrides, st[i])
			out = append(out, d)
		}
		if out == nil {
			out = []int{}
		}
		ro, err := b.out(args, 4, out)
		if err != nil {
			return err
		}
		params := u32s(mode, numel(out), len(keptDims), len(redDims))
		params = padTo8(params, keptDims)
		params = padTo8(params, keptStrides)
		params = padTo8(params, redDims)
		params = padTo8(params, redStrides)
		params = append(params, uint32(numel(redDims)))
		return b.prog.dispatch("reduce", numel(out), params, rx, ro)
	}
}

// softmaxOp: _softmax / _log_softmax(self, dim, half_to_float, out) (shaders/softmax.comp).
func softmaxOp(log bool) opFunc {
	return func(b *builder, args []int32) error {
		rx, sx, err := b.in(args, 0)
		if err != nil {
			return err
		}
		d64, err := b.intArg(args, 1)
		if err != nil {
			return err
		}
		d, err := b.normDim(d64, len(sx))
		if err != nil {
			return err
		}
		if half, err := b.boolArg(args, 2); err != nil {
			return err
		} else if half {
			return errUnsupportedf("%s with half_to_float", b.op)
		}
		ro, err := b.out(args, 3, sx)
		if err != nil {
			return err
		}
		D, inner := 1, 1
		if len(sx) > 0 {
			D = sx[d]
			inner = numel(sx[d+1:])
		}
		lines := numel(sx) / max(D, 1)
		lg := 0
		if log {
			lg = 1
		}
		return b.prog.dispatch("softmax", lines, u32s(lines, D, inner, lg), rx, ro)
	}
}
