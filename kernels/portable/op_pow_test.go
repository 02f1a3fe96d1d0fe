package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.pow.
func TestPowTensorTensor(t *testing.T) {
	f32 := func(v ...float32) *executor.Tensor { return tensor(t, v, len(v)) }
	i32 := func(v ...int32) *executor.Tensor { return tensor(t, v, len(v)) }
	arithRunBinary(t, "aten::pow.Tensor_Tensor_out", []arithBinaryCase{
		{"float32", f32(2, -8, 0, -1, 4), f32(0.5, 1.0/3, -1, float32(arithInf), -0.5), empty(t, executor.Float32, 5), []int{5},
			[]float64{1.4142135381698608, arithNaN, arithInf, 1, 0.5}},
		{"int32 exact, negative exponents", i32(2, 3, -2, 1, -1, 5), i32(10, 3, 3, -1, -3, -2), empty(t, executor.Int32, 6), []int{6},
			[]float64{1024, 27, -8, 1, -1, 0}},
		{"int8 wraps", tensor(t, []int8{2, 3}, 2), tensor(t, []int8{7}, 1), empty(t, executor.Int8, 2), []int{2}, []float64{-128, -117}},
		{"int32 to float32", i32(2, 3), f32(0.5, 2), empty(t, executor.Float32, 2), []int{2}, []float64{1.4142135381698608, 9}},
		{"broadcast", tensor(t, []float64{1, 2, 3, 4}, 2, 2), tensor(t, []float64{2, 3}, 2), empty(t, executor.Float64, 2, 2), []int{2, 2}, []float64{1, 8, 9, 64}},
		{"empty", tensor(t, []float32{}, 0), f32(2), empty(t, executor.Float32, 0), []int{0}, []float64{}},
	})
	wantErr(t, call(t, "aten::pow.Tensor_Tensor_out", tensor(t, []bool{true}, 1), tensor(t, []bool{true}, 1), empty(t, executor.Bool, 1), none), "not supported for bool")
	wantErr(t, call(t, "aten::pow.Tensor_Tensor_out", f32(1), f32(1), empty(t, executor.Int32, 1), none), "cannot be cast")
	wantErr(t, call(t, "aten::pow.Tensor_Tensor_out", f32(1, 2), f32(1, 2, 3), empty(t, executor.Float32, 2), none), "do not broadcast")
	wantErr(t, call(t, "aten::pow.Tensor_Tensor_out", f32(1), 2, empty(t, executor.Float32, 1), none), "argument 1 (exponent): want Tensor")
	wantErr(t, call(t, "aten::pow.Tensor_Tensor_out", f32(1), f32(1), empty(t, executor.Float32, 2), none), "cannot resize")
}

// Expected values from torch.pow with a Scalar exponent.
func TestPowTensorScalar(t *testing.T) {
	f := tensor(t, []float32{1.5, -2, 4}, 3)
	arithRunBinary(t, "aten::pow.Tensor_Scalar_out", []arithBinaryCase{
		{"square", tensor(t, []float32{1.5, -2, 0}, 3), 2, empty(t, executor.Float32, 3), []int{3}, []float64{2.25, 4, 0}},
		{"sqrt", f, 0.5, empty(t, executor.Float32, 3), []int{3}, []float64{1.2247449159622192, arithNaN, 2}},
		{"reciprocal", f, -1, empty(t, executor.Float32, 3), []int{3}, []float64{0.6666666865348816, -0.5, 0.25}},
		{"float exponent", tensor(t, []float32{1.1}, 1), 2.2, empty(t, executor.Float32, 1), []int{1}, []float64{1.2332863807678223}},
		{"int32 cube", tensor(t, []int32{2, 3}, 2), 3, empty(t, executor.Int32, 2), []int{2}, []float64{8, 27}},
		{"int32 float exponent", tensor(t, []int32{2, 3}, 2), 0.5, empty(t, executor.Float32, 2), []int{2}, []float64{1.4142135381698608, 1.7320507764816284}},
		{"bool base int exponent", tensor(t, []bool{true, false}, 2), 2, empty(t, executor.Int64, 2), []int{2}, []float64{1, 0}},
		{"float16", arithTyped(t, executor.Float16, []float64{0.1, 1.7, -3.3}, 3), 2, empty(t, executor.Float16, 3), []int{3}, []float64{0.0099945068359375, 2.890625, 10.8984375}},
		{"float64 2-d", tensor(t, []float64{0.1, 1.7}, 1, 2), 2.2, empty(t, executor.Float64, 1, 2), []int{1, 2}, []float64{0.00630957344480193, 3.2135689833624927}},
		{"empty", tensor(t, []float32{}, 0), 2, empty(t, executor.Float32, 0), []int{0}, []float64{}},
	})
	wantErr(t, call(t, "aten::pow.Tensor_Scalar_out", tensor(t, []int32{2}, 1), -1, empty(t, executor.Int32, 1), none), "integers to negative integer powers are not allowed")
	wantErr(t, call(t, "aten::pow.Tensor_Scalar_out", tensor(t, []bool{true}, 1), true, empty(t, executor.Bool, 1), none), "not supported for bool")
	wantErr(t, call(t, "aten::pow.Tensor_Scalar_out", tensor(t, []int32{2}, 1), 0.5, empty(t, executor.Int32, 1), none), "cannot be cast")
	wantErr(t, call(t, "aten::pow.Tensor_Scalar_out", f, 2, empty(t, executor.Float32, 2), none), "cannot resize")
	wantErr(t, call(t, "aten::pow.Tensor_Scalar_out", f, none, empty(t, executor.Float32, 3), none), "argument 1 (exponent): want a Scalar")
}

// Expected values from torch.pow with a Scalar base.
func TestPowScalar(t *testing.T) {
	arithRunBinary(t, "aten::pow.Scalar_out", []arithBinaryCase{
		{"int base int exponents", 2, tensor(t, []int64{-1, 3, 0}, 3), empty(t, executor.Int64, 3), []int{3}, []float64{0, 8, 1}},
		{"float base", 2.5, tensor(t, []int32{2, 3}, 2), empty(t, executor.Float32, 2), []int{2}, []float64{6.25, 15.625}},
		{"bool base", true, tensor(t, []int32{2, 3}, 2), empty(t, executor.Int32, 2), []int{2}, []float64{1, 1}},
		{"float exponents", 2, tensor(t, []float32{0.5, -1}, 2), empty(t, executor.Float32, 2), []int{2}, []float64{1.4142135381698608, 0.5}},
		{"2-d", 3, tensor(t, []float64{0, 1, 2, 3}, 2, 2), empty(t, executor.Float64, 2, 2), []int{2, 2}, []float64{1, 3, 9, 27}},
		{"empty", 2, tensor(t, []float32{}, 0), empty(t, executor.Float32, 0), []int{0}, []float64{}},
	})
	wantErr(t, call(t, "aten::pow.Scalar_out", true, tensor(t, []bool{true}, 1), empty(t, executor.Bool, 1), none), "not supported for bool")
	wantErr(t, call(t, "aten::pow.Scalar_out", 0.5, tensor(t, []int32{1}, 1), empty(t, executor.Int32, 1), none), "cannot be cast")
	wantErr(t, call(t, "aten::pow.Scalar_out", tensor(t, []float32{1}, 1), tensor(t, []float32{1}, 1), empty(t, executor.Float32, 1), none), "argument 0 (self): want a Scalar")
	wantErr(t, call(t, "aten::pow.Scalar_out", 2, tensor(t, []float32{1}, 1), empty(t, executor.Float32, 1)), "3 arguments")
}
