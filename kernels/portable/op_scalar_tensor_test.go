package portable

import (
	"testing"

	"github.com/etgo/etgo/runtime"
)

func TestScalarTensor(t *testing.T) {
	shapeRun(t, "aten::scalar_tensor.out", []shapeCase{
		{"float", []any{2.5, empty(t, runtime.Float32)}, []int{}, []float64{2.5}},
		{"int into float64", []any{-3, empty(t, runtime.Float64)}, []int{}, []float64{-3}},
		{"bool", []any{true, empty(t, runtime.Bool)}, []int{}, []float64{1}},
		{"float into int64", []any{-2.9, empty(t, runtime.Int64)}, []int{}, []float64{-2}},
	})
	wantErr(t, call(t, "aten::scalar_tensor.out", 1, empty(t, runtime.Float32, 1), none), "cannot resize a rank-1 tensor")
	wantErr(t, call(t, "aten::scalar_tensor.out", 70000, empty(t, runtime.Int16), none), "overflows int16")
	wantErr(t, call(t, "aten::scalar_tensor.out", []int64{1}, empty(t, runtime.Int16), none), "argument 0 (s)")
}
