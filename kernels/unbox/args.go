package unbox

import (
	"fmt"

	"github.com/etgo/etgo/executor"
)

// ArgError is the error of argument i, named name: "argument 2 (alpha): …".
func ArgError(i int, name, format string, a ...any) error {
	return fmt.Errorf("%w: argument %d (%s): %s", executor.ErrInvalidArgument, i, name, fmt.Sprintf(format, a...))
}

// Arg returns argument i, or an error if the call has no such argument or it is nil.
func Arg(args []*executor.EValue, i int, name string) (*executor.EValue, error) {
	if i < 0 || i >= len(args) || args[i] == nil {
		return nil, ArgError(i, name, "missing (the call has %d arguments)", len(args))
	}
	return args[i], nil
}

// Count checks the argument count: the schema's arguments plus the return slot.
func Count(args []*executor.EValue, n int) error {
	if len(args) != n {
		return fmt.Errorf("%w: %d arguments, the schema takes %d (with the return slot)", executor.ErrInvalidArgument, len(args), n)
	}
	return nil
}

// TensorArg reads a Tensor argument.
func TensorArg(args []*executor.EValue, i int, name string) (*executor.Tensor, error) {
	v, err := Arg(args, i, name)
	if err != nil {
		return nil, err
	}
	if v.Tag != executor.TagTensor || v.Tensor == nil {
		return nil, ArgError(i, name, "want Tensor, got %s", v.Tag)
	}
	return v.Tensor, nil
}

// OptTensorArg reads a Tensor? argument: nil for None.
func OptTensorArg(args []*executor.EValue, i int, name string) (*executor.Tensor, error) {
	v, err := Arg(args, i, name)
	if err != nil {
		return nil, err
	}
	if v.IsNone() {
		return nil, nil
	}
	return TensorArg(args, i, name)
}

// IntArg reads an int (or SymInt) argument.
func IntArg(args []*executor.EValue, i int, name string) (int64, error) {
	v, err := Arg(args, i, name)
	if err != nil {
		return 0, err
	}
	if v.Tag != executor.TagInt {
		return 0, ArgError(i, name, "want Int, got %s", v.Tag)
	}
	return v.Int, nil
}

// OptIntArg reads an int? argument: (0, false) for None.
func OptIntArg(args []*executor.EValue, i int, name string) (int64, bool, error) {
	v, err := Arg(args, i, name)
	if err != nil || v.IsNone() {
		return 0, false, err
	}
	n, err := IntArg(args, i, name)
	return n, err == nil, err
}

// BoolArg reads a bool argument.
func BoolArg(args []*executor.EValue, i int, name string) (bool, error) {
	v, err := Arg(args, i, name)
	if err != nil {
		return false, err
	}
	if v.Tag != executor.TagBool {
		return false, ArgError(i, name, "want Bool, got %s", v.Tag)
	}
	return v.Bool, nil
}

// OptBoolArg reads a bool? argument: (false, false) for None.
func OptBoolArg(args []*executor.EValue, i int, name string) (bool, bool, error) {
	v, err := Arg(args, i, name)
	if err != nil || v.IsNone() {
		return false, false, err
	}
	b, err := BoolArg(args, i, name)
	return b, err == nil, err
}

// DoubleArg reads a float argument; an Int is accepted, as the official unboxing accepts it.
func DoubleArg(args []*executor.EValue, i int, name string) (float64, error) {
	v, err := Arg(args, i, name)
	if err != nil {
		return 0, err
	}
	switch v.Tag {
	case executor.TagDouble:
		return v.Double, nil
	case executor.TagInt:
		return float64(v.Int), nil
	}
	return 0, ArgError(i, name, "want Double, got %s", v.Tag)
}

// OptDoubleArg reads a float? argument: (0, false) for None.
func OptDoubleArg(args []*executor.EValue, i int, name string) (float64, bool, error) {
	v, err := Arg(args, i, name)
	if err != nil || v.IsNone() {
		return 0, false, err
	}
	d, err := DoubleArg(args, i, name)
	return d, err == nil, err
}

// StringArg reads a str argument.
func StringArg(args []*executor.EValue, i int, name string) (string, error) {
	v, err := Arg(args, i, name)
	if err != nil {
		return "", err
	}
	if v.Tag != executor.TagString {
		return "", ArgError(i, name, "want String, got %s", v.Tag)
	}
	return v.Str, nil
}

// OptStringArg reads a str? argument: ("", false) for None.
func OptStringArg(args []*executor.EValue, i int, name string) (string, bool, error) {
	v, err := Arg(args, i, name)
	if err != nil || v.IsNone() {
		return "", false, err
	}
	s, err := StringArg(args, i, name)
	return s, err == nil, err
}

// Scalar is a Scalar argument: its value and whether it is floating (a wrapped Double) or
// boolean, which decide type promotion.
type Scalar struct {
	F       float64
	I       int64
	IsFloat bool
	IsBool  bool
}

// ScalarArg reads a Scalar argument (Int, Double or Bool).
func ScalarArg(args []*executor.EValue, i int, name string) (Scalar, error) {
	v, err := Arg(args, i, name)
	if err != nil {
		return Scalar{}, err
	}
	switch v.Tag {
	case executor.TagInt:
		return Scalar{F: float64(v.Int), I: v.Int}, nil
	case executor.TagDouble:
		return Scalar{F: v.Double, I: int64(v.Double), IsFloat: true}, nil
	case executor.TagBool:
		s := Scalar{IsBool: true}
		if v.Bool {
			s.F, s.I = 1, 1
		}
		return s, nil
	}
	return Scalar{}, ArgError(i, name, "want a Scalar (Int, Double or Bool), got %s", v.Tag)
}

// OptScalarArg reads a Scalar? argument: (_, false) for None.
func OptScalarArg(args []*executor.EValue, i int, name string) (Scalar, bool, error) {
	v, err := Arg(args, i, name)
	if err != nil || v.IsNone() {
		return Scalar{}, false, err
	}
	s, err := ScalarArg(args, i, name)
	return s, err == nil, err
}

// IntListArg reads an int[] (or SymInt[]) argument.
func IntListArg(args []*executor.EValue, i int, name string) ([]int64, error) {
	v, err := Arg(args, i, name)
	if err != nil {
		return nil, err
	}
	if v.Tag != executor.TagIntList {
		return nil, ArgError(i, name, "want IntList, got %s", v.Tag)
	}
	return v.Ints(), nil
}

// OptIntListArg reads an int[]? argument: (nil, false) for None.
func OptIntListArg(args []*executor.EValue, i int, name string) ([]int64, bool, error) {
	v, err := Arg(args, i, name)
	if err != nil || v.IsNone() {
		return nil, false, err
	}
	l, err := IntListArg(args, i, name)
	return l, err == nil, err
}

// OptDoubleListArg reads a float[]? argument: (nil, false) for None.
func OptDoubleListArg(args []*executor.EValue, i int, name string) ([]float64, bool, error) {
	v, err := Arg(args, i, name)
	if err != nil || v.IsNone() {
		return nil, false, err
	}
	if v.Tag != executor.TagDoubleList {
		return nil, false, ArgError(i, name, "want DoubleList or None, got %s", v.Tag)
	}
	return v.Doubles, true, nil
}

// BoolListArg reads a bool[] argument.
func BoolListArg(args []*executor.EValue, i int, name string) ([]bool, error) {
	v, err := Arg(args, i, name)
	if err != nil {
		return nil, err
	}
	if v.Tag != executor.TagBoolList {
		return nil, ArgError(i, name, "want BoolList, got %s", v.Tag)
	}
	return v.Bools, nil
}

// TensorListArg reads a Tensor[] argument; every item must be a tensor.
func TensorListArg(args []*executor.EValue, i int, name string) ([]*executor.Tensor, error) {
	v, err := Arg(args, i, name)
	if err != nil {
		return nil, err
	}
	if v.Tag != executor.TagTensorList {
		return nil, ArgError(i, name, "want TensorList, got %s", v.Tag)
	}
	ts := v.Tensors()
	for k, t := range ts {
		if t == nil {
			return nil, ArgError(i, name, "item %d is not a tensor", k)
		}
	}
	return ts, nil
}

// OptTensorListArg reads a Tensor?[] argument: nil for None entries.
func OptTensorListArg(args []*executor.EValue, i int, name string) ([]*executor.Tensor, error) {
	v, err := Arg(args, i, name)
	if err != nil {
		return nil, err
	}
	if v.Tag != executor.TagOptionalTensorList && v.Tag != executor.TagTensorList {
		return nil, ArgError(i, name, "want a list of optional tensors, got %s", v.Tag)
	}
	return v.Tensors(), nil
}

// NormDim maps a possibly negative dimension into [0, rank); rank 0 accepts -1 and 0. The
// error names argument i.
func NormDim(d int64, rank int, i int, name string) (int, error) {
	r := int64(max(rank, 1))
	if d < -r || d >= r {
		return 0, ArgError(i, name, "dimension %d out of range for rank %d", d, rank)
	}
	if d < 0 {
		d += r
	}
	return int(d), nil
}
