package portable

// aten::minimum.out(Tensor self, Tensor other, *, Tensor(a!) out): the elementwise minimum in
// the promoted type of the inputs, broadcast; NaN propagates.
func init() {
	register(compareMinMaxKernel("aten::minimum.out", unboxMinimumOut,
		func(x, y float64) bool { return x < y },
		func(x, y int64) bool { return x < y }))
}
