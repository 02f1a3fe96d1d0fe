package portable

import "github.com/etgo/etgo/executor"

// aten::bitwise_left_shift.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out),
// aten::bitwise_left_shift.Tensor_Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) and the
// same two for bitwise_right_shift: self shifted by other bits in the operands' promoted integral
// type. A shift by a negative amount or by the type's width or more is what PyTorch gives (0 for
// a left shift; the sign, 0 or -1, for a right one) rather than C++'s undefined behaviour.
func init() {
	register(shiftKernels(binaryPair{"aten::bitwise_left_shift.Tensor_out", unboxBitwiseLeftShiftTensorOut,
		"aten::bitwise_left_shift.Tensor_Scalar_out", unboxBitwiseLeftShiftTensorScalarOut}, true)...)
	register(shiftKernels(binaryPair{"aten::bitwise_right_shift.Tensor_out", unboxBitwiseRightShiftTensorOut,
		"aten::bitwise_right_shift.Tensor_Scalar_out", unboxBitwiseRightShiftTensorScalarOut}, false)...)
}

func shiftKernels(k binaryPair, left bool) []executor.Kernel {
	opFor := func(common executor.ScalarType) compareOp {
		width := int64(8 * executor.ElementSize(common))
		unsigned := shapeIsUnsigned(common)
		return compareOp{i: func(x, y int64) int64 {
			out := y < 0 || y >= width
			switch {
			case left && out:
				return 0
			case left:
				return x << uint(y)
			case out && (unsigned || x >= 0):
				return 0
			case out:
				return -1
			}
			return x >> uint(y)
		}}
	}
	return compareIntegralKernels(k, false, opFor)
}
