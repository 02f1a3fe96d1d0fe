package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestSplitWithSizesCopy(t *testing.T) {
	f32 := executor.Float32
	tests := []struct {
		name   string
		self   *executor.Tensor
		splits []int64
		dim    int
		outs   []*executor.Tensor
		sizes  [][]int
		want   [][]float64
	}{
		{"dim 0", shapeIota(t, 5, 2), []int64{2, 3}, 0, []*executor.Tensor{empty(t, f32, 2, 2), empty(t, f32, 3, 2)},
			[][]int{{2, 2}, {3, 2}}, [][]float64{shapeSeq(0, 4), shapeSeq(4, 10)}},
		{"last dim by -1", shapeIota(t, 2, 4), []int64{1, 3}, -1, []*executor.Tensor{empty(t, f32, 2, 1), empty(t, f32, 2, 3)},
			[][]int{{2, 1}, {2, 3}}, [][]float64{{0, 4}, {1, 2, 3, 5, 6, 7}}},
		{"zero-size piece", shapeIota(t, 3), []int64{0, 3, 0}, 0, []*executor.Tensor{empty(t, f32, 0), empty(t, f32, 3), empty(t, f32, 0)},
			[][]int{{0}, {3}, {0}}, [][]float64{nil, {0, 1, 2}, nil}},
		{"int64", tensor(t, []int64{1, 2, 3}, 3), []int64{1, 1, 1}, 0,
			[]*executor.Tensor{empty(t, executor.Int64, 1), empty(t, executor.Int64, 1), empty(t, executor.Int64, 1)},
			[][]int{{1}, {1}, {1}}, [][]float64{{1}, {2}, {3}}},
		{"dynamic outs", shapeIota(t, 1, 6), []int64{4, 2}, 1, []*executor.Tensor{dynamic(t, f32, 1, 6), dynamic(t, f32, 1, 6)},
			[][]int{{1, 4}, {1, 2}}, [][]float64{shapeSeq(0, 4), {4, 5}}},
		{"channels-last input", shapeOrdered(t, shapeIotaF32(12), []int{1, 3, 2, 2}, channelsLast), []int64{1, 2}, 1,
			[]*executor.Tensor{empty(t, f32, 1, 1, 2, 2), empty(t, f32, 1, 2, 2, 2)}, [][]int{{1, 1, 2, 2}, {1, 2, 2, 2}}, [][]float64{shapeSeq(0, 4), shapeSeq(4, 12)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := call(t, "aten::split_with_sizes_copy.out", tc.self, tc.splits, tc.dim, tc.outs, tc.outs); err != nil {
				t.Fatal(err)
			}
			shapeWantList(t, tc.outs, tc.sizes, tc.want)
		})
	}
}

func TestSplitWithSizesCopyErrors(t *testing.T) {
	x := shapeIota(t, 4, 2)
	outs := []*executor.Tensor{empty(t, executor.Float32, 2, 2), empty(t, executor.Float32, 2, 2)}
	op := "aten::split_with_sizes_copy.out"
	wantErr(t, call(t, op, x, []int64{2, 1}, 0, outs, outs), "do not sum to the size 4")
	wantErr(t, call(t, op, x, []int64{5, -1}, 0, outs, outs), "negative")
	wantErr(t, call(t, op, x, []int64{4}, 0, outs, outs), "2 tensors for 1 split sizes")
	wantErr(t, call(t, op, x, []int64{2, 2}, 2, outs, outs), "out of range")
	wantErr(t, call(t, op, x, []int64{1, 3}, 0, outs, outs), "out 0: invalid argument: cannot resize a static tensor")
	wantErr(t, call(t, op, x, []int64{2, 2}, 0, []*executor.Tensor{empty(t, executor.Float32, 2, 2), empty(t, executor.Int32, 2, 2)}, none), "out 1 is int32")
	wantErr(t, call(t, op, x, []int64{2, 2}, 0, outs[0], none), "argument 3 (out): want TensorList")
}
