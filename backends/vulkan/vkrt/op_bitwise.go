package vkrt

import "github.com/etgo/etgo/backends/vulkan/schema"

// bitwise_and and bitwise_or (self, other, out) and bitwise_not (self, out) on bool or int32
// words (shaders/ibinary.comp; the official partitioner takes them on bool only). Bools are 0
// or 1, so and/or of two keep them so.
func bitwiseOp(op int) opFunc {
	return func(b *builder, args []int32) error {
		od, err := b.outDType(args, 2, schema.VkDataTypeBOOL, schema.VkDataTypeINT32)
		if err != nil {
			return err
		}
		if od == schema.VkDataTypeBOOL {
			for i := 0; i < 2; i++ {
				if d, err := b.dtypeOf(args, i); err == nil && d != schema.VkDataTypeBOOL {
					return errUnsupportedf("%s of a %s tensor to bool", b.op, d)
				}
			}
		}
		return b.wordBinary(op, args, 0, 1, 2, kindOf(od), 0)
	}
}

// bitwiseNotOp is x == 0 on bool and x ^ -1 on int32.
func bitwiseNotOp(b *builder, args []int32) error {
	od, err := b.outDType(args, 1, schema.VkDataTypeBOOL, schema.VkDataTypeINT32)
	if err != nil {
		return err
	}
	x, err := b.wordOperand(args, 0, kindOf(od))
	if err != nil {
		return err
	}
	if x.kind != kindOf(od) {
		return errUnsupportedf("%s of a %s tensor to %s", b.op, kindName(x.kind), od)
	}
	op, c := ibXor, -1.0
	if od == schema.VkDataTypeBOOL {
		op, c = ibEq, 0
	}
	r, err := b.constantWord(c, x.kind)
	if err != nil {
		return err
	}
	return b.wordBinaryOf(op, x, wordOperand{r: r, kind: x.kind, shape: []int{}}, args, 1, 0)
}
