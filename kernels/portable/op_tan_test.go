package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.tan (torch 2.15).
func TestTan(t *testing.T) {
	arithRunUnary(t, "aten::tan.out", []arithUnaryCase{
		{"float32", tensor(t, []float32{-2.5, -1.0, -0.25, 0.0, 0.5, 1.0, 3.0}, 7), empty(t, executor.Float32, 7),
			[]float64{0.747022271156311, -1.5574077367782593, -0.25534191727638245, 0.0, 0.5463024973869324, 1.5574077367782593, -0.14254654943943024}},
		{"int32 computes in float32", tensor(t, []int32{-2, 0, 1, 4}, 2, 2), empty(t, executor.Float32, 2, 2),
			[]float64{2.185039758682251, 0.0, 1.5574077367782593, 1.1578212976455688}},
		{"bool", tensor(t, []bool{true, false}, 2), empty(t, executor.Float32, 2), []float64{1.5574077367782593, 0.0}},
		{"inf and nan", tensor(t, []float32{float32(-arithInf), float32(arithInf), float32(arithNaN)}, 3), empty(t, executor.Float32, 3),
			[]float64{arithNaN, arithNaN, arithNaN}},
		{"float64", tensor(t, []float64{0.1, 1.7, -3.3}, 3), empty(t, executor.Float64, 3),
			[]float64{0.10033467208545055, -7.696602139459161, -0.15974574766003222}},
		{"float16", arithTyped(t, executor.Float16, []float64{0.1, 1.7, -3.3}, 3), empty(t, executor.Float16, 3),
			[]float64{0.10028076171875, -7.68359375, -0.1605224609375}},
		{"bfloat16", arithTyped(t, executor.BFloat16, []float64{0.1, 1.7, -3.3}, 3), empty(t, executor.BFloat16, 3),
			[]float64{0.1005859375, -7.5, -0.15625}},
		{"empty", tensor(t, []float32{}, 0, 2), empty(t, executor.Float32, 0, 2), []float64{}},
		{"dynamic out", tensor(t, []float32{0.5, 1}, 1, 2), dynamic(t, executor.Float32, 4, 4), []float64{0.5463024973869324, 1.5574077367782593}},
	})
	// An integral input computes in float32 even into a float64 out.
	out := empty(t, executor.Float64, 4)
	if err := call(t, "aten::tan.out", tensor(t, []int32{-2, 0, 1, 4}, 4), out, out); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, out, []int{4}, []float64{2.185039758682251, 0.0, 1.5574077367782593, 1.1578212976455688})
	for _, v := range executor.Data[float64](out) {
		if v == v && float64(float32(v)) != v {
			t.Errorf("%v is not a float32 value", v)
		}
	}
	arithFloatOpErrors(t, "aten::tan.out")
}
