package npyconv

import (
	"math"
	"strings"
	"testing"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/npy"
)

func TestMaxAbsDiff(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	for _, tc := range []struct {
		name      string
		got, want []float32
		diff      float64
		err       string
	}{
		{"equal", []float32{1, 2}, []float32{1, 2}, 0, ""},
		{"worst", []float32{1, 2.5}, []float32{1.25, 2}, 0.5, ""},
		{"nan where expected", []float32{nan, 1}, []float32{nan, 1}, 0, ""},
		{"nan unexpected", []float32{nan, 1}, []float32{0, 1}, math.Inf(1), ""},
		{"same infinity", []float32{inf}, []float32{inf}, 0, ""},
		{"shape", []float32{1}, []float32{1, 2}, 0, "got float32[1]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := executor.FromSlice(tc.got, len(tc.got))
			if err != nil {
				t.Fatal(err)
			}
			want, err := npy.FromValues([]int{len(tc.want)}, tc.want)
			if err != nil {
				t.Fatal(err)
			}
			d, err := MaxAbsDiff(got, want)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || d != tc.diff {
				t.Fatalf("diff %g, %v; want %g", d, err, tc.diff)
			}
			if err := Compare(got, want, 0.25); (err != nil) != (tc.diff > 0.25) {
				t.Errorf("Compare(tol 0.25) = %v with diff %g", err, d)
			}
		})
	}
}
