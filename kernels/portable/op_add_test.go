package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestAdd(t *testing.T) {
	f32 := func(v []float32, s ...int) *executor.Tensor { return tensor(t, v, s...) }
	tests := []struct {
		name  string
		a, b  *executor.Tensor
		alpha any
		out   *executor.Tensor
		sizes []int
		want  []float64
	}{
		{"same shape", f32([]float32{1, 2, 3, 4}, 2, 2), f32([]float32{10, 20, 30, 40}, 2, 2), 1, empty(t, executor.Float32, 2, 2), []int{2, 2}, []float64{11, 22, 33, 44}},
		{"alpha", f32([]float32{1, 2}, 2), f32([]float32{10, 20}, 2), 2, empty(t, executor.Float32, 2), []int{2}, []float64{21, 42}},
		{"float alpha", f32([]float32{1, 2}, 2), f32([]float32{1, 1}, 2), 0.5, empty(t, executor.Float32, 2), []int{2}, []float64{1.5, 2.5}},
		{"broadcast row", f32([]float32{1, 2, 3, 4, 5, 6}, 2, 3), f32([]float32{10, 20, 30}, 3), 1, empty(t, executor.Float32, 2, 3), []int{2, 3}, []float64{11, 22, 33, 14, 25, 36}},
		{"broadcast both", f32([]float32{1, 2}, 2, 1), f32([]float32{10, 20, 30}, 1, 3), 1, empty(t, executor.Float32, 2, 3), []int{2, 3}, []float64{11, 21, 31, 12, 22, 32}},
		{"int64 + float32 promotes", tensor(t, []int64{1, 2}, 2), f32([]float32{0.5, 0.25}, 2), 1, empty(t, executor.Float32, 2), []int{2}, []float64{1.5, 2.25}},
		{"int32 + 0-d int64 stays int32", tensor(t, []int32{1, 2}, 2), tensor(t, []int64{5}), 1, empty(t, executor.Int32, 2), []int{2}, []float64{6, 7}},
		{"bool + bool", tensor(t, []bool{true, false}, 2), tensor(t, []bool{true, false}, 2), 1, empty(t, executor.Bool, 2), []int{2}, []float64{1, 0}},
		{"operands cast to the result type first", f32([]float32{1}, 1), tensor(t, []int64{16777217}, 1), 1, empty(t, executor.Float32, 1), []int{1}, []float64{16777216}},
		{"int8 wraps", tensor(t, []int8{127}, 1), tensor(t, []int8{1}, 1), 1, empty(t, executor.Int8, 1), []int{1}, []float64{-128}},
		{"empty", f32([]float32{}, 0, 3), f32([]float32{1, 2, 3}, 3), 1, empty(t, executor.Float32, 0, 3), []int{0, 3}, nil},
		{"dynamic out resized", f32([]float32{1, 2}, 1, 2), f32([]float32{1, 1}, 1, 2), 1, dynamic(t, executor.Float32, 4, 2), []int{1, 2}, []float64{2, 3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := call(t, "aten::add.out", tc.a, tc.b, tc.alpha, tc.out, tc.out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.sizes, tc.want)
		})
	}
}

func TestAddScalar(t *testing.T) {
	out := empty(t, executor.Float32, 2)
	if err := call(t, "aten::add.Scalar_out", tensor(t, []int32{1, 2}, 2), 0.5, 1, out, out); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, out, []int{2}, []float64{1.5, 2.5})
	// An int tensor plus an int scalar stays int.
	iout := empty(t, executor.Int32, 2)
	if err := call(t, "aten::add.Scalar_out", tensor(t, []int32{1, 2}, 2), 3, 2, iout, iout); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, iout, []int{2}, []float64{7, 8})
}

func TestAddErrors(t *testing.T) {
	f := tensor(t, []float32{1, 2, 3}, 3)
	wantErr(t, call(t, "aten::add.out", f, tensor(t, []float32{1, 2}, 2), 1, empty(t, executor.Float32, 3), none), "do not broadcast")
	wantErr(t, call(t, "aten::add.out", f, f, 1, empty(t, executor.Float32, 4), none), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::add.out", f, f, 1, empty(t, executor.Int32, 3), none), "cannot be cast")
	wantErr(t, call(t, "aten::add.out", f, 1, 1, empty(t, executor.Float32, 3), none), "argument 1 (other): want Tensor, got Int")
	wantErr(t, call(t, "aten::add.out", tensor(t, []int32{1}, 1), tensor(t, []int32{1}, 1), 0.5, empty(t, executor.Int32, 1), none), "floating alpha")
	wantErr(t, call(t, "aten::add.out", f, f, 1, empty(t, executor.Float32, 3)), "4 arguments")
}
