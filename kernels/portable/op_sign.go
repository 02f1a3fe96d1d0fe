package portable

// aten::sign.out(Tensor self, *, Tensor(a!) out): -1, 0 or 1; bool is unchanged. NaN gives 0 as
// in PyTorch (ExecuTorch's portable kernel passes NaN through).
func init() {
	register(arithKeepKernel("aten::sign.out", unboxSignOut, realBoolTypes,
		func(x float64) float64 {
			switch {
			case x > 0:
				return 1
			case x < 0:
				return -1
			}
			return 0
		},
		func(x int64) int64 {
			switch {
			case x > 0:
				return 1
			case x < 0:
				return -1
			}
			return 0
		}))
}
