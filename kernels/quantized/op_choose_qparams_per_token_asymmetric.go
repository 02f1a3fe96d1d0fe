package quantized

import (
	"slices"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

// quantized_decomposed::choose_qparams_per_token_asymmetric.out(Tensor input, ScalarType
// dtype, *, Tensor(a!) scale_out, Tensor(b!) zero_point_out): choose_qparams for every token
// (every row of the last dim) of the float32 input over [-128, 127], whatever dtype says;
// scale_out (float64) and zero_point_out (int64) get input's sizes with the last dim 1.
func chooseQParamsPerTokenAsymmetricOut(_ *executor.KernelContext, args []*executor.EValue) error {
	if err := unbox.Count(args, 5); err != nil {
		return err
	}
	in, err := unbox.TensorArg(args, 0, "input")
	if err != nil {
		return err
	}
	if _, err := dtypeArg(args, 1, "dtype"); err != nil {
		return err
	}
	scaleOut, err := outArg(args, 2, "scale_out")
	if err != nil {
		return err
	}
	zpOut, err := outArg(args, 3, "zero_point_out")
	if err != nil {
		return err
	}
	if err := returnSlot(args, scaleOut, zpOut); err != nil {
		return err
	}
	tokens, last, err := tokenShape(in)
	if err != nil {
		return err
	}
	sizes := slices.Clone(in.Sizes())
	sizes[len(sizes)-1] = 1
	if err := resizeOut(scaleOut, 2, "scale_out", sizes); err != nil {
		return err
	}
	if err := resizeOut(zpOut, 3, "zero_point_out", sizes); err != nil {
		return err
	}
	const qmin, qmax = -128, 127
	if err := checkChooseQParams(in, qmin, qmax, scaleOut, zpOut, chooseIdx{1, 2}); err != nil {
		return err
	}
	if tokens > 0 && last == 0 {
		return unbox.ArgError(0, "input", "has empty tokens (sizes %v); they have no range to choose parameters for", in.Sizes())
	}
	x := executor.Data[float32](in)
	sd, zd := doubles(scaleOut), longs(zpOut)
	for tok := range tokens {
		lo, hi := minMax(x[tok*last : (tok+1)*last])
		scale, zp, ok := scaleAndZeroPoint(lo, hi, qmin, qmax)
		if !ok {
			return unbox.ArgError(0, "input", "token %d has range [%v, %v], which gives no scale > 0", tok, lo, hi)
		}
		sd[tok], zd[tok] = scale, int64(zp)
	}
	return nil
}
