package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Values from torch.bmm of linalgSeq(12, 7, 11, 5, 0.5) as [2, 2, 3] and
// linalgSeq(12, 5, 7, 3, 0.25) as [2, 3, 2].
var (
	bmmX    = linalgSeq(12, 7, 11, 5, 0.5)
	bmmY    = linalgSeq(12, 5, 7, 3, 0.25)
	bmmWant = []float64{1.125, -2.0, -3.0, 0.625, 0.5, -3.0, 0.625, -3.0}
)

func TestBMM(t *testing.T) {
	for _, tc := range []struct {
		name  string
		a, b  *executor.Tensor
		out   *executor.Tensor
		sizes []int
		want  []float64
	}{
		{"float32", linalgTensor(t, executor.Float32, bmmX, 2, 2, 3), linalgTensor(t, executor.Float32, bmmY, 2, 3, 2), empty(t, executor.Float32, 2, 2, 2), []int{2, 2, 2}, bmmWant},
		{"float64", linalgTensor(t, executor.Float64, bmmX, 2, 2, 3), linalgTensor(t, executor.Float64, bmmY, 2, 3, 2), empty(t, executor.Float64, 2, 2, 2), []int{2, 2, 2}, bmmWant},
		{"bfloat16", linalgTensor(t, executor.BFloat16, bmmX, 2, 2, 3), linalgTensor(t, executor.BFloat16, bmmY, 2, 3, 2), empty(t, executor.BFloat16, 2, 2, 2), []int{2, 2, 2}, bmmWant},
		{"int16", tensor(t, []int16{1, 2, 3, 4}, 2, 1, 2), tensor(t, []int16{1, 1, 2, 3}, 2, 2, 1), empty(t, executor.Int16, 2, 1, 1), []int{2, 1, 1}, []float64{3, 18}},
		{"empty batch", tensor(t, []float32{}, 0, 2, 3), tensor(t, []float32{}, 0, 3, 2), empty(t, executor.Float32, 0, 2, 2), []int{0, 2, 2}, nil},
		{"dynamic out", linalgTensor(t, executor.Float32, bmmX, 2, 2, 3), linalgTensor(t, executor.Float32, bmmY, 2, 3, 2), dynamic(t, executor.Float32, 3, 3, 3), []int{2, 2, 2}, bmmWant},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := call(t, "aten::bmm.out", tc.a, tc.b, tc.out, tc.out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.sizes, tc.want)
		})
	}
}

func TestBMMErrors(t *testing.T) {
	x := linalgTensor(t, executor.Float32, bmmX, 2, 2, 3)
	y := linalgTensor(t, executor.Float32, bmmY, 2, 3, 2)
	wantErr(t, call(t, "aten::bmm.out", x, linalgTensor(t, executor.Float32, bmmY[:6], 1, 3, 2), empty(t, executor.Float32, 2, 2, 2), none), "batch size 1 does not match self's 2")
	wantErr(t, call(t, "aten::bmm.out", x, x, empty(t, executor.Float32, 2, 2, 3), none), "inner sizes 3 and 2 differ")
	wantErr(t, call(t, "aten::bmm.out", linalgTensor(t, executor.Float32, mmA, 2, 3), y, empty(t, executor.Float32, 2, 2, 2), none), "argument 0 (self): want a 3-D tensor")
	wantErr(t, call(t, "aten::bmm.out", x, y, empty(t, executor.Float32, 2, 2, 3), none), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::bmm.out", x, linalgTensor(t, executor.Int32, bmmY, 2, 3, 2), empty(t, executor.Float32, 2, 2, 2), none), "mat2 is int32")
	wantErr(t, call(t, "aten::bmm.out", x, linalgWithDimOrder(t, y, []uint8{0, 2, 1}), empty(t, executor.Float32, 2, 2, 2), none), "argument 1 (mat2): dim order [0 2 1] is not supported")
}
