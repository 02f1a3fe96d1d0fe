package portable

// The any overloads write whether any element is true (nonzero; NaN is true) into a bool or
// uint8 out (truthKernels in reduce_util.go).
func init() { register(truthKernels("any", false)...) }
