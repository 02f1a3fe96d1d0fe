// Package npyconv converts between .npy arrays and runtime tensors, for the CLI and the tests.
package npyconv

import (
	"fmt"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/npy"
)

var toRuntime = map[npy.DType]executor.ScalarType{
	npy.Float32: executor.Float32, npy.Float64: executor.Float64, npy.Float16: executor.Float16,
	npy.Int64: executor.Int64, npy.Int32: executor.Int32, npy.Int16: executor.Int16, npy.Int8: executor.Int8,
	npy.Uint8: executor.Uint8, npy.Bool: executor.Bool, npy.Uint16: executor.Uint16, npy.Uint32: executor.Uint32,
	npy.Uint64: executor.Uint64,
}

// Tensor returns a contiguous tensor over the array's data (not copied).
func Tensor(a *npy.Array) (*executor.Tensor, error) {
	dt, ok := toRuntime[a.DType]
	if !ok {
		return nil, fmt.Errorf("npy dtype %s has no tensor type", a.DType)
	}
	return executor.FromBytes(dt, a.Shape, a.Data)
}

// Array returns the tensor's elements in logical (C) order as an array.
func Array(t *executor.Tensor) (*npy.Array, error) {
	var dt npy.DType
	for k, v := range toRuntime {
		if v == t.ScalarType() {
			dt = k
		}
	}
	if dt == npy.Invalid {
		return nil, fmt.Errorf("%s tensors cannot be written as .npy", executor.DTypeName(t.ScalarType()))
	}
	c := t.Clone()
	if !c.IsContiguous() {
		// Reorder into logical order through a contiguous tensor of the same sizes.
		d, err := executor.NewTensor(t.ScalarType(), t.Sizes()...)
		if err != nil {
			return nil, err
		}
		if err := executor.CopyTensor(d, c); err != nil {
			return nil, err
		}
		c = d
	}
	return &npy.Array{DType: dt, Shape: append([]int(nil), c.Sizes()...), Data: c.Bytes()}, nil
}
