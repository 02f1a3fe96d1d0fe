package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.ops.aten.elu.
func TestElu(t *testing.T) {
	x := []float32{-2.5, -1, -0.25, 0, 0.5, 1, 3}
	for _, tc := range []struct {
		name                     string
		in, out                  *executor.Tensor
		alpha, scale, inputScale any
		want                     []float64
	}{
		{"float32 alpha 2 scale 1.5 input_scale 0.5", tensor(t, x, 7), empty(t, executor.Float32, 7), 2.0, 1.5, 0.5,
			[]float64{-2.1404855251312256, -1.180408000946045, -0.3525092899799347, 0.0, 0.75, 1.5, 4.5}},
		{"float64 defaults", tensor(t, []float64{-4, -1, 0, 1, 3.5}, 5), empty(t, executor.Float64, 5), 1, 1, 1,
			[]float64{-0.9816843611112658, -0.6321205588285577, 0.0, 1.0, 3.5}},
		{"float64 2-d", tensor(t, []float64{-4, -1, 1, 3.5}, 2, 2), empty(t, executor.Float64, 2, 2), 2.0, 1.5, 0.5,
			[]float64{-2.593994150290162, -1.1804080208620997, 1.5, 5.25}},
		{"float16", arithTyped(t, executor.Float16, []float64{0.1, 1.7, -3.3}, 3), empty(t, executor.Float16, 3), 1, 1, 1,
			[]float64{0.0999755859375, 1.7001953125, -0.96337890625}},
		{"inf and nan", tensor(t, []float32{float32(-arithInf), float32(arithInf), float32(arithNaN)}, 3), empty(t, executor.Float32, 3), 1, 1, 1,
			[]float64{-1, arithInf, arithNaN}},
		{"empty", tensor(t, []float32{}, 0), empty(t, executor.Float32, 0), 1, 1, 1, []float64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := call(t, "aten::elu.out", tc.in, tc.alpha, tc.scale, tc.inputScale, tc.out, tc.out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.in.Sizes(), tc.want)
		})
	}
	f := tensor(t, []float32{1}, 1)
	wantErr(t, call(t, "aten::elu.out", tensor(t, []int32{1}, 1), 1, 1, 1, empty(t, executor.Int32, 1), none), "not supported for int32")
	wantErr(t, call(t, "aten::elu.out", f, 1, none, 1, empty(t, executor.Float32, 1), none), "argument 2 (scale): want a Scalar")
	wantErr(t, call(t, "aten::elu.out", f, 1, 1, 1, empty(t, executor.Float64, 1), none), "want self's dtype")
	wantErr(t, call(t, "aten::elu.out", f, 1, 1, 1, empty(t, executor.Float32, 3), none), "cannot resize")
	wantErr(t, call(t, "aten::elu.out", f, 1, 1, empty(t, executor.Float32, 1), none), "5 arguments")
}
