package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.clamp.
func TestClamp(t *testing.T) {
	x := []float32{-2.5, -1, -0.25, 0, 0.5, 1, 3}
	for _, tc := range []struct {
		name    string
		in, out *executor.Tensor
		lo, hi  any
		want    []float64
	}{
		{"float32 both", tensor(t, x, 7), empty(t, executor.Float32, 7), -1, 1, []float64{-1, -1, -0.25, 0, 0.5, 1, 1}},
		{"float32 min only", tensor(t, x, 7), empty(t, executor.Float32, 7), 0.0, none, []float64{0, 0, 0, 0, 0.5, 1, 3}},
		{"float32 max only", tensor(t, x, 7), empty(t, executor.Float32, 7), none, 0.5, []float64{-2.5, -1, -0.25, 0, 0.5, 0.5, 0.5}},
		{"min above max gives max", tensor(t, []float32{1, 5, float32(arithNaN)}, 3), empty(t, executor.Float32, 3), 3, 2, []float64{2, 2, arithNaN}},
		{"nan bound propagates", tensor(t, []float32{1, 2}, 2), empty(t, executor.Float32, 2), arithNaN, none, []float64{arithNaN, arithNaN}},
		{"int32 int bounds", tensor(t, []int32{-5, 0, 9}, 3), empty(t, executor.Int32, 3), -2, 3, []float64{-2, 0, 3}},
		{"int32 float bound promotes", tensor(t, []int32{1, 5}, 2), empty(t, executor.Float32, 2), 2.5, none, []float64{2.5, 5}},
		{"bool with int bounds", tensor(t, []bool{true, false}, 2), empty(t, executor.Int64, 2), 0, 0, []float64{0, 0}},
		{"float64 2-d", tensor(t, []float64{-3, 0.5, 2, 7}, 2, 2), empty(t, executor.Float64, 2, 2), -1, 1, []float64{-1, 0.5, 1, 1}},
		{"float16", arithTyped(t, executor.Float16, []float64{-3, 0.5}, 2), empty(t, executor.Float16, 2), -1, 0.25, []float64{-1, 0.25}},
		{"empty", tensor(t, []float32{}, 0), empty(t, executor.Float32, 0), 0, 1, []float64{}},
		{"dynamic out", tensor(t, []float32{-2, 2}, 2), dynamic(t, executor.Float32, 5), -1, 1, []float64{-1, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := call(t, "aten::clamp.out", tc.in, tc.lo, tc.hi, tc.out, tc.out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.in.Sizes(), tc.want)
		})
	}
	f := tensor(t, []float32{1}, 1)
	wantErr(t, call(t, "aten::clamp.out", f, none, none, empty(t, executor.Float32, 1), none), "at least one of min and max")
	wantErr(t, call(t, "aten::clamp.out", tensor(t, []uint8{1}, 1), -1, none, empty(t, executor.Uint8, 1), none), "argument 1 (min): -1 is out of range for out's uint8")
	wantErr(t, call(t, "aten::clamp.out", f, none, 1e300, empty(t, executor.Float32, 1), none), "argument 2 (max)")
	wantErr(t, call(t, "aten::clamp.out", tensor(t, []int32{1}, 1), 0.5, none, empty(t, executor.Int32, 1), none), "cannot be cast")
	wantErr(t, call(t, "aten::clamp.out", f, "a", none, empty(t, executor.Float32, 1), none), "argument 1 (min): want a Scalar")
	wantErr(t, call(t, "aten::clamp.out", f, 0, 1, empty(t, executor.Float32, 2), none), "cannot resize")
	wantErr(t, call(t, "aten::clamp.out", f, 0, 1, none), "4 arguments")
}

// Expected values from torch.clamp with tensor bounds.
func TestClampTensor(t *testing.T) {
	x := tensor(t, []float32{-2.5, -1, 0, 0.5, 1, 3}, 2, 3)
	for _, tc := range []struct {
		name   string
		in     *executor.Tensor
		lo, hi any
		out    *executor.Tensor
		sizes  []int
		want   []float64
	}{
		{"broadcast both", x, tensor(t, []float32{-2, 0, -1}, 3), tensor(t, []float32{0, 2}, 2, 1), empty(t, executor.Float32, 2, 3), []int{2, 3},
			[]float64{-2, 0, 0, 0.5, 1, 2}},
		{"max only", x, none, tensor(t, []float32{0, 2}, 2, 1), empty(t, executor.Float32, 2, 3), []int{2, 3}, []float64{-2.5, -1, 0, 0.5, 1, 2}},
		{"bounds broadcast self", tensor(t, []float32{5}, 1), tensor(t, []float32{1, 6}, 2), none, empty(t, executor.Float32, 2), []int{2}, []float64{5, 6}},
		{"int32 with 0-d float64 min", tensor(t, []int32{1, 5, 9}, 3), tensor(t, []float64{2.5}), none, empty(t, executor.Float64, 3), []int{3}, []float64{2.5, 5, 9}},
		{"mixed ints", tensor(t, []int32{1, 5, 9}, 3), tensor(t, []int64{3, 3, 3}, 3), tensor(t, []int8{4, 6, 8}, 3), empty(t, executor.Int64, 3), []int{3}, []float64{3, 5, 8}},
		{"nan", tensor(t, []float32{1, float32(arithNaN), 3}, 3), tensor(t, []float32{float32(arithNaN), 0, 0}, 3), none, empty(t, executor.Float32, 3), []int{3}, []float64{arithNaN, arithNaN, 3}},
		{"empty", tensor(t, []float32{}, 0, 3), tensor(t, []float32{0, 0, 0}, 3), none, empty(t, executor.Float32, 0, 3), []int{0, 3}, []float64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := call(t, "aten::clamp.Tensor_out", tc.in, tc.lo, tc.hi, tc.out, tc.out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.sizes, tc.want)
		})
	}
	f := tensor(t, []float32{1, 2}, 2)
	wantErr(t, call(t, "aten::clamp.Tensor_out", f, none, none, empty(t, executor.Float32, 2), none), "at least one of min and max")
	wantErr(t, call(t, "aten::clamp.Tensor_out", f, tensor(t, []float32{1, 2, 3}, 3), none, empty(t, executor.Float32, 2), none), "do not broadcast")
	wantErr(t, call(t, "aten::clamp.Tensor_out", tensor(t, []int32{1}, 1), tensor(t, []float32{1}, 1), none, empty(t, executor.Int32, 1), none), "cannot be cast")
	wantErr(t, call(t, "aten::clamp.Tensor_out", f, 1, none, empty(t, executor.Float32, 2), none), "argument 1 (min): want Tensor, got Int")
	wantErr(t, call(t, "aten::clamp.Tensor_out", f, f, none, empty(t, executor.Float32, 3), none), "cannot resize")
	wantErr(t, call(t, "aten::clamp.Tensor_out", f, f, none, empty(t, executor.Float32, 2)), "4 arguments")
}
