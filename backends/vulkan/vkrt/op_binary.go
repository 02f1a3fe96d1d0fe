package vkrt

import "github.com/etgo/etgo/backends/vulkan/schema"

// Binary elementwise operators with torch's broadcasting (shaders/binary.comp).

const (
	opAdd = iota
	opSub
	opMul
	opDiv
	opMinimum
	opMaximum
	opPow
)

// binaryOp: add.Tensor and sub.Tensor are (self, other, alpha, out), the others (self, other,
// out). A number operand (the official graph keeps some as values) is a one-element constant.
func binaryOp(kind int) opFunc {
	return func(b *builder, args []int32) error {
		alpha, outArg := 1.0, 2
		if kind == opAdd || kind == opSub {
			outArg = 3
			if v, ok, err := b.scalarArg(args, 2); err != nil {
				return err
			} else if ok {
				alpha = v
			}
		}
		ra, sa, err := b.operand(args, 0)
		if err != nil {
			return err
		}
		rb, sb, err := b.operand(args, 1)
		if err != nil {
			return err
		}
		dims, err := b.broadcast(sa, sb)
		if err != nil {
			return err
		}
		ro, err := b.out(args, outArg, dims)
		if err != nil {
			return err
		}
		params := u32s(kind, numel(dims), len(dims))
		params = append(params, f32bits(alpha))
		params = padTo8(params, dims)
		params = padTo8(params, broadcastStrides(sa, dims))
		params = padTo8(params, broadcastStrides(sb, dims))
		return b.prog.dispatch("binary", numel(dims), params, ra, rb, ro)
	}
}

// operand is a tensor argument's region and shape, or a number as a one-element constant.
func (b *builder) operand(args []int32, i int) (int, []int, error) {
	id, err := b.arg(args, i)
	if err != nil {
		return 0, nil, err
	}
	if v := b.value(id); v.Kind != schema.GraphTypesVkTensor {
		x, ok, err := b.scalarArg(args, i)
		if err != nil {
			return 0, nil, err
		}
		if !ok {
			return 0, nil, b.errorf("%s: operand %d is None", b.op, i)
		}
		r, err := b.constantScalar(x)
		return r, []int{}, err
	}
	return b.in(args, i)
}

// broadcast is the shape two operands broadcast to, as torch aligns them (from the last dim).
func (b *builder) broadcast(x, y []int) ([]int, error) {
	n := max(len(x), len(y))
	out := make([]int, n)
	for i := 0; i < n; i++ {
		dx, dy := 1, 1
		if j := len(x) - n + i; j >= 0 {
			dx = x[j]
		}
		if j := len(y) - n + i; j >= 0 {
			dy = y[j]
		}
		switch {
		case dx == dy || dy == 1:
			out[i] = dx
		case dx == 1:
			out[i] = dy
		default:
			return nil, b.errorf("%s: shapes %v and %v do not broadcast", b.op, x, y)
		}
	}
	return out, nil
}

// broadcastStrides are the strides reading a tensor of shape x as shape out: 0 on the dims it
// is broadcast along.
func broadcastStrides(x, out []int) []int {
	s := make([]int, len(out))
	cs := contiguousStrides(x)
	for i := range out {
		j := len(x) - len(out) + i
		if j >= 0 && x[j] != 1 {
			s[i] = cs[j]
		}
	}
	return s
}
