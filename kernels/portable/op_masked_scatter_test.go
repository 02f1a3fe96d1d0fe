package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.masked_scatter (torch 2.15).
func TestMaskedScatter(t *testing.T) {
	f32 := executor.Float32
	x := func() *executor.Tensor { return shapeIota(t, 2, 3) }
	clMask := make([]bool, 12)
	for i := range clMask {
		clMask[i] = i%3 == 0
	}
	shapeRun(t, "aten::masked_scatter.out", []shapeCase{
		{"2-d, spare source", []any{x(), tensor(t, []bool{true, false, true, false, true, false}, 2, 3), tensor(t, []float32{10, 20, 30, 40}, 4), empty(t, f32, 2, 3)},
			[]int{2, 3}, []float64{10, 1, 20, 3, 30, 5}},
		{"mask broadcasts, 2-d source", []any{x(), tensor(t, []bool{false, true, true}, 3), tensor(t, []float32{10, 20, 30, 40}, 2, 2), empty(t, f32, 2, 3)},
			[]int{2, 3}, []float64{0, 10, 20, 3, 30, 40}},
		{"self broadcasts", []any{tensor(t, []float32{1, 2}, 2), tensor(t, []bool{true, false, true, true}, 2, 2), tensor(t, []float32{10, 20, 30}, 3), empty(t, f32, 2, 2)},
			[]int{2, 2}, []float64{10, 2, 20, 30}},
		{"int32, 0-d true mask", []any{tensor(t, []int32{1, 2, 3}, 3), tensor(t, []bool{true}), tensor(t, []int32{7, 8, 9, 10}, 4), empty(t, executor.Int32, 3)},
			[]int{3}, []float64{7, 8, 9}},
		{"0-d, false mask", []any{tensor(t, []float32{5}), tensor(t, []bool{false}), tensor(t, []float32{7}, 1), empty(t, f32)}, []int{}, []float64{5}},
		{"bool", []any{tensor(t, []bool{true, false}, 2), tensor(t, []bool{false, true}, 2), tensor(t, []bool{true}, 1), empty(t, executor.Bool, 2)},
			[]int{2}, []float64{1, 1}},
		{"empty", []any{empty(t, f32, 2, 0), tensor(t, []bool{true}), tensor(t, []float32{}, 0), empty(t, f32, 2, 0)}, []int{2, 0}, nil},
		{"channels-last", []any{shapeOrdered(t, shapeIotaF32(12), []int{1, 3, 2, 2}, channelsLast), shapeOrdered(t, clMask, []int{1, 3, 2, 2}, channelsLast),
			tensor(t, []float32{-1, -2, -3, -4}, 4), shapeOrderedEmpty(t, f32, []int{1, 3, 2, 2}, channelsLast)}, []int{1, 3, 2, 2},
			[]float64{-1, 1, 2, -2, 4, 5, -3, 7, 8, -4, 10, 11}},
		{"dynamic out", []any{x(), tensor(t, []bool{true, false, false}, 3), tensor(t, []float32{10, 20}, 2), dynamic(t, f32, 4, 4)},
			[]int{2, 3}, []float64{10, 1, 2, 20, 4, 5}},
	})
}

func TestMaskedScatterErrors(t *testing.T) {
	op := "aten::masked_scatter.out"
	x := shapeIota(t, 2, 3)
	m := tensor(t, []bool{true, false, true, false, true, false}, 2, 3)
	out := empty(t, executor.Float32, 2, 3)
	wantErr(t, call(t, op, x, m, tensor(t, []float32{1, 2}, 2), out, out), "has 2 elements, fewer than the mask's 3 true positions")
	wantErr(t, call(t, op, x, tensor(t, []uint8{1, 0, 1, 0, 1, 0}, 2, 3), tensor(t, []float32{1, 2, 3}, 3), out, out), "must be bool, got uint8")
	wantErr(t, call(t, op, x, tensor(t, []bool{true, false}, 2), tensor(t, []float32{1, 2, 3}, 3), out, out), "does not broadcast with self's [2 3]")
	wantErr(t, call(t, op, x, m, tensor(t, []float64{1, 2, 3}, 3), out, out), "dtype float64, want self's float32")
	wantErr(t, call(t, op, x, m, tensor(t, []float32{1, 2, 3}, 3), empty(t, executor.Float64, 2, 3), none), "keeps the dtype")
	wantErr(t, call(t, op, x, m, tensor(t, []float32{1, 2, 3}, 3), empty(t, executor.Float32, 3, 2), none), "cannot resize a static tensor")
	wantErr(t, call(t, op, x, m, tensor(t, []float32{1, 2, 3}, 3), out), "4 arguments")
}
