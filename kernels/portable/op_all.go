package portable

// The all overloads write whether every element is true (nonzero; NaN is true) into a bool or
// uint8 out (truthKernels in reduce_util.go).
func init() {
	register(truthKernels(truthOverloads{"aten::all.out", unboxAllOut, "aten::all.dims_out", unboxAllDimsOut,
		"aten::all.all_out", unboxAllAllOut}, true)...)
}
