package quantized_test

import (
	"errors"
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

// TestChooseQParams: the range widened to hold 0, the float64 scale, the zero point nudged
// into the range; a tiny range takes the official minimum scale, a NaN range is refused.
func TestChooseQParams(t *testing.T) {
	cases := []struct {
		name      string
		in        []float32
		qmin      int
		qmax      int
		wantScale float64
		wantZP    int64
		wantErr   bool
	}{
		{"symmetric", []float32{-1, 1}, -128, 127, 2.0 / 255, 0, false},
		{"positive", []float32{0.5, 2.55}, 0, 255, float64(float32(2.55)) / 255, 0, false},
		{"negative", []float32{-2.55, -1}, 0, 255, float64(float32(2.55)) / 255, 255, false},
		{"zeros", []float32{0, 0}, -128, 127, 0.1, 127, false}, // the max end has the smaller error
		{"tiny", []float32{0, 1e-6}, 0, 255, float64(float32(6.1e-5)), 0, false},
		{"nan", []float32{float32(math.NaN()), 1}, -128, 127, 0, 0, true},
		{"qmin == qmax", []float32{1}, 3, 3, 0, 0, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			scale := must(executor.NewTensor(executor.Float64, 1))
			zp := must(executor.NewTensor(executor.Int64, 1))
			err := call("quantized_decomposed::choose_qparams.Tensor_out", 2, f32s(tc.in, len(tc.in)), tc.qmin, tc.qmax, 1e-5, dt(executor.Int8), scale, zp)
			if tc.wantErr {
				if !errors.Is(err, executor.ErrInvalidArgument) {
					t.Fatalf("err = %v, want ErrInvalidArgument", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s, z := executor.Data[float64](scale)[0], executor.Data[int64](zp)[0]; s != tc.wantScale || z != tc.wantZP {
				t.Errorf("got scale %v zero point %d, want %v %d", s, z, tc.wantScale, tc.wantZP)
			}
		})
	}
}
