package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::repeat_interleave.Tensor_out",
		DTypes: []executor.ScalarType{executor.Int32, executor.Int64}, Fn: repeatInterleaveTensorOut})
}

// repeatInterleaveMax bounds the length of the result, so that the running sum of repeats
// never overflows (resize then refuses what the out cannot hold).
const repeatInterleaveMax = 1 << 40

// aten::repeat_interleave.Tensor_out(Tensor repeats, *, SymInt? output_size=None, Tensor(a!)
// out): the 1-d tensor that holds each index i of the 1-d int64 or int32 tensor repeats,
// repeats[i] times, in order ([2, 0, 1] gives [0, 0, 2]). Repeats are non-negative; out has
// repeats' dtype and length sum(repeats), which output_size, when given, must equal.
func repeatInterleaveTensorOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxRepeatInterleaveTensorOut(args)
	if err != nil {
		return err
	}
	repeats, outputSize, hasSize, out := u.Repeats, u.OutputSize.Val, u.OutputSize.OK, u.Out
	reps, err := shapeIndexValues(repeats, 0, "repeats")
	if err != nil {
		return err
	}
	if repeats.Dim() != 1 {
		return unbox.ArgError(0, "repeats", "must be 1-d, got %d dimensions", repeats.Dim())
	}
	if out.ScalarType() != repeats.ScalarType() {
		return unbox.ArgError(2, "out", "out is %s; it must have repeats' dtype %s",
			executor.DTypeName(out.ScalarType()), executor.DTypeName(repeats.ScalarType()))
	}
	sum := int64(0)
	for i, r := range reps {
		if r < 0 {
			return unbox.ArgError(0, "repeats", "repeats[%d] = %d is negative", i, r)
		}
		if r > repeatInterleaveMax-sum {
			return unbox.ArgError(0, "repeats", "the repeats add up to more than %d", int64(repeatInterleaveMax))
		}
		sum += r
	}
	if hasSize && outputSize != sum {
		return unbox.ArgError(1, "output_size", "output_size %d differs from the sum of repeats %d", outputSize, sum)
	}
	if err := resize(out, []int{int(sum)}); err != nil {
		return err
	}
	v := make([]int64, 0, sum)
	for i, r := range reps {
		for range r {
			v = append(v, int64(i))
		}
	}
	storeI64(out, v)
	return nil
}
