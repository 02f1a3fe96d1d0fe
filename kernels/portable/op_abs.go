package portable

import "math"

// aten::abs.out(Tensor self, *, Tensor(a!) out): |self|; integers wrap (abs(-128) is -128 in
// int8), bool is refused as in PyTorch.
func init() {
	register(arithKeepKernel("aten::abs.out", unboxAbsOut, realTypes, math.Abs,
		func(x int64) int64 {
			if x < 0 {
				return -x
			}
			return x
		}))
}
