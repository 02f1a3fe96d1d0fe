package portable

// aten::neg.out(Tensor self, *, Tensor(a!) out): -self; integers wrap (-(-128) is -128 in int8),
// bool is refused as in PyTorch.
func init() {
	register(arithKeepKernel("aten::neg.out", unboxNegOut, realTypes,
		func(x float64) float64 { return -x },
		func(x int64) int64 { return -x }))
}
