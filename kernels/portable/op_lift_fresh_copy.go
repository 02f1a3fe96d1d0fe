package portable

// aten::lift_fresh_copy.out(Tensor self, *, Tensor(a!) out): a copy of self (lifting a fresh
// constant into the graph is export's business; at run time only the copy is left).
func init() { register(copyKernel("aten::lift_fresh_copy.out", unboxLiftFreshCopyOut)) }
