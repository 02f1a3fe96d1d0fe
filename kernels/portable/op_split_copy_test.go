package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestSplitCopy(t *testing.T) {
	f32 := executor.Float32
	tests := []struct {
		name  string
		self  *executor.Tensor
		split int
		dim   int
		outs  []*executor.Tensor
		sizes [][]int
		want  [][]float64
	}{
		{"remainder", shapeIota(t, 5, 2), 2, 0, []*executor.Tensor{empty(t, f32, 2, 2), empty(t, f32, 2, 2), empty(t, f32, 1, 2)},
			[][]int{{2, 2}, {2, 2}, {1, 2}}, [][]float64{shapeSeq(0, 4), shapeSeq(4, 8), {8, 9}}},
		{"even, dim -1", shapeIota(t, 2, 4), 2, -1, []*executor.Tensor{empty(t, f32, 2, 2), empty(t, f32, 2, 2)},
			[][]int{{2, 2}, {2, 2}}, [][]float64{{0, 1, 4, 5}, {2, 3, 6, 7}}},
		{"larger than the dim", shapeIota(t, 3), 10, 0, []*executor.Tensor{empty(t, f32, 3)}, [][]int{{3}}, [][]float64{{0, 1, 2}}},
		{"empty dim, size 0", shapeIota(t, 0, 2), 0, 0, []*executor.Tensor{empty(t, f32, 0, 2)}, [][]int{{0, 2}}, [][]float64{nil}},
		{"bool", tensor(t, []bool{true, false, true}, 3), 1, 0,
			[]*executor.Tensor{empty(t, executor.Bool, 1), empty(t, executor.Bool, 1), empty(t, executor.Bool, 1)},
			[][]int{{1}, {1}, {1}}, [][]float64{{1}, {0}, {1}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := call(t, "aten::split_copy.Tensor_out", tc.self, tc.split, tc.dim, tc.outs, tc.outs); err != nil {
				t.Fatal(err)
			}
			shapeWantList(t, tc.outs, tc.sizes, tc.want)
		})
	}
}

func TestSplitCopyErrors(t *testing.T) {
	x := shapeIota(t, 5)
	op := "aten::split_copy.Tensor_out"
	two := []*executor.Tensor{empty(t, executor.Float32, 2), empty(t, executor.Float32, 3)}
	wantErr(t, call(t, op, x, 2, 0, two, two), "makes 3")
	wantErr(t, call(t, op, x, 0, 0, two, two), "split size 0")
	wantErr(t, call(t, op, x, -1, 0, two, two), "negative")
	wantErr(t, call(t, op, x, 3, 1, two, two), "out of range")
	wantErr(t, call(t, op, x, 3, 0, []*executor.Tensor{empty(t, executor.Float32, 2), empty(t, executor.Float32, 2)}, none), "out 0")
	wantErr(t, call(t, op, tensor(t, []float32{1}), 1, 0, two, two), "0-d")
}
