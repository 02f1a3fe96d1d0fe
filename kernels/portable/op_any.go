package portable

// The any overloads write whether any element is true (nonzero; NaN is true) into a bool or
// uint8 out (truthKernels in reduce_util.go).
func init() {
	register(truthKernels(truthOverloads{"aten::any.out", unboxAnyOut, "aten::any.dims_out", unboxAnyDimsOut,
		"aten::any.all_out", unboxAnyAllOut}, false)...)
}
