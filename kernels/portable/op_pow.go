package portable

import (
	"fmt"
	"math"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(
		executor.Kernel{Name: "aten::pow.Tensor_Tensor_out", DTypes: realBoolTypes, Fn: powTensorTensorOut},
		executor.Kernel{Name: "aten::pow.Tensor_Scalar_out", DTypes: realBoolTypes, Fn: powTensorScalarOut},
		executor.Kernel{Name: "aten::pow.Scalar_out", DTypes: realBoolTypes, Fn: powScalarOut},
	)
}

// powOp raises x to y: math.Pow for floating types, exact integer powers (wrapping) for
// integral ones, where a negative exponent gives 1 for base 1, ±1 for base -1 and 0 otherwise.
var powOp = binaryOp{
	f: math.Pow,
	i: func(x, y int64) (int64, error) { return powInt(x, y), nil },
}

func powInt(a, b int64) int64 {
	if b < 0 {
		switch a {
		case 1:
			return 1
		case -1:
			if b%2 != 0 {
				return -1
			}
			return 1
		}
		return 0
	}
	r := int64(1)
	for b > 0 {
		if b&1 != 0 {
			r *= a
		}
		a *= a
		b >>= 1
	}
	return r
}

func powCheckBool(common executor.ScalarType) error {
	if common == executor.Bool {
		return fmt.Errorf("%w: pow is not supported for bool base and exponent", executor.ErrInvalidArgument)
	}
	return nil
}

// aten::pow.Tensor_Tensor_out(Tensor self, Tensor exponent, *, Tensor(a!) out).
func powTensorTensorOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxPowTensorTensorOut(args)
	if err != nil {
		return err
	}
	a, b, out := u.Self, u.Exponent, u.Out
	common := new(typeState).tensor(a).tensor(b).result()
	if err := powCheckBool(common); err != nil {
		return err
	}
	return arithBinary(a, b, out, common, powOp)
}

// aten::pow.Tensor_Scalar_out(Tensor self, Scalar exponent, *, Tensor(a!) out).
func powTensorScalarOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxPowTensorScalarOut(args)
	if err != nil {
		return err
	}
	a, e, out := u.Self, u.Exponent, u.Out
	common := new(typeState).tensor(a).scalar(e).result()
	if err := powCheckBool(common); err != nil {
		return err
	}
	if !isFloat(common) && e.I < 0 {
		return unbox.ArgError(1, "exponent", "integers to negative integer powers are not allowed")
	}
	if common == executor.Float32 && a.ScalarType() == executor.Float32 && out.ScalarType() == executor.Float32 &&
		a.IsContiguous() && out.IsContiguous() {
		if err := resize(out, a.Sizes()); err != nil {
			return err
		}
		x, dst := executor.Data[float32](a), executor.Data[float32](out)
		ef := float64(float32(e.F))
		if ef == 2 { // x*x is exact in float64, so this equals the rounded math.Pow
			for k, v := range x {
				dst[k] = v * v
			}
			return nil
		}
		for k, v := range x {
			dst[k] = float32(math.Pow(float64(v), ef))
		}
		return nil
	}
	return arithBinary(a, scalarTensor(e), out, common, powOp)
}

// aten::pow.Scalar_out(Scalar self, Tensor exponent, *, Tensor(a!) out).
func powScalarOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxPowScalarOut(args)
	if err != nil {
		return err
	}
	s, b, out := u.Self, u.Exponent, u.Out
	common := new(typeState).tensor(b).scalar(s).result()
	if err := powCheckBool(common); err != nil {
		return err
	}
	return arithBinary(scalarTensor(s), b, out, common, powOp)
}
