package optimized

import (
	"fmt"

	"github.com/etgo/etgo/executor"
)

// Argument accessors, the same as the portable library's (the generated unboxers of both
// libraries call them by these names, and an optimized kernel must refuse a bad program with the
// portable kernel's words, since either may run it): each names the argument in its error, so a bad program says exactly what
// is wrong ("argument 2 (alpha): want Int or Double, got Tensor").

func argErr(i int, name, format string, a ...any) error {
	return fmt.Errorf("%w: argument %d (%s): %s", executor.ErrInvalidArgument, i, name, fmt.Sprintf(format, a...))
}

func arg(args []*executor.EValue, i int, name string) (*executor.EValue, error) {
	if i < 0 || i >= len(args) || args[i] == nil {
		return nil, argErr(i, name, "missing (the call has %d arguments)", len(args))
	}
	return args[i], nil
}

// wantArgs checks the argument count: the schema's arguments plus the return slot.
func wantArgs(args []*executor.EValue, n int) error {
	if len(args) != n {
		return fmt.Errorf("%w: %d arguments, the schema takes %d (with the return slot)", executor.ErrInvalidArgument, len(args), n)
	}
	return nil
}

func tensorArg(args []*executor.EValue, i int, name string) (*executor.Tensor, error) {
	v, err := arg(args, i, name)
	if err != nil {
		return nil, err
	}
	if v.Tag != executor.TagTensor || v.Tensor == nil {
		return nil, argErr(i, name, "want Tensor, got %s", v.Tag)
	}
	return v.Tensor, nil
}

// optTensorArg returns nil for None.
func optTensorArg(args []*executor.EValue, i int, name string) (*executor.Tensor, error) {
	v, err := arg(args, i, name)
	if err != nil {
		return nil, err
	}
	if v.IsNone() {
		return nil, nil
	}
	return tensorArg(args, i, name)
}

func intArg(args []*executor.EValue, i int, name string) (int64, error) {
	v, err := arg(args, i, name)
	if err != nil {
		return 0, err
	}
	if v.Tag != executor.TagInt {
		return 0, argErr(i, name, "want Int, got %s", v.Tag)
	}
	return v.Int, nil
}

// optIntArg returns (0, false) for None.
func optIntArg(args []*executor.EValue, i int, name string) (int64, bool, error) {
	v, err := arg(args, i, name)
	if err != nil || v.IsNone() {
		return 0, false, err
	}
	n, err := intArg(args, i, name)
	return n, err == nil, err
}

func boolArg(args []*executor.EValue, i int, name string) (bool, error) {
	v, err := arg(args, i, name)
	if err != nil {
		return false, err
	}
	if v.Tag != executor.TagBool {
		return false, argErr(i, name, "want Bool, got %s", v.Tag)
	}
	return v.Bool, nil
}

func doubleArg(args []*executor.EValue, i int, name string) (float64, error) {
	v, err := arg(args, i, name)
	if err != nil {
		return 0, err
	}
	switch v.Tag {
	case executor.TagDouble:
		return v.Double, nil
	case executor.TagInt:
		return float64(v.Int), nil
	}
	return 0, argErr(i, name, "want Double, got %s", v.Tag)
}

// optDoubleArg returns (0, false) for None.
func optDoubleArg(args []*executor.EValue, i int, name string) (float64, bool, error) {
	v, err := arg(args, i, name)
	if err != nil || v.IsNone() {
		return 0, false, err
	}
	d, err := doubleArg(args, i, name)
	return d, err == nil, err
}

// optBoolArg returns (false, false) for None.
func optBoolArg(args []*executor.EValue, i int, name string) (bool, bool, error) {
	v, err := arg(args, i, name)
	if err != nil || v.IsNone() {
		return false, false, err
	}
	b, err := boolArg(args, i, name)
	return b, err == nil, err
}

func stringArg(args []*executor.EValue, i int, name string) (string, error) {
	v, err := arg(args, i, name)
	if err != nil {
		return "", err
	}
	if v.Tag != executor.TagString {
		return "", argErr(i, name, "want String, got %s", v.Tag)
	}
	return v.Str, nil
}

// optStringArg reads a `str?` argument: ("", false) for None.
func optStringArg(args []*executor.EValue, i int, name string) (string, bool, error) {
	v, err := arg(args, i, name)
	if err != nil || v.IsNone() {
		return "", false, err
	}
	s, err := stringArg(args, i, name)
	return s, err == nil, err
}

// scalar is a Scalar argument: its value and whether it is floating (a wrapped Double) or
// boolean, which decide type promotion.
type scalar struct {
	f       float64
	i       int64
	isFloat bool
	isBool  bool
}

func scalarArg(args []*executor.EValue, i int, name string) (scalar, error) {
	v, err := arg(args, i, name)
	if err != nil {
		return scalar{}, err
	}
	switch v.Tag {
	case executor.TagInt:
		return scalar{f: float64(v.Int), i: v.Int}, nil
	case executor.TagDouble:
		return scalar{f: v.Double, i: int64(v.Double), isFloat: true}, nil
	case executor.TagBool:
		s := scalar{isBool: true}
		if v.Bool {
			s.f, s.i = 1, 1
		}
		return s, nil
	}
	return scalar{}, argErr(i, name, "want a Scalar (Int, Double or Bool), got %s", v.Tag)
}

// optScalarArg reads a `Scalar?` argument: (_, false) for None.
func optScalarArg(args []*executor.EValue, i int, name string) (scalar, bool, error) {
	v, err := arg(args, i, name)
	if err != nil || v.IsNone() {
		return scalar{}, false, err
	}
	s, err := scalarArg(args, i, name)
	return s, err == nil, err
}

func intListArg(args []*executor.EValue, i int, name string) ([]int64, error) {
	v, err := arg(args, i, name)
	if err != nil {
		return nil, err
	}
	if v.Tag != executor.TagIntList {
		return nil, argErr(i, name, "want IntList, got %s", v.Tag)
	}
	return v.Ints(), nil
}

// optIntListArg returns nil for None.
func optIntListArg(args []*executor.EValue, i int, name string) ([]int64, bool, error) {
	v, err := arg(args, i, name)
	if err != nil || v.IsNone() {
		return nil, false, err
	}
	l, err := intListArg(args, i, name)
	return l, err == nil, err
}

// optDoubleListArg reads a float[]? argument (nil, false for None).
func optDoubleListArg(args []*executor.EValue, i int, name string) ([]float64, bool, error) {
	v, err := arg(args, i, name)
	if err != nil || v.IsNone() {
		return nil, false, err
	}
	if v.Tag != executor.TagDoubleList {
		return nil, false, argErr(i, name, "want DoubleList or None, got %s", v.Tag)
	}
	return v.Doubles, true, nil
}

func boolListArg(args []*executor.EValue, i int, name string) ([]bool, error) {
	v, err := arg(args, i, name)
	if err != nil {
		return nil, err
	}
	if v.Tag != executor.TagBoolList {
		return nil, argErr(i, name, "want BoolList, got %s", v.Tag)
	}
	return v.Bools, nil
}

func tensorListArg(args []*executor.EValue, i int, name string) ([]*executor.Tensor, error) {
	v, err := arg(args, i, name)
	if err != nil {
		return nil, err
	}
	if v.Tag != executor.TagTensorList {
		return nil, argErr(i, name, "want TensorList, got %s", v.Tag)
	}
	ts := v.Tensors()
	for k, t := range ts {
		if t == nil {
			return nil, argErr(i, name, "item %d is not a tensor", k)
		}
	}
	return ts, nil
}

// optTensorListArg returns the tensors of an OptionalTensorList, nil for None entries.
func optTensorListArg(args []*executor.EValue, i int, name string) ([]*executor.Tensor, error) {
	v, err := arg(args, i, name)
	if err != nil {
		return nil, err
	}
	if v.Tag != executor.TagOptionalTensorList && v.Tag != executor.TagTensorList {
		return nil, argErr(i, name, "want a list of optional tensors, got %s", v.Tag)
	}
	return v.Tensors(), nil
}

// normDim maps a possibly negative dimension into [0, rank); rank 0 accepts -1 and 0.
func normDim(d int64, rank int, i int, name string) (int, error) {
	r := int64(max(rank, 1))
	if d < -r || d >= r {
		return 0, argErr(i, name, "dimension %d out of range for rank %d", d, rank)
	}
	if d < 0 {
		d += r
	}
	return int(d), nil
}
