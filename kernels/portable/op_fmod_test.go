package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.fmod: the result has the dividend's sign.
func TestFmod(t *testing.T) {
	f32 := func(v ...float32) *executor.Tensor { return tensor(t, v, len(v)) }
	i32 := func(v ...int32) *executor.Tensor { return tensor(t, v, len(v)) }
	arithRunBinary(t, "aten::fmod.Tensor_out", []arithBinaryCase{
		{"float32", f32(-7, 7, -7, 7, 5, float32(arithInf), 5.5), f32(3, 3, -3, -3, 0, 2, float32(arithInf)), empty(t, executor.Float32, 7), []int{7},
			[]float64{-1, 1, -1, 1, arithNaN, arithNaN, 5.5}},
		{"int32", i32(-7, 7, -7, 7), i32(3, 3, -3, -3), empty(t, executor.Int32, 4), []int{4}, []float64{-1, 1, -1, 1}},
		{"int64 min by -1", tensor(t, []int64{-9223372036854775808}, 1), tensor(t, []int64{-1}, 1), empty(t, executor.Int64, 1), []int{1}, []float64{0}},
		{"broadcast", tensor(t, []float64{-5, 5, -6, 6}, 2, 2), tensor(t, []float64{4, -4}, 2), empty(t, executor.Float64, 2, 2), []int{2, 2}, []float64{-1, 1, -2, 2}},
		{"int32 by float32", i32(-7, 7), f32(2.5, 2.5), empty(t, executor.Float32, 2), []int{2}, []float64{-2, 2}},
		{"empty", tensor(t, []float32{}, 0), f32(1), empty(t, executor.Float32, 0), []int{0}, []float64{}},
	})
	wantErr(t, call(t, "aten::fmod.Tensor_out", i32(1, 2), i32(0, 1), empty(t, executor.Int32, 2), none), "integer division by zero")
	wantErr(t, call(t, "aten::fmod.Tensor_out", tensor(t, []bool{true}, 1), tensor(t, []bool{true}, 1), empty(t, executor.Bool, 1), none), "not supported for bool")
	wantErr(t, call(t, "aten::fmod.Tensor_out", f32(1), f32(1), empty(t, executor.Int32, 1), none), "cannot be cast")
	wantErr(t, call(t, "aten::fmod.Tensor_out", f32(1), f32(1), empty(t, executor.Float32, 2), none), "cannot resize")
	wantErr(t, call(t, "aten::fmod.Tensor_out", f32(1), f32(1), empty(t, executor.Float32, 1)), "3 arguments")
}

// Expected values from torch.fmod with a Scalar divisor.
func TestFmodScalar(t *testing.T) {
	i64 := tensor(t, []int64{-7, 7}, 2)
	arithRunBinary(t, "aten::fmod.Scalar_out", []arithBinaryCase{
		{"int64 by float", i64, 2.5, empty(t, executor.Float32, 2), []int{2}, []float64{-2, 2}},
		{"int64 by negative int", i64, -3, empty(t, executor.Int64, 2), []int{2}, []float64{-1, 1}},
		{"bool by int", tensor(t, []bool{true, false}, 2), 3, empty(t, executor.Int64, 2), []int{2}, []float64{1, 0}},
		{"float16", arithTyped(t, executor.Float16, []float64{-7.5, 7.5}, 2), 2, empty(t, executor.Float16, 2), []int{2}, []float64{-1.5, 1.5}},
		{"2-d", tensor(t, []float32{1, 2, 3, 4}, 2, 2), 3, empty(t, executor.Float32, 2, 2), []int{2, 2}, []float64{1, 2, 0, 1}},
		{"empty", tensor(t, []float32{}, 0), 2, empty(t, executor.Float32, 0), []int{0}, []float64{}},
	})
	wantErr(t, call(t, "aten::fmod.Scalar_out", i64, 0, empty(t, executor.Int64, 2), none), "integer division by zero")
	wantErr(t, call(t, "aten::fmod.Scalar_out", tensor(t, []bool{true}, 1), true, empty(t, executor.Bool, 1), none), "not supported for bool")
	wantErr(t, call(t, "aten::fmod.Scalar_out", i64, 0.5, empty(t, executor.Int64, 2), none), "cannot be cast")
	wantErr(t, call(t, "aten::fmod.Scalar_out", i64, none, empty(t, executor.Int64, 2), none), "argument 1 (other): want a Scalar")
}
