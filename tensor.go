package etgo

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/npy"
)

// NewTensor makes a contiguous tensor of data with the given sizes (their product must be
// len(data)); the tensor copies data.
func NewTensor[T executor.Element](data []T, sizes ...int) (*Tensor, error) {
	return executor.FromSlice(data, sizes...)
}

// Values returns a tensor's elements in logical (row-major) order, as type T, which must be
// its element type.
func Values[T executor.Element](t *Tensor) ([]T, error) { return executor.Values[T](t) }

// ReadNPY reads a tensor from a .npy file.
func ReadNPY(path string) (*Tensor, error) {
	a, err := npy.Load(path)
	if err != nil {
		return nil, err
	}
	return npyconv.Tensor(a)
}

// WriteNPY writes a tensor as a .npy file.
func WriteNPY(path string, t *Tensor) error {
	a, err := npyconv.Array(t)
	if err != nil {
		return err
	}
	return npy.Save(path, a)
}

// TensorValue, IntValue, DoubleValue and BoolValue box inputs for Execute.
func TensorValue(t *Tensor) *EValue { return &EValue{Tag: executor.TagTensor, Tensor: t} }
func IntValue(v int64) *EValue      { return &EValue{Tag: executor.TagInt, Int: v} }
func DoubleValue(v float64) *EValue { return &EValue{Tag: executor.TagDouble, Double: v} }
func BoolValue(v bool) *EValue      { return &EValue{Tag: executor.TagBool, Bool: v} }
