package portable

import (
	"fmt"
	"math"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(
		executor.Kernel{Name: "aten::div.out", DTypes: realBoolTypes, Fn: divOut},
		executor.Kernel{Name: "aten::div.out_mode", DTypes: realBoolTypes, Fn: divOutMode},
		executor.Kernel{Name: "aten::div.Scalar_out", DTypes: realBoolTypes, Fn: divScalarOut},
		executor.Kernel{Name: "aten::div.Scalar_mode_out", DTypes: realBoolTypes, Fn: divScalarModeOut},
	)
}

// divTrueOp is true division; integral and bool operands divide in float32 (PyTorch's default
// dtype), so the out must be floating.
var divTrueOp = binaryOp{f: func(x, y float64) float64 { return x / y }}

// divTrueType is the computation type of true division: the operands' result type if floating,
// else float32.
func divTrueType(s *typeState) executor.ScalarType {
	if t := s.result(); isFloat(t) {
		return t
	}
	return executor.Float32
}

// aten::div.out(Tensor self, Tensor other, *, Tensor(a!) out).
func divOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxDivOut(args)
	if err != nil {
		return err
	}
	a, b, out := u.Self, u.Other, u.Out
	return divTrue(a, b, out)
}

func divTrue(a, b, out *executor.Tensor) error {
	if ok, err := arithFastF32(a, b, out, arithF32Div); ok {
		return err
	}
	return arithBinary(a, b, out, divTrueType(new(typeState).tensor(a).tensor(b)), divTrueOp)
}

// aten::div.out_mode(Tensor self, Tensor other, *, str? rounding_mode, Tensor(a!) out).
func divOutMode(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxDivOutMode(args)
	if err != nil {
		return err
	}
	a, b, out := u.Self, u.Other, u.Out
	if err := divMode(u.RoundingMode); err != nil {
		return err
	}
	if !u.RoundingMode.OK {
		return divTrue(a, b, out)
	}
	common := new(typeState).tensor(a).tensor(b).result()
	op, err := divRoundingOp(u.RoundingMode.Val, common)
	if err != nil {
		return err
	}
	return arithBinary(a, b, out, common, op)
}

// aten::div.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out).
func divScalarOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxDivScalarOut(args)
	if err != nil {
		return err
	}
	a, s, out := u.Self, u.Other, u.Out
	return divScalarTrue(a, s, out)
}

func divScalarTrue(a *executor.Tensor, s scalar, out *executor.Tensor) error {
	common := divTrueType(new(typeState).tensor(a).scalar(s))
	if common == executor.Float32 {
		if ok, err := arithFastF32Scalar(a, out, float32(s.F), arithF32Div, false); ok {
			return err
		}
	}
	return arithBinary(a, scalarTensor(s), out, common, divTrueOp)
}

// aten::div.Scalar_mode_out(Tensor self, Scalar other, *, str? rounding_mode, Tensor(a!) out).
func divScalarModeOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxDivScalarModeOut(args)
	if err != nil {
		return err
	}
	a, s, out := u.Self, u.Other, u.Out
	if err := divMode(u.RoundingMode); err != nil {
		return err
	}
	if !u.RoundingMode.OK {
		return divScalarTrue(a, s, out)
	}
	common := new(typeState).tensor(a).scalar(s).result()
	op, err := divRoundingOp(u.RoundingMode.Val, common)
	if err != nil {
		return err
	}
	if !isFloat(common) && s.I == 0 {
		return arithDivZero("div")
	}
	return arithBinary(a, scalarTensor(s), out, common, op)
}

// divMode checks rounding_mode (argument 2): None, "trunc" or "floor".
func divMode(mode optional[string]) error {
	if mode.OK && mode.Val != "trunc" && mode.Val != "floor" {
		return unbox.ArgError(2, "rounding_mode", "want None, \"trunc\" or \"floor\", got %q", mode.Val)
	}
	return nil
}

// divRoundingOp is division rounded toward zero ("trunc") or down ("floor") in the computation
// type common; integral division by zero is an error.
func divRoundingOp(mode string, common executor.ScalarType) (binaryOp, error) {
	if common == executor.Bool {
		return binaryOp{}, fmt.Errorf("%w: div with rounding_mode=%q is not supported for bool", executor.ErrInvalidArgument, mode)
	}
	m := arithOpmath(common)
	if mode == "trunc" {
		return binaryOp{
			f: func(x, y float64) float64 { return math.Trunc(roundTo(m, x/y)) },
			i: func(x, y int64) (int64, error) {
				if y == 0 {
					return 0, arithDivZero("div")
				}
				return x / y, nil
			},
		}, nil
	}
	return binaryOp{
		f: func(x, y float64) float64 { return divFloorFloat(x, y, m) },
		i: func(x, y int64) (int64, error) {
			if y == 0 {
				return 0, arithDivZero("div")
			}
			return divFloorInt(x, y), nil
		},
	}, nil
}

// divFloorFloat is PyTorch's floor division of floats, computed with every step rounded to the
// type m (float32 or float64): (a - fmod(a, b)) / b, corrected so that a == q*b + remainder(a, b)
// holds, and rounded to the nearest integer to undo the division's rounding error.
func divFloorFloat(a, b float64, m executor.ScalarType) float64 {
	if b == 0 {
		return roundTo(m, a/b)
	}
	mod := math.Mod(a, b)
	div := roundTo(m, roundTo(m, a-mod)/b)
	if mod != 0 && (b < 0) != (mod < 0) {
		div = roundTo(m, div-1)
	}
	if div == 0 {
		return math.Copysign(0, a/b)
	}
	fd := math.Floor(div)
	if roundTo(m, div-fd) > 0.5 {
		fd = roundTo(m, fd+1)
	}
	return fd
}

// divFloorInt is floor division of integers (b != 0).
func divFloorInt(a, b int64) int64 {
	q := a / b
	if (a < 0) != (b < 0) && q*b != a {
		q--
	}
	return q
}
