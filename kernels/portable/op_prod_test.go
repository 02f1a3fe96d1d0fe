package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestProd(t *testing.T) {
	x := func() *executor.Tensor { return tensor(t, []float32{1, 2, 3, 4, 5, 6}, 2, 3) }
	for _, tc := range []struct {
		name    string
		in      *executor.Tensor
		dim     int
		keepdim bool
		dtype   any
		out     *executor.Tensor
		sizes   []int
		want    []float64
	}{
		{"dim 1", x(), 1, false, none, empty(t, executor.Float32, 2), []int{2}, []float64{6, 120}},
		{"dim -2 keepdim", x(), -2, true, none, empty(t, executor.Float32, 1, 3), []int{1, 3}, []float64{4, 10, 18}},
		{"int32 into int64", tensor(t, []int32{3, 4, 5}, 3), 0, false, none, empty(t, executor.Int64), []int{}, []float64{60}},
		{"dtype float64", tensor(t, []int32{3, 4}, 2), 0, false, int64(executor.Float64), empty(t, executor.Float64), []int{}, []float64{12}},
		// Cast to out's dtype first, as PyTorch: 2 * 2 * 2.
		{"float into int64", tensor(t, []float32{2.5, 2.5, 2.5}, 3), 0, false, none, empty(t, executor.Int64), []int{}, []float64{8}},
		{"int8 wraps", tensor(t, []int8{16, 16}, 2), 0, false, none, empty(t, executor.Int8), []int{}, []float64{0}},
		{"empty product is 1", tensor(t, []float32{}, 2, 0), 1, false, none, empty(t, executor.Float32, 2), []int{2}, []float64{1, 1}},
		{"bool", tensor(t, []bool{true, true, true, false}, 2, 2), 1, false, none, empty(t, executor.Bool, 2), []int{2}, []float64{1, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := call(t, "aten::prod.int_out", tc.in, tc.dim, tc.keepdim, tc.dtype, tc.out, tc.out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.sizes, tc.want)
		})
	}
	out := empty(t, executor.Int64)
	if err := call(t, "aten::prod.out", tensor(t, []int16{-2, 3, 7}, 3), none, out, out); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, out, []int{}, []float64{-42})

	wantErr(t, call(t, "aten::prod.out", tensor(t, []int16{1}, 1), none, empty(t, executor.Int16), none), "the product of int16 is int64")
	wantErr(t, call(t, "aten::prod.int_out", x(), 2, false, none, empty(t, executor.Float32, 2), none), "out of range")
	wantErr(t, call(t, "aten::prod.int_out", x(), 1, false, int64(executor.Float64), empty(t, executor.Float32, 2), none), "differs from out's")
	wantErr(t, call(t, "aten::prod.int_out", x(), 1, false, none, empty(t, executor.Float32, 3), none), "cannot resize")
}
