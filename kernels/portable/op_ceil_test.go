package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.ceil.
func TestCeil(t *testing.T) {
	arithRunUnary(t, "aten::ceil.out", []arithUnaryCase{
		{"float32", tensor(t, []float32{-2.5, -1, -0.25, 0, 0.5, 1, 3}, 7), empty(t, executor.Float32, 7), []float64{-2, -1, 0, 0, 1, 1, 3}},
		{"int64 unchanged", tensor(t, []int64{-7, 0, 9}, 3), empty(t, executor.Int64, 3), []float64{-7, 0, 9}},
		{"float64 2-d", tensor(t, []float64{1.1, -1.1, 2, arithNaN}, 2, 2), empty(t, executor.Float64, 2, 2), []float64{2, -1, 2, arithNaN}},
		{"empty", tensor(t, []float32{}, 2, 0), empty(t, executor.Float32, 2, 0), []float64{}},
	})
	// ceil(-0.25) is -0.
	out := empty(t, executor.Float32, 1)
	if err := call(t, "aten::ceil.out", tensor(t, []float32{-0.25}, 1), out, out); err != nil {
		t.Fatal(err)
	}
	if v := executor.Data[float32](out)[0]; !math.Signbit(float64(v)) {
		t.Errorf("ceil(-0.25) = %v, want -0", v)
	}
	arithKeepOpErrors(t, "aten::ceil.out", tensor(t, []bool{true}, 1))
}
