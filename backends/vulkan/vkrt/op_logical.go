package vkrt

import "github.com/etgo/etgo/backends/vulkan/schema"

// logical_and and logical_or (self, other, out) and logical_not (self, out), to bool
// (shaders/ibinary.comp): any nonzero element is true, a NaN too, as in torch.
func logicalOp(op int) opFunc {
	return func(b *builder, args []int32) error {
		if _, err := b.outDType(args, 2, schema.VkDataTypeBOOL); err != nil {
			return err
		}
		return b.wordBinary(op, args, 0, 1, 2, kindBool, 0)
	}
}

// logicalNotOp is x == 0 (in float32 for a float input, so -0 is false and NaN true).
func logicalNotOp(b *builder, args []int32) error {
	if _, err := b.outDType(args, 1, schema.VkDataTypeBOOL); err != nil {
		return err
	}
	x, err := b.wordOperand(args, 0, kindBool)
	if err != nil {
		return err
	}
	zero, err := b.constantWord(0, x.kind)
	if err != nil {
		return err
	}
	return b.wordBinaryOf(ibEq, x, wordOperand{r: zero, kind: x.kind, shape: []int{}}, args, 1, 0)
}
