// Package npyconv converts between .npy arrays and runtime tensors, for the CLI and the tests.
package npyconv

import (
	"fmt"

	"github.com/etgo/etgo/npy"
	"github.com/etgo/etgo/runtime"
)

var toRuntime = map[npy.DType]runtime.ScalarType{
	npy.Float32: runtime.Float32, npy.Float64: runtime.Float64, npy.Float16: runtime.Float16,
	npy.Int64: runtime.Int64, npy.Int32: runtime.Int32, npy.Int16: runtime.Int16, npy.Int8: runtime.Int8,
	npy.Uint8: runtime.Uint8, npy.Bool: runtime.Bool, npy.Uint16: runtime.Uint16, npy.Uint32: runtime.Uint32,
	npy.Uint64: runtime.Uint64,
}

// Tensor returns a contiguous tensor over the array's data (not copied).
func Tensor(a *npy.Array) (*runtime.Tensor, error) {
	dt, ok := toRuntime[a.DType]
	if !ok {
		return nil, fmt.Errorf("npy dtype %s has no tensor type", a.DType)
	}
	return runtime.FromBytes(dt, a.Shape, a.Data)
}

// Array returns the tensor's elements in logical (C) order as an array.
func Array(t *runtime.Tensor) (*npy.Array, error) {
	var dt npy.DType
	for k, v := range toRuntime {
		if v == t.ScalarType() {
			dt = k
		}
	}
	if dt == npy.Invalid {
		return nil, fmt.Errorf("%s tensors cannot be written as .npy", runtime.DTypeName(t.ScalarType()))
	}
	c := t.Clone()
	if !c.IsContiguous() {
		// Reorder into logical order through a contiguous tensor of the same sizes.
		d, err := runtime.NewTensor(t.ScalarType(), t.Sizes()...)
		if err != nil {
			return nil, err
		}
		if err := runtime.CopyTensor(d, c); err != nil {
			return nil, err
		}
		c = d
	}
	return &npy.Array{DType: dt, Shape: append([]int(nil), c.Sizes()...), Data: c.Bytes()}, nil
}
