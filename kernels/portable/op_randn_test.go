package portable

import (
	"math"
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

// randn's values cannot equal torch.randn's (both draw from an unseeded generator): the test
// checks the distribution of 200000 samples: mean 0 (standard error 0.0022), variance 1
// (0.0032), 68.27% within one standard deviation (0.001) and 95.45% within two (0.0005), with
// tolerances of about 7 standard errors (Float16 and BFloat16 round the samples, BFloat16 to
// 8 bits, which shifts the fractions a little).
func TestRandn(t *testing.T) {
	for _, dt := range floatTypes {
		t.Run(executor.DTypeName(dt), func(t *testing.T) {
			out := dynamic(t, dt, 200000)
			if err := call(t, "aten::randn.out", []int64{200000}, out, out); err != nil {
				t.Fatal(err)
			}
			v := loadF64(out)
			mean, variance := randStats(v)
			if math.Abs(mean) > 0.016 || math.Abs(variance-1) > 0.025 {
				t.Fatalf("mean %v, variance %v; want 0 and 1", mean, variance)
			}
			var in1, in2 float64
			for _, x := range v {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					t.Fatalf("sample %v", x)
				}
				if math.Abs(x) < 1 {
					in1++
				}
				if math.Abs(x) < 2 {
					in2++
				}
			}
			tol := 0.007
			if dt == executor.BFloat16 {
				tol = 0.02
			}
			if f := in1 / float64(len(v)); math.Abs(f-0.6827) > tol {
				t.Fatalf("%v within one standard deviation, want 0.6827", f)
			}
			if f := in2 / float64(len(v)); math.Abs(f-0.9545) > tol {
				t.Fatalf("%v within two standard deviations, want 0.9545", f)
			}
			again := dynamic(t, dt, 200000)
			if err := call(t, "aten::randn.out", []int64{200000}, again, again); err != nil {
				t.Fatal(err)
			}
			if slices.Equal(v, loadF64(again)) {
				t.Fatal("two calls gave the same values")
			}
		})
	}
	out := empty(t, executor.Float64, 0, 4)
	if err := call(t, "aten::randn.out", []int64{0, 4}, out, out); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, out, []int{0, 4}, []float64{})
	o := empty(t, executor.Float32, 2, 2)
	wantErr(t, call(t, "aten::randn.out", []int64{-1}, o, o), "argument 0 (size): size -1 at dimension 0 is negative")
	wantErr(t, call(t, "aten::randn.out", []int64{1 << 50}, o, o), "is too large")
	wantErr(t, call(t, "aten::randn.out", []int64{3, 2}, o, o), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::randn.out", []int64{2, 2}, empty(t, executor.Bool, 2, 2), none), "argument 1 (out): randn supports floating dtypes, got bool")
	wantErr(t, call(t, "aten::randn.out", []int64{2, 2}, o, o, o), "4 arguments")
}
