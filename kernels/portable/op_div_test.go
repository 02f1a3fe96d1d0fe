package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// arithBinaryCase is one case of a binary op test (a and b are tensors or Go scalars).
type arithBinaryCase struct {
	name  string
	a, b  any
	out   *executor.Tensor
	sizes []int
	want  []float64
}

// arithRunBinary calls op(a, b, [extra...], out) for every case.
func arithRunBinary(t *testing.T, op string, cases []arithBinaryCase, extra ...any) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := append(append([]any{tc.a, tc.b}, extra...), tc.out, tc.out)
			if err := call(t, op, args...); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.sizes, tc.want)
		})
	}
}

// Expected values from torch.div.
func TestDiv(t *testing.T) {
	f32 := func(v ...float32) *executor.Tensor { return tensor(t, v, len(v)) }
	arithRunBinary(t, "aten::div.out", []arithBinaryCase{
		{"float32", f32(1, -7, 5, 0, 1), f32(3, 2, float32(negZero()), 0, 10), empty(t, executor.Float32, 5), []int{5},
			[]float64{0.3333333432674408, -3.5, -arithInf, arithNaN, 0.10000000149011612}},
		{"int32 gives float", tensor(t, []int32{7, -7, 1}, 3), tensor(t, []int32{2, 2, 0}, 3), empty(t, executor.Float32, 3), []int{3}, []float64{3.5, -3.5, arithInf}},
		{"int8 by uint8", tensor(t, []int8{7, -7}, 2), tensor(t, []uint8{3}, 1), empty(t, executor.Float32, 2), []int{2}, []float64{2.3333332538604736, -2.3333332538604736}},
		{"bool", tensor(t, []bool{true, false}, 2), tensor(t, []bool{true, true}, 2), empty(t, executor.Float32, 2), []int{2}, []float64{1, 0}},
		{"broadcast rows", tensor(t, []float32{2, 4, 6, 8, 10, 12}, 2, 3), f32(2, 4, 6), empty(t, executor.Float32, 2, 3), []int{2, 3}, []float64{1, 1, 1, 4, 2.5, 2}},
		{"broadcast columns", tensor(t, []float32{2, 4, 6, 8, 10, 12}, 2, 3), tensor(t, []float32{2, 4}, 2, 1), empty(t, executor.Float32, 2, 3), []int{2, 3}, []float64{1, 2, 3, 2, 2.5, 3}},
		{"scalar numerator", f32(12), f32(2, 3, 4), empty(t, executor.Float32, 3), []int{3}, []float64{6, 4, 3}},
		{"float64", tensor(t, []float64{1, 2}, 2), tensor(t, []float64{3, 3}, 2), empty(t, executor.Float64, 2), []int{2}, []float64{1.0 / 3, 2.0 / 3}},
		{"float32 with 0-d float64", f32(1, 2), tensor(t, []float64{3}), empty(t, executor.Float32, 2), []int{2}, []float64{0.3333333432674408, 0.6666666865348816}},
		{"float16", arithTyped(t, executor.Float16, []float64{1, 2}, 2), arithTyped(t, executor.Float16, []float64{3, 3}, 2), empty(t, executor.Float16, 2), []int{2}, []float64{0.333251953125, 0.66650390625}},
		{"empty", tensor(t, []float32{}, 0, 3), f32(1, 2, 3), empty(t, executor.Float32, 0, 3), []int{0, 3}, []float64{}},
		{"dynamic out", f32(1, 2), f32(2), dynamic(t, executor.Float32, 6), []int{2}, []float64{0.5, 1}},
	})
	// int / int computes in float32, even into a float64 out.
	out := empty(t, executor.Float64, 2)
	if err := call(t, "aten::div.out", tensor(t, []int64{1, 2}, 2), tensor(t, []int64{3, 3}, 2), out, out); err != nil {
		t.Fatal(err)
	}
	wantValues(t, out, []int{2}, []float64{0.3333333432674408, 0.6666666865348816}, 0)

	f := f32(1, 2, 3)
	wantErr(t, call(t, "aten::div.out", tensor(t, []int32{1}, 1), tensor(t, []int32{1}, 1), empty(t, executor.Int32, 1), none), "cannot be cast to out's int32")
	wantErr(t, call(t, "aten::div.out", f, f32(1, 2), empty(t, executor.Float32, 3), none), "do not broadcast")
	wantErr(t, call(t, "aten::div.out", f, f, empty(t, executor.Float32, 2), none), "cannot resize")
	wantErr(t, call(t, "aten::div.out", f, 2, empty(t, executor.Float32, 3), none), "argument 1 (other): want Tensor, got Int")
	wantErr(t, call(t, "aten::div.out", f, f, empty(t, executor.Float32, 3)), "3 arguments")
}

// Expected values from torch.div(rounding_mode=...).
func TestDivMode(t *testing.T) {
	f32 := func(v ...float32) *executor.Tensor { return tensor(t, v, len(v)) }
	i32 := func(v ...int32) *executor.Tensor { return tensor(t, v, len(v)) }
	for _, tc := range []struct {
		mode string
		arithBinaryCase
	}{
		{"trunc", arithBinaryCase{"float32", f32(7, -7, 5, 0, -0.5), f32(2, 2, float32(negZero()), 0, 3), empty(t, executor.Float32, 5), []int{5},
			[]float64{3, -3, -arithInf, arithNaN, 0}}},
		{"floor", arithBinaryCase{"float32", f32(7, -7, 5, 0, 1, -1, -0.5, 0.5), f32(2, 2, float32(negZero()), 0, 0, 0, 3, 3), empty(t, executor.Float32, 8), []int{8},
			[]float64{3, -4, -arithInf, arithNaN, arithInf, -arithInf, -1, 0}}},
		{"floor", arithBinaryCase{"float32 rounding", f32(1e10, -1e10, 0.3), f32(3, 3, 0.1), empty(t, executor.Float32, 3), []int{3},
			[]float64{3333333248, -3333333248, 3}}},
		{"floor", arithBinaryCase{"float64", tensor(t, []float64{0.3, 1}, 2), tensor(t, []float64{0.1, 0.1}, 2), empty(t, executor.Float64, 2), []int{2}, []float64{2, 9}}},
		{"floor", arithBinaryCase{"int32", i32(7, -7, 7, -7, -6), i32(2, 2, -2, -2, 3), empty(t, executor.Int32, 5), []int{5}, []float64{3, -4, -4, 3, -2}}},
		{"trunc", arithBinaryCase{"int32", i32(7, -7, 7, -7), i32(2, 2, -2, -2), empty(t, executor.Int32, 4), []int{4}, []float64{3, -3, -3, 3}}},
		{"floor", arithBinaryCase{"int8 wraps", tensor(t, []int8{-128}, 1), tensor(t, []int8{-1}, 1), empty(t, executor.Int8, 1), []int{1}, []float64{-128}}},
		{"floor", arithBinaryCase{"int64 broadcast", tensor(t, []int64{7, -7, 9, -9}, 2, 2), tensor(t, []int64{2, -4}, 2), empty(t, executor.Int64, 2, 2), []int{2, 2}, []float64{3, 1, 4, 2}}},
		{"trunc", arithBinaryCase{"int into float out", i32(7, -7), i32(2, 2), empty(t, executor.Float32, 2), []int{2}, []float64{3, -3}}},
		{"floor", arithBinaryCase{"empty", tensor(t, []int32{}, 0), i32(0), empty(t, executor.Int32, 0), []int{0}, []float64{}}},
	} {
		arithRunBinary(t, "aten::div.out_mode", []arithBinaryCase{tc.arithBinaryCase}, tc.mode)
	}
	// No rounding mode is true division.
	arithRunBinary(t, "aten::div.out_mode", []arithBinaryCase{
		{"none", i32(7, -7), i32(2, 2), empty(t, executor.Float32, 2), []int{2}, []float64{3.5, -3.5}},
	}, none)

	i := i32(1, 2)
	wantErr(t, call(t, "aten::div.out_mode", i, i32(1, 0), "floor", empty(t, executor.Int32, 2), none), "integer division by zero")
	wantErr(t, call(t, "aten::div.out_mode", i, i32(0, 1), "trunc", empty(t, executor.Int32, 2), none), "integer division by zero")
	wantErr(t, call(t, "aten::div.out_mode", i, i, "round", empty(t, executor.Int32, 2), none), `argument 2 (rounding_mode): want None, "trunc" or "floor", got "round"`)
	wantErr(t, call(t, "aten::div.out_mode", i, i, 1, empty(t, executor.Int32, 2), none), "argument 2 (rounding_mode): want String, got Int")
	wantErr(t, call(t, "aten::div.out_mode", tensor(t, []bool{true}, 1), tensor(t, []bool{true}, 1), "floor", empty(t, executor.Bool, 1), none), "not supported for bool")
	wantErr(t, call(t, "aten::div.out_mode", f32(1), f32(1), "floor", empty(t, executor.Int32, 1), none), "cannot be cast")
	wantErr(t, call(t, "aten::div.out_mode", i, i, "floor", empty(t, executor.Int32, 3), none), "cannot resize")
	wantErr(t, call(t, "aten::div.out_mode", i, i, "floor", empty(t, executor.Int32, 2)), "4 arguments")
}

// Expected values from torch.div with a Scalar divisor.
func TestDivScalar(t *testing.T) {
	arithRunBinary(t, "aten::div.Scalar_out", []arithBinaryCase{
		{"int32 by int", tensor(t, []int32{1, 2, 3}, 3), 2, empty(t, executor.Float32, 3), []int{3}, []float64{0.5, 1, 1.5}},
		{"float32 by 0.1", tensor(t, []float32{1, 2, 3}, 3), 0.1, empty(t, executor.Float32, 3), []int{3}, []float64{10, 20, 30}},
		{"float16 by int", arithTyped(t, executor.Float16, []float64{1, 2, 3}, 3), 3, empty(t, executor.Float16, 3), []int{3}, []float64{0.333251953125, 0.66650390625, 1}},
		{"float64 by zero", tensor(t, []float64{1, -1, 0}, 3), 0, empty(t, executor.Float64, 3), []int{3}, []float64{arithInf, -arithInf, arithNaN}},
		{"bool by bool", tensor(t, []bool{true, false}, 2), true, empty(t, executor.Float32, 2), []int{2}, []float64{1, 0}},
		{"2-d", tensor(t, []float32{1, 2, 3, 4}, 2, 2), 4, empty(t, executor.Float32, 2, 2), []int{2, 2}, []float64{0.25, 0.5, 0.75, 1}},
		{"empty", tensor(t, []float32{}, 0), 2, empty(t, executor.Float32, 0), []int{0}, []float64{}},
	})
	wantErr(t, call(t, "aten::div.Scalar_out", tensor(t, []int32{1}, 1), 2, empty(t, executor.Int32, 1), none), "cannot be cast")
	wantErr(t, call(t, "aten::div.Scalar_out", tensor(t, []float32{1}, 1), none, empty(t, executor.Float32, 1), none), "argument 1 (other): want a Scalar")
	wantErr(t, call(t, "aten::div.Scalar_out", tensor(t, []float32{1}, 1), 2, empty(t, executor.Float32, 2), none), "cannot resize")
}

// Expected values from torch.div with a Scalar divisor and a rounding mode.
func TestDivScalarMode(t *testing.T) {
	i64 := tensor(t, []int64{7, -7}, 2)
	for _, tc := range []struct {
		mode any
		arithBinaryCase
	}{
		{"floor", arithBinaryCase{"int64 by int", i64, 2, empty(t, executor.Int64, 2), []int{2}, []float64{3, -4}}},
		{"floor", arithBinaryCase{"int64 by float", i64, 2.5, empty(t, executor.Float32, 2), []int{2}, []float64{2, -3}}},
		{"trunc", arithBinaryCase{"float32 by int", tensor(t, []float32{7, -7}, 2), 2, empty(t, executor.Float32, 2), []int{2}, []float64{3, -3}}},
		{"floor", arithBinaryCase{"int8 by -1", tensor(t, []int8{100, -100, -128}, 3), -1, empty(t, executor.Int8, 3), []int{3}, []float64{-100, 100, -128}}},
		{"floor", arithBinaryCase{"float by zero", tensor(t, []float32{1, -1}, 2), 0.0, empty(t, executor.Float32, 2), []int{2}, []float64{arithInf, -arithInf}}},
		{none, arithBinaryCase{"no mode", i64, 2, empty(t, executor.Float32, 2), []int{2}, []float64{3.5, -3.5}}},
	} {
		arithRunBinary(t, "aten::div.Scalar_mode_out", []arithBinaryCase{tc.arithBinaryCase}, tc.mode)
	}
	wantErr(t, call(t, "aten::div.Scalar_mode_out", i64, 0, "floor", empty(t, executor.Int64, 2), none), "integer division by zero")
	wantErr(t, call(t, "aten::div.Scalar_mode_out", i64, false, "trunc", empty(t, executor.Int64, 2), none), "integer division by zero")
	wantErr(t, call(t, "aten::div.Scalar_mode_out", i64, 2, "ceil", empty(t, executor.Int64, 2), none), "rounding_mode")
	wantErr(t, call(t, "aten::div.Scalar_mode_out", tensor(t, []bool{true}, 1), true, "floor", empty(t, executor.Bool, 1), none), "not supported for bool")
	wantErr(t, call(t, "aten::div.Scalar_mode_out", i64, 2, "floor", empty(t, executor.Int64, 2)), "4 arguments")
}
