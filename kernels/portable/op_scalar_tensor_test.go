package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestScalarTensor(t *testing.T) {
	shapeRun(t, "aten::scalar_tensor.out", []shapeCase{
		{"float", []any{2.5, empty(t, executor.Float32)}, []int{}, []float64{2.5}},
		{"int into float64", []any{-3, empty(t, executor.Float64)}, []int{}, []float64{-3}},
		{"bool", []any{true, empty(t, executor.Bool)}, []int{}, []float64{1}},
		{"float into int64", []any{-2.9, empty(t, executor.Int64)}, []int{}, []float64{-2}},
	})
	wantErr(t, call(t, "aten::scalar_tensor.out", 1, empty(t, executor.Float32, 1), none), "cannot resize a rank-1 tensor")
	wantErr(t, call(t, "aten::scalar_tensor.out", 70000, empty(t, executor.Int16), none), "overflows int16")
	wantErr(t, call(t, "aten::scalar_tensor.out", []int64{1}, empty(t, executor.Int16), none), "argument 0 (s)")
}
