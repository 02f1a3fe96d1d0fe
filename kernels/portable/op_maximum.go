package portable

// aten::maximum.out(Tensor self, Tensor other, *, Tensor(a!) out): the elementwise maximum in
// the promoted type of the inputs, broadcast; NaN propagates.
func init() {
	register(compareMinMaxKernel("aten::maximum.out", unboxMaximumOut,
		func(x, y float64) bool { return x > y },
		func(x, y int64) bool { return x > y }))
}
