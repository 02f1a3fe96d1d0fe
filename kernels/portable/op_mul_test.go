package portable

import (
	"fmt"
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.mul.
func TestMul(t *testing.T) {
	f32 := func(v ...float32) *executor.Tensor { return tensor(t, v, len(v)) }
	arithRunBinary(t, "aten::mul.out", []arithBinaryCase{
		{"float32", f32(1.5, 2, -3), f32(2, 0.5, 4), empty(t, executor.Float32, 3), []int{3}, []float64{3, 1, -12}},
		{"nan and inf", f32(float32(arithNaN), float32(arithInf), 0), f32(1, 0, float32(arithInf)), empty(t, executor.Float32, 3), []int{3}, []float64{arithNaN, arithNaN, arithNaN}},
		{"int8 wraps", tensor(t, []int8{100}, 1), tensor(t, []int8{3}, 1), empty(t, executor.Int8, 1), []int{1}, []float64{44}},
		{"int8 into int32 out wraps first", tensor(t, []int8{100}, 1), tensor(t, []int8{3}, 1), empty(t, executor.Int32, 1), []int{1}, []float64{44}},
		{"bool", tensor(t, []bool{true, false, true}, 3), tensor(t, []bool{true, true, false}, 3), empty(t, executor.Bool, 3), []int{3}, []float64{1, 0, 0}},
		{"int64 by float32", tensor(t, []int64{3, -2}, 2), f32(0.5, 0.25), empty(t, executor.Float32, 2), []int{2}, []float64{1.5, -0.5}},
		{"float32 by 0-d float64 casts it", f32(3), tensor(t, []float64{0.1}), empty(t, executor.Float32, 1), []int{1}, []float64{0.30000001192092896}},
		{"float32 by 1-d float64 promotes", f32(3), tensor(t, []float64{0.1}, 1), empty(t, executor.Float64, 1), []int{1}, []float64{0.30000000000000004}},
		{"broadcast", tensor(t, []float32{1, 2, 3, 4, 5, 6}, 2, 3), tensor(t, []float32{10, 100}, 2, 1), empty(t, executor.Float32, 2, 3), []int{2, 3}, []float64{10, 20, 30, 400, 500, 600}},
		{"float16", arithTyped(t, executor.Float16, []float64{3, 0.1}, 2), arithTyped(t, executor.Float16, []float64{0.1, 3}, 2), empty(t, executor.Float16, 2), []int{2}, []float64{0.2998046875, 0.2998046875}},
		{"float16 by 0-d float64 computes in float32", arithTyped(t, executor.Float16, []float64{3}, 1), tensor(t, []float64{0.1}), empty(t, executor.Float16, 1), []int{1}, []float64{0.300048828125}},
		{"empty", tensor(t, []float32{}, 2, 0), f32(2), empty(t, executor.Float32, 2, 0), []int{2, 0}, []float64{}},
		{"dynamic out", f32(1, 2), f32(3), dynamic(t, executor.Float32, 4), []int{2}, []float64{3, 6}},
	})
	f := f32(1, 2, 3)
	wantErr(t, call(t, "aten::mul.out", f, f32(1, 2), empty(t, executor.Float32, 3), none), "do not broadcast")
	wantErr(t, call(t, "aten::mul.out", f, f, empty(t, executor.Float32, 4), none), "cannot resize")
	wantErr(t, call(t, "aten::mul.out", f, f, empty(t, executor.Int64, 3), none), "cannot be cast")
	wantErr(t, call(t, "aten::mul.out", tensor(t, []int32{1}, 1), tensor(t, []int32{1}, 1), empty(t, executor.Bool, 1), none), "cannot be cast")
	wantErr(t, call(t, "aten::mul.out", f, 2.0, empty(t, executor.Float32, 3), none), "argument 1 (other): want Tensor, got Double")
	wantErr(t, call(t, "aten::mul.out", f, f, empty(t, executor.Float32, 3)), "3 arguments")
}

// Expected values from torch.mul with a Scalar.
func TestMulScalar(t *testing.T) {
	arithRunBinary(t, "aten::mul.Scalar_out", []arithBinaryCase{
		{"float32 by 0.1", tensor(t, []float32{3, 1}, 2), 0.1, empty(t, executor.Float32, 2), []int{2}, []float64{0.30000001192092896, 0.10000000149011612}},
		{"float16 by 0.1", arithTyped(t, executor.Float16, []float64{3}, 1), 0.1, empty(t, executor.Float16, 1), []int{1}, []float64{0.300048828125}},
		{"int32 by int", tensor(t, []int32{3, -4}, 2), 3, empty(t, executor.Int32, 2), []int{2}, []float64{9, -12}},
		{"int32 by float", tensor(t, []int32{3, -4}, 2), 0.5, empty(t, executor.Float32, 2), []int{2}, []float64{1.5, -2}},
		{"bool by int", tensor(t, []bool{true, false}, 2), 3, empty(t, executor.Int64, 2), []int{2}, []float64{3, 0}},
		{"bool by bool", tensor(t, []bool{true, false}, 2), true, empty(t, executor.Bool, 2), []int{2}, []float64{1, 0}},
		{"float64 2-d", tensor(t, []float64{1, 2, 3, 4}, 2, 2), 0.1, empty(t, executor.Float64, 2, 2), []int{2, 2}, []float64{0.1, 0.2, 0.30000000000000004, 0.4}},
		{"empty", tensor(t, []float32{}, 0), 2, empty(t, executor.Float32, 0), []int{0}, []float64{}},
	})
	wantErr(t, call(t, "aten::mul.Scalar_out", tensor(t, []int32{1}, 1), 0.5, empty(t, executor.Int32, 1), none), "cannot be cast")
	wantErr(t, call(t, "aten::mul.Scalar_out", tensor(t, []float32{1}, 1), 2, empty(t, executor.Float32, 2), none), "cannot resize")
	wantErr(t, call(t, "aten::mul.Scalar_out", tensor(t, []float32{1}, 1), tensor(t, []float32{1}, 1), empty(t, executor.Float32, 1), none), "want a Scalar")
}

// TestArithFastPaths checks the float32 fast paths of mul, sub and div against an independent
// reference for every broadcast pattern they take (and a few they leave to the general path),
// and against the general path.
func TestArithFastPaths(t *testing.T) {
	shapes := [][2][]int{
		{{2, 3, 4}, {2, 3, 4}},
		{{2, 3, 4}, {4}},
		{{2, 3, 4}, {3, 4}},
		{{2, 3, 4}, {1, 3, 4}},
		{{2, 3, 4}, {2, 3, 1}},
		{{2, 3, 4}, {2, 1, 1}},
		{{2, 3, 4}, {1}},
		{{2, 3, 4}, {}},
		{{4}, {2, 3, 4}},
		{{2, 3, 1}, {2, 3, 4}},
		{{}, {2, 3}},
		{{2, 3, 4}, {3, 1}},    // general path
		{{2, 1, 4}, {1, 3, 1}}, // general path
		{{1, 3}, {3}},
	}
	ops := []struct {
		name string
		f    func(x, y float64) float64
	}{
		{"aten::mul.out", func(x, y float64) float64 { return float64(float32(x) * float32(y)) }},
		{"aten::sub.out", func(x, y float64) float64 { return float64(float32(x) - float32(y)) }},
		{"aten::div.out", func(x, y float64) float64 { return float64(float32(x) / float32(y)) }},
	}
	numel := func(s []int) int {
		n := 1
		for _, d := range s {
			n *= d
		}
		return n
	}
	for _, op := range ops {
		for _, sh := range shapes {
			t.Run(fmt.Sprintf("%s %v %v", op.name, sh[0], sh[1]), func(t *testing.T) {
				av, bv := arithSeq(numel(sh[0]), -1.3, 0.37), arithSeq(numel(sh[1]), 0.7, 0.29)
				want, shape := arithRef(arithF64(av), sh[0], arithF64(bv), sh[1], op.f)
				args := func(a, b *executor.Tensor, out *executor.Tensor) []any {
					if op.name == "aten::sub.out" {
						return []any{a, b, 1, out, out}
					}
					return []any{a, b, out, out}
				}
				out := empty(t, executor.Float32, shape...)
				if err := call(t, op.name, args(tensor(t, av, sh[0]...), tensor(t, bv, sh[1]...), out)...); err != nil {
					t.Fatal(err)
				}
				wantValues(t, out, shape, arithF32(want), 0)
				// The general path (float32 operands, float64 out: computed in float32, then
				// cast) gives the same values.
				gout := empty(t, executor.Float64, shape...)
				if err := call(t, op.name, args(tensor(t, av, sh[0]...), tensor(t, bv, sh[1]...), gout)...); err != nil {
					t.Fatal(err)
				}
				wantValues(t, gout, shape, want, 0)
			})
		}
	}
}
