package quantized

import (
	"slices"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

// quantized_decomposed::add.out(Tensor a, float a_scale, int a_zero_point, int a_quant_min, int
// a_quant_max, Tensor b, float b_scale, int b_zero_point, int b_quant_min, int b_quant_max,
// float out_scale, int out_zero_point, int out_quant_min, int out_quant_max, *, Tensor(a!)
// out): a and b dequantized, added in float32 and quantized again, elementwise over tensors of
// one shape and one integer dtype. The scales are rounded to float32 and the zero points
// truncated to int32 first ("to match fbgemm"); every quant range must lie in [0, 255].
func addOut(_ *executor.KernelContext, args []*executor.EValue) error {
	if err := unbox.Count(args, 16); err != nil {
		return err
	}
	var err error
	tensor := func(i int, name string) *executor.Tensor {
		var t *executor.Tensor
		if err == nil {
			t, err = unbox.TensorArg(args, i, name)
		}
		return t
	}
	double := func(i int, name string) float64 {
		var d float64
		if err == nil {
			d, err = unbox.DoubleArg(args, i, name)
		}
		return d
	}
	integer := func(i int, name string) int64 {
		var n int64
		if err == nil {
			n, err = unbox.IntArg(args, i, name)
		}
		return n
	}
	a, aScale, aZP, aMin, aMax := tensor(0, "a"), double(1, "a_scale"), integer(2, "a_zero_point"), integer(3, "a_quant_min"), integer(4, "a_quant_max")
	b, bScale, bZP, bMin, bMax := tensor(5, "b"), double(6, "b_scale"), integer(7, "b_zero_point"), integer(8, "b_quant_min"), integer(9, "b_quant_max")
	oScale, oZP, oMin, oMax := double(10, "out_scale"), integer(11, "out_zero_point"), integer(12, "out_quant_min"), integer(13, "out_quant_max")
	if err != nil {
		return err
	}
	out, err := outArg(args, 14, "out")
	if err != nil {
		return err
	}
	if err := returnSlot(args, out); err != nil {
		return err
	}
	if !slices.Equal(a.Sizes(), b.Sizes()) || !slices.Equal(a.Sizes(), out.Sizes()) ||
		a.ScalarType() != b.ScalarType() || a.ScalarType() != out.ScalarType() {
		return unbox.ArgError(5, "b", "a, b and out must have one shape and dtype, got %s%v, %s%v and %s%v",
			dtypeName(a.ScalarType()), a.Sizes(), dtypeName(b.ScalarType()), b.Sizes(), dtypeName(out.ScalarType()), out.Sizes())
	}
	for _, r := range []struct {
		i          int
		name       string
		qmin, qmax int64
	}{{3, "a_quant_min", aMin, aMax}, {8, "b_quant_min", bMin, bMax}, {12, "out_quant_min", oMin, oMax}} {
		if r.qmin < 0 || r.qmax > 255 || r.qmin > r.qmax {
			return unbox.ArgError(r.i, r.name, "range [%d, %d] must lie in [0, 255] with min <= max", r.qmin, r.qmax)
		}
	}
	switch a.ScalarType() {
	case executor.Uint8, executor.Int8, executor.Int16, executor.Int32, executor.Int64:
	default:
		return unbox.ArgError(0, "a", "must be an integer tensor, got %s", dtypeName(a.ScalarType()))
	}
	if err := sameDimOrder(a, b, 5, "b"); err != nil {
		return err
	}
	if err := sameDimOrder(a, out, 14, "out"); err != nil {
		return err
	}
	as, bs, os := float32(aScale), float32(bScale), float32(oScale)
	az, bz, oz := int64(int32(aZP)), int64(int32(bZP)), int64(int32(oZP))
	inv := invScale(float64(os))
	av, bv := integers(a), integers(b)
	q := make([]int64, len(av))
	for i := range av {
		// dequantize_val: (value - zero_point) in int64, times the scale in float64, as float32.
		da := float32(float64(av[i]-az) * float64(as))
		db := float32(float64(bv[i]-bz) * float64(bs))
		q[i] = quantizeVal(inv*(da+db), oz, oMin, oMax)
	}
	storeInts(out, q)
	return nil
}

// integers reads an integer tensor (uint8, int8, int16, int32, int64) as int64 (memory order).
func integers(t *executor.Tensor) []int64 {
	if t.ScalarType() == executor.Int64 {
		return longs(t)
	}
	q := quantized(t)
	out := make([]int64, len(q))
	for i, v := range q {
		out[i] = int64(v)
	}
	return out
}
