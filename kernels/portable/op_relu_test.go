package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestRelu(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name string
		in   *executor.Tensor
		out  *executor.Tensor
		want []float64
	}{
		{"float32", tensor(t, []float32{-1, 0, 2.5, float32(nan)}, 4), empty(t, executor.Float32, 4), []float64{0, 0, 2.5, nan}},
		{"int64", tensor(t, []int64{-3, 4}, 2), empty(t, executor.Int64, 2), []float64{0, 4}},
		{"2-d", tensor(t, []float64{-1, 1, -2, 2}, 2, 2), empty(t, executor.Float64, 2, 2), []float64{0, 1, 0, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := call(t, "aten::relu.out", tc.in, tc.out, tc.out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.in.Sizes(), tc.want)
		})
	}
	wantErr(t, call(t, "aten::relu.out", tensor(t, []float32{1}, 1), empty(t, executor.Int32, 1), none), "cannot be written")
}
