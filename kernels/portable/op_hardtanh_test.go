package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.ops.aten.hardtanh.
func TestHardtanh(t *testing.T) {
	x := []float32{-2.5, -1, -0.25, 0, 0.5, 1, 3}
	for _, tc := range []struct {
		name    string
		in, out *executor.Tensor
		lo, hi  any
		want    []float64
	}{
		{"float32 defaults", tensor(t, x, 7), empty(t, executor.Float32, 7), -1, 1, []float64{-1, -1, -0.25, 0, 0.5, 1, 1}},
		{"float32 bounds", tensor(t, x, 7), empty(t, executor.Float32, 7), -0.5, 2.0, []float64{-0.5, -0.5, -0.25, 0, 0.5, 1, 2}},
		{"relu6", tensor(t, x, 7), empty(t, executor.Float32, 7), 0.0, 6.0, []float64{0, 0, 0, 0, 0.5, 1, 3}},
		{"nan and inf", tensor(t, []float32{float32(arithNaN), float32(-arithInf), float32(arithInf)}, 3), empty(t, executor.Float32, 3), -1, 1,
			[]float64{arithNaN, -1, 1}},
		{"int32", tensor(t, []int32{-5, -1, 0, 2, 9}, 5), empty(t, executor.Int32, 5), -2, 3, []float64{-2, -1, 0, 2, 3}},
		{"int32 float bounds truncate", tensor(t, []int32{-5, -1, 0, 2, 9}, 5), empty(t, executor.Int32, 5), -2.7, 3.9, []float64{-2, -1, 0, 2, 3}},
		{"float64 2-d", tensor(t, []float64{-3, 0.5, 2, 7}, 2, 2), empty(t, executor.Float64, 2, 2), -1, 1, []float64{-1, 0.5, 1, 1}},
		{"bfloat16", arithTyped(t, executor.BFloat16, []float64{-3, 0.5}, 2), empty(t, executor.BFloat16, 2), -1, 1, []float64{-1, 0.5}},
		{"empty", tensor(t, []float32{}, 0), empty(t, executor.Float32, 0), -1, 1, []float64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := call(t, "aten::hardtanh.out", tc.in, tc.lo, tc.hi, tc.out, tc.out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.in.Sizes(), tc.want)
		})
	}
	f := tensor(t, []float32{1}, 1)
	wantErr(t, call(t, "aten::hardtanh.out", tensor(t, []uint8{1}, 1), -1, 1, empty(t, executor.Uint8, 1), none), "argument 1 (min_val): -1 is out of range for uint8")
	wantErr(t, call(t, "aten::hardtanh.out", tensor(t, []int8{1}, 1), -1, 300, empty(t, executor.Int8, 1), none), "argument 2 (max_val): 300 is out of range")
	wantErr(t, call(t, "aten::hardtanh.out", tensor(t, []bool{true}, 1), 0, 1, empty(t, executor.Bool, 1), none), "not supported for bool")
	wantErr(t, call(t, "aten::hardtanh.out", f, -1, 1, empty(t, executor.Float64, 1), none), "want self's dtype")
	wantErr(t, call(t, "aten::hardtanh.out", f, -1, none, empty(t, executor.Float32, 1), none), "argument 2 (max_val): want a Scalar")
	wantErr(t, call(t, "aten::hardtanh.out", f, -1, 1, empty(t, executor.Float32, 4), none), "cannot resize")
	wantErr(t, call(t, "aten::hardtanh.out", f, -1, 1, none), "4 arguments")
}
