package portable

import (
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.ops.aten.max_pool2d_with_indices_backward (torch 2.15), with
// the indices torch.ops.aten.max_pool2d_with_indices gives for the input.
func TestMaxPool2dWithIndicesBackward(t *testing.T) {
	x := []float32{1, 5, 2, 0, 3, -1, 4, 4, 7, 7, 0, 1, 2, 9, -3, 6}
	seq := func(n int) []float32 { return poolSeq(n+1, 0.5)[1:] } // 0.5, 1, 1.5, ...
	for _, tc := range []struct {
		name       string
		in         *executor.Tensor
		k, s, p, d []int64
		ceil       bool
		osizes     []int
		idx        []int64
		grad       *executor.Tensor
		want       []float64
	}{
		{"2x2 windows", tensor(t, x, 1, 1, 4, 4), []int64{2, 2}, []int64{2, 2}, []int64{0}, []int64{1}, false, []int{1, 1, 2, 2},
			[]int64{1, 6, 13, 15}, tensor(t, seq(4), 1, 1, 2, 2), []float64{0, 0.5, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1.5, 0, 2}},
		{"overlapping windows accumulate", tensor(t, x, 1, 4, 4), []int64{3}, []int64{1}, []int64{1}, []int64{1}, false, []int{1, 4, 4},
			[]int64{1, 1, 1, 6, 8, 8, 9, 6, 13, 13, 13, 15, 13, 13, 13, 15}, tensor(t, seq(16), 1, 4, 4),
			[]float64{0, 3, 0, 0, 0, 0, 6, 0, 5.5, 3.5, 0, 0, 0, 36, 0, 14}},
		{"ceil mode", tensor(t, x, 1, 1, 4, 4), []int64{2, 2}, []int64{3, 3}, []int64{0, 0}, []int64{1, 1}, true, []int{1, 1, 2, 2},
			[]int64{1, 7, 13, 15}, tensor(t, seq(4), 1, 1, 2, 2), []float64{0, 0.5, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1.5, 0, 2}},
		{"float64 planes", tensor(t, poolF64(x), 2, 2, 2, 2), []int64{2, 1}, []int64{1, 1}, []int64{0, 0}, []int64{1, 1}, false, []int{2, 2, 1, 2},
			[]int64{2, 1, 2, 3, 0, 1, 0, 1}, tensor(t, []float64{0.1, 0.2, 0.30000000000000004, 0.4, 0.5, 0.6000000000000001, 0.7000000000000001, 0.8}, 2, 2, 1, 2),
			[]float64{0, 0.2, 0.1, 0, 0, 0, 0.30000000000000004, 0.4, 0.5, 0.6000000000000001, 0, 0, 0.7000000000000001, 0.8, 0, 0}},
		// -1 (a window wholly in the padding) contributes nothing.
		{"index -1", tensor(t, x, 1, 1, 4, 4), []int64{2, 2}, []int64{2, 2}, []int64{0}, []int64{1}, false, []int{1, 1, 2, 2},
			[]int64{1, -1, 13, -1}, tensor(t, seq(4), 1, 1, 2, 2), []float64{0, 0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1.5, 0, 0}},
		{"empty batch", empty(t, executor.Float32, 0, 1, 4, 4), []int64{2}, []int64{}, []int64{0}, []int64{1}, false, []int{0, 1, 2, 2},
			[]int64{}, empty(t, executor.Float32, 0, 1, 2, 2), []float64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gi := empty(t, tc.in.ScalarType(), tc.in.Sizes()...)
			storeF64(gi, slices.Repeat([]float64{99}, gi.Numel())) // stale contents must not leak
			idx := tensor(t, tc.idx, tc.osizes...)
			if err := call(t, "aten::max_pool2d_with_indices_backward.grad_input", tc.grad, tc.in, tc.k, tc.s, tc.p, tc.d, tc.ceil, idx, gi, gi); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, gi, tc.in.Sizes(), tc.want)
		})
	}
	// Float16 rounds each sum: 2048 + 1 stays 2048.
	h := func(v []float64, s ...int) *executor.Tensor {
		x := empty(t, executor.Float16, s...)
		storeF64(x, v)
		return x
	}
	gi := dynamic(t, executor.Float16, 1, 2, 2)
	if err := call(t, "aten::max_pool2d_with_indices_backward.grad_input", h([]float64{2048, 1}, 1, 1, 2), h([]float64{0, 1, 2, 3}, 1, 2, 2),
		[]int64{2, 1}, []int64{1}, []int64{0}, []int64{1}, false, tensor(t, []int64{1, 1}, 1, 1, 2), gi, gi); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, gi, []int{1, 2, 2}, []float64{0, 2048, 0, 0})
}

func TestMaxPool2dWithIndicesBackwardErrors(t *testing.T) {
	in := tensor(t, poolSeq(16, 1), 1, 1, 4, 4)
	g, idx := empty(t, executor.Float32, 1, 1, 2, 2), tensor(t, []int64{0, 2, 8, 10}, 1, 1, 2, 2)
	gi := empty(t, executor.Float32, 1, 1, 4, 4)
	bw := func(g, in any, k []int64, idx, gi any) error {
		return call(t, "aten::max_pool2d_with_indices_backward.grad_input", g, in, k, []int64{}, []int64{0}, []int64{1}, false, idx, gi, gi)
	}
	wantErr(t, bw(g, in, []int64{2}, tensor(t, []int64{0, 2, 16, 10}, 1, 1, 2, 2), gi), "argument 7 (indices): index 16 at element 2 is outside the 4x4 plane")
	wantErr(t, bw(g, in, []int64{2}, tensor(t, []int64{0, -2, 8, 10}, 1, 1, 2, 2), gi), "index -2")
	wantErr(t, bw(g, in, []int64{2}, tensor(t, []int32{0, 2, 8, 10}, 1, 1, 2, 2), gi), "argument 7 (indices): want Int64")
	wantErr(t, bw(g, in, []int64{2}, tensor(t, []int64{0, 2, 8}, 1, 1, 3), gi), "argument 7 (indices): sizes [1 1 3]")
	wantErr(t, bw(empty(t, executor.Float32, 1, 1, 3, 3), in, []int64{2}, idx, gi), "argument 0 (grad_output): sizes [1 1 3 3], want the pooled sizes [1 1 2 2]")
	wantErr(t, bw(empty(t, executor.Float64, 1, 1, 2, 2), in, []int64{2}, idx, gi), "argument 0 (grad_output): float64 differs")
	wantErr(t, bw(g, in, []int64{2}, idx, empty(t, executor.Float64, 1, 1, 4, 4)), "argument 8 (grad_input): float64 differs")
	wantErr(t, bw(g, in, []int64{0}, idx, gi), "argument 2 (kernel_size): kernel size should be greater than zero")
	wantErr(t, bw(g, in, []int64{2, 2, 2}, idx, gi), "argument 2 (kernel_size)")
	wantErr(t, bw(g, tensor(t, poolSeq(16, 1), 16), []int64{2}, idx, gi), "argument 1 (self): expected 3D or 4D")
	wantErr(t, bw(tensor(t, []int32{1}, 1, 1, 1, 1), tensor(t, []int32{1}, 1, 1, 1, 1), []int64{1}, tensor(t, []int64{0}, 1, 1, 1, 1), empty(t, executor.Int32, 1, 1, 1, 1)), "supports floating dtypes")
	wantErr(t, bw(g, in, []int64{2}, idx, empty(t, executor.Float32, 1, 1, 4, 3)), "grad_input: ")
	wantErr(t, call(t, "aten::max_pool2d_with_indices_backward.grad_input", g, in, []int64{2}, []int64{}, []int64{0}, []int64{1}, false, idx, gi), "9 arguments")
}
