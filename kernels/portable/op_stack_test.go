package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestStack(t *testing.T) {
	f32 := executor.Float32
	x := shapeIota(t, 2, 3)
	y := tensor(t, []float32{10, 11, 12, 13, 14, 15}, 2, 3)
	ts := func(v ...*executor.Tensor) []*executor.Tensor { return v }
	shapeRun(t, "aten::stack.out", []shapeCase{
		{"dim 0", []any{ts(x, y), 0, empty(t, f32, 2, 2, 3)}, []int{2, 2, 3}, []float64{0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15}},
		{"dim 1", []any{ts(x, y), 1, empty(t, f32, 2, 2, 3)}, []int{2, 2, 3}, []float64{0, 1, 2, 10, 11, 12, 3, 4, 5, 13, 14, 15}},
		{"dim -1", []any{ts(x, y), -1, empty(t, f32, 2, 3, 2)}, []int{2, 3, 2}, []float64{0, 10, 1, 11, 2, 12, 3, 13, 4, 14, 5, 15}},
		{"0-d", []any{ts(tensor(t, []float32{1}), tensor(t, []float32{2}), tensor(t, []float32{3})), 0, empty(t, f32, 3)}, []int{3}, []float64{1, 2, 3}},
		{"int32 into int64", []any{ts(tensor(t, []int32{1, 2}, 2), tensor(t, []int32{3, 4}, 2)), 0, empty(t, executor.Int64, 2, 2)}, []int{2, 2}, []float64{1, 2, 3, 4}},
		{"mixed into float64", []any{ts(tensor(t, []int32{1}, 1), tensor(t, []float32{0.5}, 1)), 1, empty(t, executor.Float64, 1, 2)}, []int{1, 2}, []float64{1, 0.5}},
		{"empty", []any{ts(shapeIota(t, 0), shapeIota(t, 0)), 0, empty(t, f32, 2, 0)}, []int{2, 0}, nil},
		{"dynamic", []any{ts(x, y, x), 0, dynamic(t, f32, 4, 2, 3)}, []int{3, 2, 3}, append(append(shapeSeq(0, 6), shapeSeq(10, 16)...), shapeSeq(0, 6)...)},
	})
}

func TestStackErrors(t *testing.T) {
	x := shapeIota(t, 2, 3)
	out := empty(t, executor.Float32, 2, 2, 3)
	wantErr(t, call(t, "aten::stack.out", []*executor.Tensor{x, shapeIota(t, 3, 2)}, 0, out, out), "equal size")
	wantErr(t, call(t, "aten::stack.out", []*executor.Tensor{x, x}, 3, out, out), "out of range")
	wantErr(t, call(t, "aten::stack.out", []*executor.Tensor{}, 0, out, out), "at least one tensor")
	wantErr(t, call(t, "aten::stack.out", []*executor.Tensor{x, x}, 0, empty(t, executor.Bool, 2, 2, 3), none), "cannot be cast")
	wantErr(t, call(t, "aten::stack.out", []*executor.Tensor{x, x}, 2, out, out), "cannot resize a static tensor")
}
