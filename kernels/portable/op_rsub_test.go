package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.rsub: other - alpha*self.
func TestRsubScalar(t *testing.T) {
	f := tensor(t, []float32{1, 2}, 2)
	for _, tc := range []struct {
		alpha any
		arithBinaryCase
	}{
		{1, arithBinaryCase{"float32", f, 0.1, empty(t, executor.Float32, 2), []int{2}, []float64{-0.8999999761581421, -1.899999976158142}}},
		{3, arithBinaryCase{"float32 alpha", f, 0.1, empty(t, executor.Float32, 2), []int{2}, []float64{-2.9000000953674316, -5.900000095367432}}},
		{2, arithBinaryCase{"int64", tensor(t, []int64{1, 2}, 2), 10, empty(t, executor.Int64, 2), []int{2}, []float64{8, 6}}},
		{1, arithBinaryCase{"int32 from float", tensor(t, []int32{1, 2}, 2), 0.5, empty(t, executor.Float32, 2), []int{2}, []float64{-0.5, -1.5}}},
		{1, arithBinaryCase{"float16", arithTyped(t, executor.Float16, []float64{1, 2}, 2), 0.1, empty(t, executor.Float16, 2), []int{2}, []float64{-0.89990234375, -1.900390625}}},
		{1, arithBinaryCase{"2-d", tensor(t, []float64{1, 2, 3, 4}, 2, 2), 1, empty(t, executor.Float64, 2, 2), []int{2, 2}, []float64{0, -1, -2, -3}}},
		{1, arithBinaryCase{"empty", tensor(t, []float32{}, 0), 1, empty(t, executor.Float32, 0), []int{0}, []float64{}}},
	} {
		arithRunBinary(t, "aten::rsub.Scalar_out", []arithBinaryCase{tc.arithBinaryCase}, tc.alpha)
	}
	wantErr(t, call(t, "aten::rsub.Scalar_out", tensor(t, []bool{true}, 1), 1, 1, empty(t, executor.Int64, 1), none), "bool tensor or scalar")
	wantErr(t, call(t, "aten::rsub.Scalar_out", f, 1, true, empty(t, executor.Float32, 2), none), "bool alpha")
	wantErr(t, call(t, "aten::rsub.Scalar_out", tensor(t, []int32{1}, 1), 1, 0.5, empty(t, executor.Int32, 1), none), "floating alpha")
	wantErr(t, call(t, "aten::rsub.Scalar_out", tensor(t, []int32{1}, 1), 0.5, 1, empty(t, executor.Int32, 1), none), "cannot be cast")
	wantErr(t, call(t, "aten::rsub.Scalar_out", f, 1, 1, empty(t, executor.Float32, 3), none), "cannot resize")
	wantErr(t, call(t, "aten::rsub.Scalar_out", f, 1, 1, empty(t, executor.Float32, 2)), "4 arguments")
}
