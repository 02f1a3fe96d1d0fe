package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.tanh (torch 2.15).
func TestTanh(t *testing.T) {
	arithRunUnary(t, "aten::tanh.out", []arithUnaryCase{
		{"float32", tensor(t, []float32{-2.5, -1.0, -0.25, 0.0, 0.5, 1.0, 3.0}, 7), empty(t, executor.Float32, 7),
			[]float64{-0.9866142868995667, -0.7615941762924194, -0.24491865932941437, 0.0, 0.46211716532707214, 0.7615941762924194, 0.9950547814369202}},
		{"int32 computes in float32", tensor(t, []int32{-2, 0, 1, 4}, 2, 2), empty(t, executor.Float32, 2, 2),
			[]float64{-0.9640275835990906, 0.0, 0.7615941762924194, 0.9993293285369873}},
		{"bool", tensor(t, []bool{true, false}, 2), empty(t, executor.Float32, 2), []float64{0.7615941762924194, 0.0}},
		{"inf and nan", tensor(t, []float32{float32(-arithInf), float32(arithInf), float32(arithNaN)}, 3), empty(t, executor.Float32, 3),
			[]float64{-1.0, 1.0, arithNaN}},
		{"float64", tensor(t, []float64{0.1, 1.7, -3.3}, 3), empty(t, executor.Float64, 3),
			[]float64{0.09966799462495582, 0.935409070603099, -0.9972829600991421}},
		{"float16", arithTyped(t, executor.Float16, []float64{0.1, 1.7, -3.3}, 3), empty(t, executor.Float16, 3),
			[]float64{0.09967041015625, 0.935546875, -0.9970703125}},
		{"bfloat16", arithTyped(t, executor.BFloat16, []float64{0.1, 1.7, -3.3}, 3), empty(t, executor.BFloat16, 3),
			[]float64{0.099609375, 0.9375, -0.99609375}},
		{"empty", tensor(t, []float32{}, 0, 2), empty(t, executor.Float32, 0, 2), []float64{}},
		{"dynamic out", tensor(t, []float32{0.5, 1}, 1, 2), dynamic(t, executor.Float32, 4, 4), []float64{0.46211716532707214, 0.7615941762924194}},
	})
	// An integral input computes in float32 even into a float64 out.
	out := empty(t, executor.Float64, 4)
	if err := call(t, "aten::tanh.out", tensor(t, []int32{-2, 0, 1, 4}, 4), out, out); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, out, []int{4}, []float64{-0.9640275835990906, 0.0, 0.7615941762924194, 0.9993293285369873})
	for _, v := range executor.Data[float64](out) {
		if v == v && float64(float32(v)) != v {
			t.Errorf("%v is not a float32 value", v)
		}
	}
	arithFloatOpErrors(t, "aten::tanh.out")
}
