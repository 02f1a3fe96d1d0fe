package vkrt

import "github.com/etgo/etgo/backends/vulkan/schema"

// whereOp: where.self(condition, self, other, out), the three broadcast together
// (shaders/where.comp). The shader selects words, so NaNs pass through as torch's where passes
// them; self and other must already have the output's datatype (the official partitioner
// takes float ones only).
func whereOp(b *builder, args []int32) error {
	cd, err := b.dtypeOf(args, 0)
	if err != nil {
		return err
	}
	if cd != schema.VkDataTypeBOOL {
		return errUnsupportedf("%s with a %s condition", b.op, cd)
	}
	od, err := b.outDType(args, 3, schema.VkDataTypeFLOAT32, schema.VkDataTypeINT32, schema.VkDataTypeBOOL)
	if err != nil {
		return err
	}
	rc, sc, err := b.in(args, 0)
	if err != nil {
		return err
	}
	var rs [2]int
	var ss [2][]int
	for k := 0; k < 2; k++ {
		r, s, kind, err := b.operandAs(args, 1+k, kindOf(od))
		if err != nil {
			return err
		}
		if kind != kindOf(od) {
			return errUnsupportedf("%s of a %s operand to a %s tensor", b.op, kindName(kind), od)
		}
		rs[k], ss[k] = r, s
	}
	dims, err := b.broadcast(sc, ss[0])
	if err != nil {
		return err
	}
	if dims, err = b.broadcast(dims, ss[1]); err != nil {
		return err
	}
	if len(dims) > 8 {
		return errUnsupportedf("%s of rank %d", b.op, len(dims))
	}
	ro, err := b.out(args, 3, dims)
	if err != nil {
		return err
	}
	params := u32s(numel(dims), len(dims))
	params = padTo8(params, dims)
	params = padTo8(params, broadcastStrides(sc, dims))
	params = padTo8(params, broadcastStrides(ss[0], dims))
	params = padTo8(params, broadcastStrides(ss[1], dims))
	return b.prog.dispatch("where", numel(dims), params, rc, rs[0], rs[1], ro)
}
