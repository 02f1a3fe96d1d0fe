package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestUnbindCopy(t *testing.T) {
	f32 := executor.Float32
	tests := []struct {
		name  string
		self  *executor.Tensor
		dim   int
		outs  []*executor.Tensor
		sizes [][]int
		want  [][]float64
	}{
		{"dim 0", shapeIota(t, 2, 3), 0, []*executor.Tensor{empty(t, f32, 3), empty(t, f32, 3)}, [][]int{{3}, {3}}, [][]float64{{0, 1, 2}, {3, 4, 5}}},
		{"dim -1", shapeIota(t, 2, 3), -1, []*executor.Tensor{empty(t, f32, 2), empty(t, f32, 2), empty(t, f32, 2)},
			[][]int{{2}, {2}, {2}}, [][]float64{{0, 3}, {1, 4}, {2, 5}}},
		{"to 0-d int32", tensor(t, []int32{7, 8}, 2), 0, []*executor.Tensor{empty(t, executor.Int32), empty(t, executor.Int32)},
			[][]int{{}, {}}, [][]float64{{7}, {8}}},
		{"empty dim", shapeIota(t, 0, 2), 0, []*executor.Tensor{}, [][]int{}, [][]float64{}},
		{"empty slices", shapeIota(t, 2, 0), 0, []*executor.Tensor{empty(t, f32, 0), empty(t, f32, 0)}, [][]int{{0}, {0}}, [][]float64{nil, nil}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := call(t, "aten::unbind_copy.int_out", tc.self, tc.dim, tc.outs, tc.outs); err != nil {
				t.Fatal(err)
			}
			shapeWantList(t, tc.outs, tc.sizes, tc.want)
		})
	}
}

func TestUnbindCopyErrors(t *testing.T) {
	x := shapeIota(t, 2, 3)
	op := "aten::unbind_copy.int_out"
	two := []*executor.Tensor{empty(t, executor.Float32, 3), empty(t, executor.Float32, 3)}
	wantErr(t, call(t, op, x, 1, two, two), "2 tensors for dimension 1 of size 3")
	wantErr(t, call(t, op, x, 2, two, two), "out of range")
	wantErr(t, call(t, op, tensor(t, []float32{1}), 0, two, two), "0-d")
	wantErr(t, call(t, op, x, 0, []*executor.Tensor{empty(t, executor.Float32, 3), empty(t, executor.Float32, 2)}, none), "out 1")
	wantErr(t, call(t, op, x, 0, []*executor.Tensor{empty(t, executor.Float32, 3), empty(t, executor.Int8, 3)}, none), "out 1 is int8")
}
