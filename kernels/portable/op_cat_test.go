package portable

import (
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestCat(t *testing.T) {
	f32 := executor.Float32
	x := shapeIota(t, 2, 3)
	ts := func(v ...*executor.Tensor) []*executor.Tensor { return v }
	shapeRun(t, "aten::cat.out", []shapeCase{
		{"dim 0", []any{ts(x, tensor(t, []float32{9, 8, 7}, 1, 3)), 0, empty(t, f32, 3, 3)}, []int{3, 3}, []float64{0, 1, 2, 3, 4, 5, 9, 8, 7}},
		{"dim 1", []any{ts(x, shapeIota(t, 2, 2)), 1, empty(t, f32, 2, 5)}, []int{2, 5}, []float64{0, 1, 2, 0, 1, 3, 4, 5, 2, 3}},
		{"negative dim", []any{ts(x, x), -1, empty(t, f32, 2, 6)}, []int{2, 6}, []float64{0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5}},
		{"single", []any{ts(x), 0, empty(t, f32, 2, 3)}, []int{2, 3}, shapeSeq(0, 6)},
		{"[0] tensors skipped", []any{ts(shapeIota(t, 0), x, tensor(t, []int64{}, 0)), 1, empty(t, f32, 2, 3)}, []int{2, 3}, shapeSeq(0, 6)},
		{"empty with matching sizes", []any{ts(shapeIota(t, 2, 0), x), 1, empty(t, f32, 2, 3)}, []int{2, 3}, shapeSeq(0, 6)},
		{"only [0] tensors", []any{ts(shapeIota(t, 0), shapeIota(t, 0)), 0, empty(t, f32, 0)}, []int{0}, nil},
		{"int32 and float32 into float32", []any{ts(tensor(t, []int32{0, 1, 2}, 1, 3), tensor(t, []float32{1.5, 2.5, 3.5}, 1, 3)), 0, empty(t, f32, 2, 3)},
			[]int{2, 3}, []float64{0, 1, 2, 1.5, 2.5, 3.5}},
		{"bool and int64", []any{ts(tensor(t, []bool{true, false}, 2), tensor(t, []int64{3}, 1)), 0, empty(t, executor.Int64, 3)}, []int{3}, []float64{1, 0, 3}},
		{"float16", []any{ts(shapeConvert(tensor(t, []float32{1}, 1), executor.Float16), tensor(t, []float32{2}, 1)), 0, empty(t, executor.Float16, 2)}, []int{2}, []float64{1, 2}},
		{"dynamic", []any{ts(x, x), 0, dynamic(t, f32, 8, 3)}, []int{4, 3}, append(shapeSeq(0, 6), shapeSeq(0, 6)...)},
		{"channels-last", []any{ts(shapeOrdered(t, []float32{0, 1, 2, 3}, []int{1, 1, 2, 2}, channelsLast), shapeOrdered(t, []float32{4, 5, 6, 7}, []int{1, 1, 2, 2}, channelsLast)), 1,
			shapeOrderedEmpty(t, f32, []int{1, 2, 2, 2}, channelsLast)}, []int{1, 2, 2, 2}, shapeSeq(0, 8)},
	})
}

func TestCatBitExact(t *testing.T) {
	big := int64(1<<60 + 7)
	a, b := tensor(t, []int64{big, 1}, 1, 2), tensor(t, []int64{-big, 2}, 1, 2)
	out := empty(t, executor.Int64, 2, 2)
	if err := call(t, "aten::cat.out", []*executor.Tensor{a, b}, 0, out, out); err != nil {
		t.Fatal(err)
	}
	if got, _ := executor.Values[int64](out); !slices.Equal(got, []int64{big, 1, -big, 2}) {
		t.Fatalf("got %v", got)
	}
}

func TestCatErrors(t *testing.T) {
	x := shapeIota(t, 2, 3)
	out := empty(t, executor.Float32, 4, 3)
	wantErr(t, call(t, "aten::cat.out", []*executor.Tensor{x, shapeIota(t, 2, 2)}, 0, out, out), "sizes must match except in dimension 0")
	wantErr(t, call(t, "aten::cat.out", []*executor.Tensor{x, shapeIota(t, 3, 0)}, 1, out, out), "sizes must match except in dimension 1")
	wantErr(t, call(t, "aten::cat.out", []*executor.Tensor{x, shapeIota(t, 6)}, 0, out, out), "has 1 dimensions")
	wantErr(t, call(t, "aten::cat.out", []*executor.Tensor{x, x}, 2, out, out), "out of range")
	wantErr(t, call(t, "aten::cat.out", []*executor.Tensor{}, 0, out, out), "at least one tensor")
	wantErr(t, call(t, "aten::cat.out", []*executor.Tensor{tensor(t, []float32{1}), tensor(t, []float32{1})}, 0, out, out), "zero-dimensional")
	wantErr(t, call(t, "aten::cat.out", []*executor.Tensor{x, x}, 0, empty(t, executor.Int32, 4, 3), none), "cannot be cast to out's int32")
	wantErr(t, call(t, "aten::cat.out", []*executor.Tensor{x, x}, 1, out, out), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::cat.out", x, 0, out, out), "argument 0 (tensors): want TensorList")
}
