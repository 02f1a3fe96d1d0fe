package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values were computed with torch.ne.
func TestNe(t *testing.T) {
	nan := float32(math.NaN())
	compareRun(t, []compareCase{
		{"Tensor: float32", "aten::ne.Tensor_out", []any{tensor(t, []float32{1, 2, 3, nan}, 4), tensor(t, []float32{1, 0, 3, nan}, 4)}, empty(t, executor.Bool, 4), []int{4}, []float64{0, 1, 0, 1}},
		{"Tensor: float32 into float32 out", "aten::ne.Tensor_out", []any{tensor(t, []float32{1, 2, 3, nan}, 4), tensor(t, []float32{1, 0, 3, nan}, 4)}, empty(t, executor.Float32, 4), []int{4}, []float64{0, 1, 0, 1}},
		{"Tensor: broadcast int32", "aten::ne.Tensor_out", []any{tensor(t, []int32{1, 2}, 2, 1), tensor(t, []int32{0, 1, 2}, 3)}, empty(t, executor.Bool, 2, 3), []int{2, 3}, []float64{1, 0, 1, 1, 1, 0}},
		{"Tensor: float16 vs int64 compares in float16", "aten::ne.Tensor_out", []any{compareF16(t, []float32{2048, 2050}, 2), tensor(t, []int64{2049, 2049}, 2)}, empty(t, executor.Bool, 2), []int{2}, []float64{0, 1}},
		{"Tensor: float64 vs float32 compares in float64", "aten::ne.Tensor_out", []any{tensor(t, []float64{0.1}, 1), tensor(t, []float32{0.1}, 1)}, empty(t, executor.Bool, 1), []int{1}, []float64{1}},
		{"Tensor: int32 vs 0-d int64 compares in int32", "aten::ne.Tensor_out", []any{tensor(t, []int32{0, 5}, 2), tensor(t, []int64{1<<32 + 5})}, empty(t, executor.Uint8, 2), []int{2}, []float64{1, 0}},
		{"Tensor: empty", "aten::ne.Tensor_out", []any{tensor(t, []float32{}, 0, 2), tensor(t, []float32{1, 2}, 2)}, empty(t, executor.Bool, 0, 2), []int{0, 2}, []float64{}},
		{"Tensor: dynamic out", "aten::ne.Tensor_out", []any{tensor(t, []int64{1, 2, 3}, 1, 3), tensor(t, []int64{2}, 1)}, dynamic(t, executor.Bool, 2, 4), []int{1, 3}, []float64{1, 0, 1}},
		{"Scalar: scalar int", "aten::ne.Scalar_out", []any{tensor(t, []float32{1, 2, nan}, 3), 2}, empty(t, executor.Bool, 3), []int{3}, []float64{1, 0, 1}},
		{"Scalar: scalar float rounds to float32", "aten::ne.Scalar_out", []any{tensor(t, []float32{0.1, 0.2}, 2), 0.1}, empty(t, executor.Bool, 2), []int{2}, []float64{0, 1}},
		{"Scalar: int8 vs 300 wraps", "aten::ne.Scalar_out", []any{tensor(t, []int8{44, 1, -100}, 3), 300}, empty(t, executor.Bool, 3), []int{3}, []float64{0, 1, 1}},
		{"Scalar: uint8 vs -1 wraps", "aten::ne.Scalar_out", []any{tensor(t, []uint8{0, 255}, 2), -1}, empty(t, executor.Bool, 2), []int{2}, []float64{1, 0}},
		{"Scalar: bool vs 0.5", "aten::ne.Scalar_out", []any{tensor(t, []bool{true, false}, 2), 0.5}, empty(t, executor.Int32, 2), []int{2}, []float64{1, 1}},
		{"Scalar: bfloat16 vs bool", "aten::ne.Scalar_out", []any{compareBF16(t, []float32{0, 1, 2}, 3), true}, empty(t, executor.Bool, 3), []int{3}, []float64{1, 0, 1}},
		{"Scalar: 0-d", "aten::ne.Scalar_out", []any{tensor(t, []float64{3}), 3}, empty(t, executor.Bool), []int{}, []float64{0}},
	})
}

func TestNeErrors(t *testing.T) {
	f := tensor(t, []float32{1, 2, 3}, 3)
	wantErr(t, call(t, "aten::ne.Tensor_out", f, tensor(t, []float32{1, 2}, 2), empty(t, executor.Bool, 3), none), "do not broadcast")
	wantErr(t, call(t, "aten::ne.Tensor_out", f, f, empty(t, executor.Bool, 4), none), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::ne.Tensor_out", f, 1, empty(t, executor.Bool, 3), none), "argument 1 (other): want Tensor, got Int")
	wantErr(t, call(t, "aten::ne.Scalar_out", f, f, empty(t, executor.Bool, 3), none), "argument 1 (other): want a Scalar")
	wantErr(t, call(t, "aten::ne.Scalar_out", f, 1, empty(t, executor.Bool, 2), none), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::ne.Scalar_out", f, 1, empty(t, executor.Bool, 3)), "3 arguments")
}
