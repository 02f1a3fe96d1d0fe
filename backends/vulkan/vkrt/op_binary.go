package vkrt

import (
	"math"
	"slices"

	"github.com/etgo/etgo/backends/vulkan/schema"
)

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
// A float32 output is computed in float32 (shaders/binary.comp; an int32 or bool operand
// converted, as torch promotes it); an int32 output of add, sub or mul in int32
// (shaders/ibinary.comp), as the official binary shaders compute ints.
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
		od, err := b.dtypeOf(args, outArg)
		if err != nil {
			return err
		}
		switch {
		case od == schema.VkDataTypeINT32 && (kind == opAdd || kind == opSub || kind == opMul):
			if alpha != math.Trunc(alpha) {
				return b.errorf("%s of int32 tensors with alpha %g", b.op, alpha)
			}
			return b.wordBinary([]int{ibAdd, ibSub, ibMul}[kind], args, 0, 1, outArg, kindInt, int(alpha))
		case od != schema.VkDataTypeFLOAT32:
			return errUnsupportedf("%s to a %s tensor", b.op, od)
		}
		ra, sa, ka, err := b.operandAs(args, 0, kindFloat)
		if err != nil {
			return err
		}
		rb, sb, kb, err := b.operandAs(args, 1, kindFloat)
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
		params = append(params, typeFlags(ka != kindFloat, kb != kindFloat))
		return b.prog.dispatch("binary", numel(dims), params, ra, rb, ro)
	}
}

// typeFlags are a shader's per-operand flags: bit 0 for a, bit 1 for b.
func typeFlags(a, b bool) uint32 {
	var f uint32
	if a {
		f |= 1
	}
	if b {
		f |= 2
	}
	return f
}

// ibinary.comp's operators.
const (
	ibAdd = iota
	ibSub
	ibMul
	ibAnd
	ibOr
	ibXor
	ibLogicalAnd
	ibLogicalOr
	ibLogicalXor
	ibEq
	ibNe
	ibLt
	ibLe
	ibGt
	ibGe
)

// wordOperand is one operand of ibinary.comp: its region, shape and element kind.
type wordOperand struct {
	r, kind int
	shape   []int
}

// wordBinary lowers an ibinary.comp operator of operands ia and ib (a tensor, or a number
// placed as a constant of kind scalarKind) into output argument outArg.
func (b *builder) wordBinary(op int, args []int32, ia, ib, outArg, scalarKind, alpha int) error {
	x, err := b.wordOperand(args, ia, scalarKind)
	if err != nil {
		return err
	}
	y, err := b.wordOperand(args, ib, scalarKind)
	if err != nil {
		return err
	}
	return b.wordBinaryOf(op, x, y, args, outArg, alpha)
}

func (b *builder) wordOperand(args []int32, i, scalarKind int) (wordOperand, error) {
	r, s, k, err := b.operandAs(args, i, scalarKind)
	return wordOperand{r: r, kind: k, shape: s}, err
}

func (b *builder) wordBinaryOf(op int, x, y wordOperand, args []int32, outArg, alpha int) error {
	if op <= ibMul && (x.kind != kindInt || y.kind != kindInt) {
		return errUnsupportedf("%s of a %s and a %s operand to int32", b.op, kindName(x.kind), kindName(y.kind))
	}
	if op >= ibAnd && op <= ibXor && (x.kind == kindFloat || y.kind == kindFloat) {
		return errUnsupportedf("%s of a float32 operand", b.op)
	}
	dims, err := b.broadcast(x.shape, y.shape)
	if err != nil {
		return err
	}
	ro, err := b.out(args, outArg, dims)
	if err != nil {
		return err
	}
	params := u32s(op, numel(dims), len(dims), alpha)
	params = padTo8(params, dims)
	params = padTo8(params, broadcastStrides(x.shape, dims))
	params = padTo8(params, broadcastStrides(y.shape, dims))
	params = append(params, typeFlags(x.kind == kindFloat, y.kind == kindFloat))
	return b.prog.dispatch("ibinary", numel(dims), params, x.r, y.r, ro)
}

// outDType checks output argument i's datatype is one of want.
func (b *builder) outDType(args []int32, i int, want ...schema.VkDataType) (schema.VkDataType, error) {
	d, err := b.dtypeOf(args, i)
	if err != nil {
		return 0, err
	}
	if !slices.Contains(want, d) {
		return 0, errUnsupportedf("%s to a %s tensor", b.op, d)
	}
	return d, nil
}

func kindName(k int) string { return [...]string{"float32", "int32", "bool"}[k] }

// operandAs is a tensor argument's region, shape and element kind, or a number placed as a
// one-element constant of kind k (float when the number is not integral).
func (b *builder) operandAs(args []int32, i, k int) (int, []int, int, error) {
	id, err := b.arg(args, i)
	if err != nil {
		return 0, nil, 0, err
	}
	if v := b.value(id); v.Kind != schema.GraphTypesVkTensor {
		x, ok, err := b.scalarArg(args, i)
		if err != nil {
			return 0, nil, 0, err
		}
		if !ok {
			return 0, nil, 0, b.errorf("%s: operand %d is None", b.op, i)
		}
		if k != kindFloat && (v.Kind == schema.GraphTypesDouble || x != math.Trunc(x) || math.Abs(x) > math.MaxInt32) {
			k = kindFloat // torch compares an int tensor with a float number in float
		}
		r, err := b.constantWord(x, k)
		return r, []int{}, k, err
	}
	r, s, err := b.in(args, i)
	if err != nil {
		return 0, nil, 0, err
	}
	return r, s, kindOf(b.value(id).Tensor.DType), nil
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
