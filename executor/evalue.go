package executor

import "fmt"

// Tag names the kind of value an EValue holds.
type Tag uint8

const (
	TagNone Tag = iota
	TagInt
	TagDouble
	TagBool
	TagString
	TagTensor
	TagIntList
	TagDoubleList
	TagBoolList
	TagTensorList
	TagOptionalTensorList
)

var tagNames = [...]string{"None", "Int", "Double", "Bool", "String", "Tensor", "IntList", "DoubleList", "BoolList", "TensorList", "OptionalTensorList"}

func (t Tag) String() string {
	if int(t) < len(tagNames) {
		return tagNames[t]
	}
	return fmt.Sprintf("Tag(%d)", t)
}

// EValue is one entry of a method's value table: what kernels and delegates take as arguments.
// List values refer to other entries (as ExecuTorch's boxed lists do), so an Int that a kernel
// updates is seen by every list that holds it.
type EValue struct {
	Tag    Tag
	Int    int64
	Double float64
	Bool   bool
	Str    string
	Tensor *Tensor
	// Lists: IntList and TensorList/OptionalTensorList hold references (nil = None in an
	// optional list); DoubleList and BoolList hold values.
	IntRefs    []*EValue
	Doubles    []float64
	Bools      []bool
	TensorRefs []*EValue
}

// IsNone reports whether the value is None.
func (v *EValue) IsNone() bool { return v == nil || v.Tag == TagNone }

// Ints returns the current integers of an IntList.
func (v *EValue) Ints() []int64 {
	out := make([]int64, len(v.IntRefs))
	for i, r := range v.IntRefs {
		out[i] = r.Int
	}
	return out
}

// Tensors returns the tensors of a TensorList (nil entries for None in an optional list).
func (v *EValue) Tensors() []*Tensor {
	out := make([]*Tensor, len(v.TensorRefs))
	for i, r := range v.TensorRefs {
		if r != nil && r.Tag == TagTensor {
			out[i] = r.Tensor
		}
	}
	return out
}

// Scalar returns an Int, Double or Bool as float64, for arguments typed Scalar in the schema.
func (v *EValue) Scalar() (float64, bool) {
	switch v.Tag {
	case TagInt:
		return float64(v.Int), true
	case TagDouble:
		return v.Double, true
	case TagBool:
		if v.Bool {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

func (v *EValue) String() string {
	switch v.Tag {
	case TagInt:
		return fmt.Sprint(v.Int)
	case TagDouble:
		return fmt.Sprint(v.Double)
	case TagBool:
		return fmt.Sprint(v.Bool)
	case TagString:
		return fmt.Sprintf("%q", v.Str)
	case TagTensor:
		return v.Tensor.String()
	case TagIntList:
		return fmt.Sprint(v.Ints())
	case TagDoubleList:
		return fmt.Sprint(v.Doubles)
	case TagBoolList:
		return fmt.Sprint(v.Bools)
	case TagTensorList, TagOptionalTensorList:
		return fmt.Sprintf("%v", v.Tensors())
	}
	return "None"
}
