package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestZerosOnes(t *testing.T) {
	shapeRun(t, "aten::zeros.out", []shapeCase{
		{"float32", []any{[]int64{2, 2}, tensor(t, []float32{9, 9, 9, 9}, 2, 2)}, []int{2, 2}, []float64{0, 0, 0, 0}},
		{"dynamic int32", []any{[]int64{3}, dynamic(t, executor.Int32, 5)}, []int{3}, []float64{0, 0, 0}},
		{"empty", []any{[]int64{0, 4}, empty(t, executor.Float32, 0, 4)}, []int{0, 4}, nil},
	})
	shapeRun(t, "aten::ones.out", []shapeCase{
		{"float16", []any{[]int64{2}, empty(t, executor.Float16, 2)}, []int{2}, []float64{1, 1}},
		{"bool", []any{[]int64{1, 2}, empty(t, executor.Bool, 1, 2)}, []int{1, 2}, []float64{1, 1}},
		{"uint8 scalar", []any{[]int64{}, empty(t, executor.Uint8)}, []int{}, []float64{1}},
	})
	wantErr(t, call(t, "aten::zeros.out", []int64{-1}, dynamic(t, executor.Float32, 4), none), "negative")
	wantErr(t, call(t, "aten::ones.out", []int64{3}, empty(t, executor.Float32, 2), none), "cannot resize a static tensor")
}
