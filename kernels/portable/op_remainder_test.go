package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.remainder: the result has the divisor's sign.
func TestRemainder(t *testing.T) {
	f32 := func(v ...float32) *executor.Tensor { return tensor(t, v, len(v)) }
	i32 := func(v ...int32) *executor.Tensor { return tensor(t, v, len(v)) }
	arithRunBinary(t, "aten::remainder.Tensor_out", []arithBinaryCase{
		{"float32", f32(-7, 7, -7, 7, float32(negZero()), 5, 5.5, -1), f32(3, 3, -3, -3, 2, 0, float32(arithInf), float32(arithInf)), empty(t, executor.Float32, 8), []int{8},
			[]float64{2, 1, -1, -2, 0, arithNaN, 5.5, arithInf}},
		{"int32", i32(-7, 7, -7, 7, 0), i32(3, 3, -3, -3, 5), empty(t, executor.Int32, 5), []int{5}, []float64{2, 1, -1, -2, 0}},
		{"int64 min by -1", tensor(t, []int64{-9223372036854775808}, 1), tensor(t, []int64{-1}, 1), empty(t, executor.Int64, 1), []int{1}, []float64{0}},
		{"broadcast", tensor(t, []float64{-5, 5, -6, 6}, 2, 2), tensor(t, []float64{4, -4}, 2), empty(t, executor.Float64, 2, 2), []int{2, 2}, []float64{3, -3, 2, -2}},
		{"bool with int", tensor(t, []bool{true, false}, 2), tensor(t, []int32{3}, 1), empty(t, executor.Int32, 2), []int{2}, []float64{1, 0}},
		{"empty", tensor(t, []int32{}, 0), i32(0), empty(t, executor.Int32, 0), []int{0}, []float64{}},
	})
	wantErr(t, call(t, "aten::remainder.Tensor_out", i32(1, 2), i32(1, 0), empty(t, executor.Int32, 2), none), "integer division by zero")
	wantErr(t, call(t, "aten::remainder.Tensor_out", tensor(t, []bool{true}, 1), tensor(t, []bool{true}, 1), empty(t, executor.Bool, 1), none), "not supported for bool")
	wantErr(t, call(t, "aten::remainder.Tensor_out", f32(1), f32(1), empty(t, executor.Int32, 1), none), "cannot be cast")
	wantErr(t, call(t, "aten::remainder.Tensor_out", f32(1), f32(1), empty(t, executor.Float32, 2), none), "cannot resize")
	wantErr(t, call(t, "aten::remainder.Tensor_out", f32(1), 1, empty(t, executor.Float32, 1), none), "argument 1 (other): want Tensor")
}

// Expected values from torch.remainder with a Scalar divisor.
func TestRemainderScalar(t *testing.T) {
	i64 := tensor(t, []int64{-7, 7}, 2)
	arithRunBinary(t, "aten::remainder.Scalar_out", []arithBinaryCase{
		{"int64 by float", i64, 2.5, empty(t, executor.Float32, 2), []int{2}, []float64{0.5, 2}},
		{"int64 by negative int", i64, -3, empty(t, executor.Int64, 2), []int{2}, []float64{-1, -2}},
		{"float32", tensor(t, []float32{-7.5, 7.5}, 2), 2, empty(t, executor.Float32, 2), []int{2}, []float64{0.5, 1.5}},
		{"float32 scalar cast to float32", tensor(t, []float32{0.1, -0.1}, 2), 0.03, empty(t, executor.Float32, 2), []int{2}, []float64{0.01000000350177288, 0.019999995827674866}},
		{"int by float zero", i64, 0.0, empty(t, executor.Float32, 2), []int{2}, []float64{arithNaN, arithNaN}},
		{"bool by int", tensor(t, []bool{true, false}, 2), 3, empty(t, executor.Int64, 2), []int{2}, []float64{1, 0}},
		{"empty", tensor(t, []float32{}, 0), 2, empty(t, executor.Float32, 0), []int{0}, []float64{}},
	})
	wantErr(t, call(t, "aten::remainder.Scalar_out", i64, 0, empty(t, executor.Int64, 2), none), "integer division by zero")
	wantErr(t, call(t, "aten::remainder.Scalar_out", tensor(t, []bool{true}, 1), true, empty(t, executor.Bool, 1), none), "not supported for bool")
	wantErr(t, call(t, "aten::remainder.Scalar_out", i64, 0.5, empty(t, executor.Int64, 2), none), "cannot be cast")
	wantErr(t, call(t, "aten::remainder.Scalar_out", i64, 2, empty(t, executor.Int64, 2)), "3 arguments")
}
