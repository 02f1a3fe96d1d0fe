package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.reciprocal (torch 2.15).
func TestReciprocal(t *testing.T) {
	arithRunUnary(t, "aten::reciprocal.out", []arithUnaryCase{
		{"float32", tensor(t, []float32{-2.5, -1.0, -0.25, 0.0, 0.5, 1.0, 3.0}, 7), empty(t, executor.Float32, 7),
			[]float64{-0.4000000059604645, -1.0, -4.0, arithInf, 2.0, 1.0, 0.3333333432674408}},
		{"int32 computes in float32", tensor(t, []int32{-2, 0, 1, 4}, 2, 2), empty(t, executor.Float32, 2, 2),
			[]float64{-0.5, arithInf, 1.0, 0.25}},
		{"bool", tensor(t, []bool{true, false}, 2), empty(t, executor.Float32, 2), []float64{1.0, arithInf}},
		{"inf and nan", tensor(t, []float32{float32(-arithInf), float32(arithInf), float32(arithNaN)}, 3), empty(t, executor.Float32, 3),
			[]float64{-0.0, 0.0, arithNaN}},
		{"float64", tensor(t, []float64{0.1, 1.7, -3.3}, 3), empty(t, executor.Float64, 3),
			[]float64{10.0, 0.5882352941176471, -0.30303030303030304}},
		{"float16", arithTyped(t, executor.Float16, []float64{0.1, 1.7, -3.3}, 3), empty(t, executor.Float16, 3),
			[]float64{10.0, 0.58837890625, -0.302978515625}},
		{"bfloat16", arithTyped(t, executor.BFloat16, []float64{0.1, 1.7, -3.3}, 3), empty(t, executor.BFloat16, 3),
			[]float64{10.0, 0.5859375, -0.302734375}},
		{"empty", tensor(t, []float32{}, 0, 2), empty(t, executor.Float32, 0, 2), []float64{}},
		{"dynamic out", tensor(t, []float32{0.5, 1}, 1, 2), dynamic(t, executor.Float32, 4, 4), []float64{2.0, 1.0}},
	})
	// An integral input computes in float32 even into a float64 out.
	out := empty(t, executor.Float64, 4)
	if err := call(t, "aten::reciprocal.out", tensor(t, []int32{-2, 0, 1, 4}, 4), out, out); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, out, []int{4}, []float64{-0.5, arithInf, 1.0, 0.25})
	for _, v := range executor.Data[float64](out) {
		if v == v && float64(float32(v)) != v {
			t.Errorf("%v is not a float32 value", v)
		}
	}
	arithFloatOpErrors(t, "aten::reciprocal.out")
}
