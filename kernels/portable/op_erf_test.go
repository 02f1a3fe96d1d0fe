package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.erf (torch 2.15).
func TestErf(t *testing.T) {
	arithRunUnary(t, "aten::erf.out", []arithUnaryCase{
		{"float32", tensor(t, []float32{-2.5, -1.0, -0.25, 0.0, 0.5, 1.0, 3.0}, 7), empty(t, executor.Float32, 7),
			[]float64{-0.9995930194854736, -0.8427007794380188, -0.27632638812065125, 0.0, 0.5204998850822449, 0.8427007794380188, 0.9999778866767883}},
		{"int32 computes in float32", tensor(t, []int32{-2, 0, 1, 4}, 2, 2), empty(t, executor.Float32, 2, 2),
			[]float64{-0.9953222870826721, 0.0, 0.8427007794380188, 1.0}},
		{"bool", tensor(t, []bool{true, false}, 2), empty(t, executor.Float32, 2), []float64{0.8427007794380188, 0.0}},
		{"inf and nan", tensor(t, []float32{float32(-arithInf), float32(arithInf), float32(arithNaN)}, 3), empty(t, executor.Float32, 3),
			[]float64{-1.0, 1.0, arithNaN}},
		{"float64", tensor(t, []float64{0.1, 1.7, -3.3}, 3), empty(t, executor.Float64, 3),
			[]float64{0.1124629160182849, 0.9837904585907745, -0.9999969422902035}},
		{"float16", arithTyped(t, executor.Float16, []float64{0.1, 1.7, -3.3}, 3), empty(t, executor.Float16, 3),
			[]float64{0.1124267578125, 0.98388671875, -1.0}},
		{"bfloat16", arithTyped(t, executor.BFloat16, []float64{0.1, 1.7, -3.3}, 3), empty(t, executor.BFloat16, 3),
			[]float64{0.11279296875, 0.984375, -1.0}},
		{"empty", tensor(t, []float32{}, 0, 2), empty(t, executor.Float32, 0, 2), []float64{}},
		{"dynamic out", tensor(t, []float32{0.5, 1}, 1, 2), dynamic(t, executor.Float32, 4, 4), []float64{0.5204998850822449, 0.8427007794380188}},
	})
	// An integral input computes in float32 even into a float64 out.
	out := empty(t, executor.Float64, 4)
	if err := call(t, "aten::erf.out", tensor(t, []int32{-2, 0, 1, 4}, 4), out, out); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, out, []int{4}, []float64{-0.9953222870826721, 0.0, 0.8427007794380188, 1.0})
	for _, v := range executor.Data[float64](out) {
		if v == v && float64(float32(v)) != v {
			t.Errorf("%v is not a float32 value", v)
		}
	}
	arithFloatOpErrors(t, "aten::erf.out")
}
