package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.sub.
func TestSub(t *testing.T) {
	f32 := func(v ...float32) *executor.Tensor { return tensor(t, v, len(v)) }
	for _, tc := range []struct {
		alpha any
		arithBinaryCase
	}{
		{1, arithBinaryCase{"float32", f32(1, 2, 3), f32(0.5, 3, -1), empty(t, executor.Float32, 3), []int{3}, []float64{0.5, -1, 4}}},
		{3, arithBinaryCase{"alpha", f32(1, 2), f32(0.1, 0.2), empty(t, executor.Float32, 2), []int{2}, []float64{0.699999988079071, 1.399999976158142}}},
		{0.5, arithBinaryCase{"float16 float alpha", arithTyped(t, executor.Float16, []float64{1}, 1), arithTyped(t, executor.Float16, []float64{0.1}, 1), empty(t, executor.Float16, 1), []int{1}, []float64{0.9501953125}}},
		{2, arithBinaryCase{"int32 alpha broadcast", tensor(t, []int32{1, 2}, 2), tensor(t, []int32{5}, 1), empty(t, executor.Int32, 2), []int{2}, []float64{-9, -8}}},
		{1, arithBinaryCase{"int8 wraps", tensor(t, []int8{-128}, 1), tensor(t, []int8{1}, 1), empty(t, executor.Int8, 1), []int{1}, []float64{127}}},
		{1, arithBinaryCase{"uint8 wraps", tensor(t, []uint8{1}, 1), tensor(t, []uint8{2}, 1), empty(t, executor.Uint8, 1), []int{1}, []float64{255}}},
		{1, arithBinaryCase{"int64 minus float32", tensor(t, []int64{1, 2}, 2), f32(0.5, 0.25), empty(t, executor.Float32, 2), []int{2}, []float64{0.5, 1.75}}},
		{1, arithBinaryCase{"broadcast rows", tensor(t, []float32{1, 2, 3, 4, 5, 6}, 2, 3), f32(1, 2, 3), empty(t, executor.Float32, 2, 3), []int{2, 3}, []float64{0, 0, 0, 3, 3, 3}}},
		{1, arithBinaryCase{"broadcast self", f32(10), tensor(t, []float32{1, 2, 3, 4}, 2, 2), empty(t, executor.Float32, 2, 2), []int{2, 2}, []float64{9, 8, 7, 6}}},
		{1, arithBinaryCase{"nan", f32(float32(arithNaN), float32(arithInf)), f32(1, float32(arithInf)), empty(t, executor.Float32, 2), []int{2}, []float64{arithNaN, arithNaN}}},
		{1, arithBinaryCase{"float64", tensor(t, []float64{0.3}, 1), tensor(t, []float64{0.1}, 1), empty(t, executor.Float64, 1), []int{1}, []float64{0.19999999999999998}}},
		{1, arithBinaryCase{"empty", tensor(t, []float32{}, 0, 2), f32(1, 2), empty(t, executor.Float32, 0, 2), []int{0, 2}, []float64{}}},
		{1, arithBinaryCase{"dynamic out", f32(1, 2), f32(1), dynamic(t, executor.Float32, 3), []int{2}, []float64{0, 1}}},
	} {
		arithRunBinary(t, "aten::sub.out", []arithBinaryCase{tc.arithBinaryCase}, tc.alpha)
	}
	f, b := f32(1, 2), tensor(t, []bool{true, false}, 2)
	wantErr(t, call(t, "aten::sub.out", b, b, 1, empty(t, executor.Bool, 2), none), "bool tensor")
	wantErr(t, call(t, "aten::sub.out", f, b, 1, empty(t, executor.Float32, 2), none), "bool tensor")
	wantErr(t, call(t, "aten::sub.out", f, f, true, empty(t, executor.Float32, 2), none), "argument 2 (alpha): a bool alpha")
	wantErr(t, call(t, "aten::sub.out", tensor(t, []int32{1}, 1), tensor(t, []int32{1}, 1), 0.5, empty(t, executor.Int32, 1), none), "floating alpha")
	wantErr(t, call(t, "aten::sub.out", f, f32(1, 2, 3), 1, empty(t, executor.Float32, 2), none), "do not broadcast")
	wantErr(t, call(t, "aten::sub.out", f, f, 1, empty(t, executor.Float32, 3), none), "cannot resize")
	wantErr(t, call(t, "aten::sub.out", f, f, 1, empty(t, executor.Int32, 2), none), "cannot be cast")
	wantErr(t, call(t, "aten::sub.out", f, 1, 1, empty(t, executor.Float32, 2), none), "argument 1 (other): want Tensor, got Int")
	wantErr(t, call(t, "aten::sub.out", f, f, 1, empty(t, executor.Float32, 2)), "4 arguments")
}

// Expected values from torch.sub with a Scalar.
func TestSubScalar(t *testing.T) {
	for _, tc := range []struct {
		alpha any
		arithBinaryCase
	}{
		{3, arithBinaryCase{"float32 alpha", tensor(t, []float32{1, 2}, 2), 0.1, empty(t, executor.Float32, 2), []int{2}, []float64{0.699999988079071, 1.7000000476837158}}},
		{1, arithBinaryCase{"float16", arithTyped(t, executor.Float16, []float64{1}, 1), 0.1, empty(t, executor.Float16, 1), []int{1}, []float64{0.89990234375}}},
		{2, arithBinaryCase{"int32", tensor(t, []int32{1, 2}, 2), 3, empty(t, executor.Int32, 2), []int{2}, []float64{-5, -4}}},
		{1, arithBinaryCase{"int32 minus float", tensor(t, []int32{1, 2}, 2), 0.5, empty(t, executor.Float32, 2), []int{2}, []float64{0.5, 1.5}}},
		{1, arithBinaryCase{"float64 2-d", tensor(t, []float64{1, 2, 3, 4}, 2, 2), 1, empty(t, executor.Float64, 2, 2), []int{2, 2}, []float64{0, 1, 2, 3}}},
		{1, arithBinaryCase{"empty", tensor(t, []float32{}, 0), 1, empty(t, executor.Float32, 0), []int{0}, []float64{}}},
	} {
		arithRunBinary(t, "aten::sub.Scalar_out", []arithBinaryCase{tc.arithBinaryCase}, tc.alpha)
	}
	f := tensor(t, []float32{1, 2}, 2)
	wantErr(t, call(t, "aten::sub.Scalar_out", tensor(t, []bool{true}, 1), 1, 1, empty(t, executor.Int64, 1), none), "bool tensor or scalar")
	wantErr(t, call(t, "aten::sub.Scalar_out", f, true, 1, empty(t, executor.Float32, 2), none), "bool tensor or scalar")
	wantErr(t, call(t, "aten::sub.Scalar_out", tensor(t, []int32{1}, 1), 1, 0.5, empty(t, executor.Int32, 1), none), "floating alpha")
	wantErr(t, call(t, "aten::sub.Scalar_out", tensor(t, []int32{1}, 1), 0.5, 1, empty(t, executor.Int32, 1), none), "cannot be cast")
	wantErr(t, call(t, "aten::sub.Scalar_out", f, 1, 1, empty(t, executor.Float32, 1), none), "cannot resize")
	wantErr(t, call(t, "aten::sub.Scalar_out", f, f, 1, empty(t, executor.Float32, 2), none), "argument 1 (other): want a Scalar")
}
