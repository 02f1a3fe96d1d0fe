package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestFill(t *testing.T) {
	shapeRun(t, "aten::fill.Scalar_out", []shapeCase{
		{"float32", []any{shapeIota(t, 2, 2), 2.5, empty(t, executor.Float32, 2, 2)}, []int{2, 2}, []float64{2.5, 2.5, 2.5, 2.5}},
		{"int value into float", []any{shapeIota(t, 3), 7, empty(t, executor.Float32, 3)}, []int{3}, []float64{7, 7, 7}},
		{"float value into int truncates", []any{tensor(t, []int32{1, 2}, 2), -2.75, empty(t, executor.Int32, 2)}, []int{2}, []float64{-2, -2}},
		{"bool", []any{tensor(t, []bool{false}, 1), 3, empty(t, executor.Bool, 1)}, []int{1}, []float64{1}},
		{"dynamic out takes self's sizes", []any{shapeIota(t, 2, 3), 1, dynamic(t, executor.Float32, 4, 4)}, []int{2, 3}, []float64{1, 1, 1, 1, 1, 1}},
	})
	shapeRun(t, "aten::fill.Tensor_out", []shapeCase{
		{"0-dim float into int64", []any{tensor(t, []int64{1, 2, 3}, 3), tensor(t, []float32{-4.5}), empty(t, executor.Int64, 3)}, []int{3}, []float64{-4, -4, -4}},
		{"0-dim bool into float", []any{shapeIota(t, 2), tensor(t, []bool{true}), empty(t, executor.Float32, 2)}, []int{2}, []float64{1, 1}},
	})
	wantErr(t, call(t, "aten::fill.Scalar_out", tensor(t, []int8{1}, 1), 300, empty(t, executor.Int8, 1), none), "overflows int8")
	wantErr(t, call(t, "aten::fill.Scalar_out", shapeIota(t, 2), 1, empty(t, executor.Int32, 2), none), "keeps the dtype")
	wantErr(t, call(t, "aten::fill.Tensor_out", shapeIota(t, 2), shapeIota(t, 2), empty(t, executor.Float32, 2), none), "must be a 0-dim tensor")
	wantErr(t, call(t, "aten::fill.Scalar_out", shapeIota(t, 2), 1, empty(t, executor.Float32, 3), none), "cannot resize a static tensor")
}
