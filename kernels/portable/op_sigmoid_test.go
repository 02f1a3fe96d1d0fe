package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.sigmoid (torch 2.15).
func TestSigmoid(t *testing.T) {
	arithRunUnary(t, "aten::sigmoid.out", []arithUnaryCase{
		{"float32", tensor(t, []float32{-2.5, -1.0, -0.25, 0.0, 0.5, 1.0, 3.0}, 7), empty(t, executor.Float32, 7),
			[]float64{0.07585817575454712, 0.2689414322376251, 0.43782350420951843, 0.5, 0.622459352016449, 0.7310585975646973, 0.9525741338729858}},
		{"int32 computes in float32", tensor(t, []int32{-2, 0, 1, 4}, 2, 2), empty(t, executor.Float32, 2, 2),
			[]float64{0.11920291930437088, 0.5, 0.7310585975646973, 0.9820137619972229}},
		{"bool", tensor(t, []bool{true, false}, 2), empty(t, executor.Float32, 2), []float64{0.7310585975646973, 0.5}},
		{"inf and nan", tensor(t, []float32{float32(-arithInf), float32(arithInf), float32(arithNaN)}, 3), empty(t, executor.Float32, 3),
			[]float64{0.0, 1.0, arithNaN}},
		{"float64", tensor(t, []float64{0.1, 1.7, -3.3}, 3), empty(t, executor.Float64, 3),
			[]float64{0.52497918747894, 0.8455347349164652, 0.03557118927263618}},
		{"float16", arithTyped(t, executor.Float16, []float64{0.1, 1.7, -3.3}, 3), empty(t, executor.Float16, 3),
			[]float64{0.52490234375, 0.845703125, 0.035552978515625}},
		{"bfloat16", arithTyped(t, executor.BFloat16, []float64{0.1, 1.7, -3.3}, 3), empty(t, executor.BFloat16, 3),
			[]float64{0.5234375, 0.84765625, 0.03564453125}},
		{"empty", tensor(t, []float32{}, 0, 2), empty(t, executor.Float32, 0, 2), []float64{}},
		{"dynamic out", tensor(t, []float32{0.5, 1}, 1, 2), dynamic(t, executor.Float32, 4, 4), []float64{0.622459352016449, 0.7310585975646973}},
	})
	// An integral input computes in float32 even into a float64 out.
	out := empty(t, executor.Float64, 4)
	if err := call(t, "aten::sigmoid.out", tensor(t, []int32{-2, 0, 1, 4}, 4), out, out); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, out, []int{4}, []float64{0.11920291930437088, 0.5, 0.7310585975646973, 0.9820137619972229})
	for _, v := range executor.Data[float64](out) {
		if v == v && float64(float32(v)) != v {
			t.Errorf("%v is not a float32 value", v)
		}
	}
	arithFloatOpErrors(t, "aten::sigmoid.out")
}
