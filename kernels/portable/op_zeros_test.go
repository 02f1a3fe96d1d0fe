package portable

import (
	"testing"

	"github.com/etgo/etgo/runtime"
)

func TestZerosOnes(t *testing.T) {
	shapeRun(t, "aten::zeros.out", []shapeCase{
		{"float32", []any{[]int64{2, 2}, tensor(t, []float32{9, 9, 9, 9}, 2, 2)}, []int{2, 2}, []float64{0, 0, 0, 0}},
		{"dynamic int32", []any{[]int64{3}, dynamic(t, runtime.Int32, 5)}, []int{3}, []float64{0, 0, 0}},
		{"empty", []any{[]int64{0, 4}, empty(t, runtime.Float32, 0, 4)}, []int{0, 4}, nil},
	})
	shapeRun(t, "aten::ones.out", []shapeCase{
		{"float16", []any{[]int64{2}, empty(t, runtime.Float16, 2)}, []int{2}, []float64{1, 1}},
		{"bool", []any{[]int64{1, 2}, empty(t, runtime.Bool, 1, 2)}, []int{1, 2}, []float64{1, 1}},
		{"uint8 scalar", []any{[]int64{}, empty(t, runtime.Uint8)}, []int{}, []float64{1}},
	})
	wantErr(t, call(t, "aten::zeros.out", []int64{-1}, dynamic(t, runtime.Float32, 4), none), "negative")
	wantErr(t, call(t, "aten::ones.out", []int64{3}, empty(t, runtime.Float32, 2), none), "cannot resize a static tensor")
}
