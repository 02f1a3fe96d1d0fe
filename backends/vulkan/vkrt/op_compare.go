package vkrt

import "github.com/etgo/etgo/backends/vulkan/schema"

// Comparisons: eq, lt, le, gt, ge .Tensor (self, other, out) and eq, ne, lt, le, gt, ge
// .Scalar (self, number, out), to bool (shaders/ibinary.comp). Two int32 or bool operands
// compare as int32; a float32 one makes the comparison float32 (torch's promotion: an int
// tensor against a float number compares in float). NaN compares false but under ne, as in
// torch.
func compareOp(op int) opFunc {
	return func(b *builder, args []int32) error {
		if _, err := b.outDType(args, 2, schema.VkDataTypeBOOL); err != nil {
			return err
		}
		return b.wordBinary(op, args, 0, 1, 2, kindInt, 0)
	}
}
