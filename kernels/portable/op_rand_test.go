package portable

import (
	"math"
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

// randStats returns the mean and (population) variance of v.
func randStats(v []float64) (mean, variance float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	for _, x := range v {
		variance += (x - mean) * (x - mean)
	}
	return mean, variance / float64(len(v))
}

// rand's values cannot equal torch.rand's (both draw from an unseeded generator): the test
// checks the distribution. With 200000 samples the mean's standard error is 0.00065 and the
// variance's 0.00015; the tolerances are over 7 of them.
func TestRand(t *testing.T) {
	for _, dt := range floatTypes {
		t.Run(executor.DTypeName(dt), func(t *testing.T) {
			out := empty(t, dt, 400, 500)
			if err := call(t, "aten::rand.out", []int64{400, 500}, out, out); err != nil {
				t.Fatal(err)
			}
			v := loadF64(out)
			for i, x := range v {
				if !(x >= 0 && x < 1) {
					t.Fatalf("element %d = %v, outside [0, 1)", i, x)
				}
			}
			mean, variance := randStats(v)
			if math.Abs(mean-0.5) > 0.005 || math.Abs(variance-1.0/12) > 0.0015 {
				t.Fatalf("mean %v, variance %v; want 0.5 and 1/12", mean, variance)
			}
			// Ten equal bins each hold about a tenth (standard error 0.00067): exactly the
			// share of the dtype's grid k·2^-m that falls in the bin.
			var bins, want [10]float64
			for _, x := range v {
				bins[int(x*10)]++
			}
			m := randSignificandBits(dt)
			for b := range want {
				lo, hi := math.Ceil(float64(b)/10*math.Exp2(float64(m))), math.Ceil(float64(b+1)/10*math.Exp2(float64(m)))
				want[b] = (hi - lo) / math.Exp2(float64(m))
			}
			for b, n := range bins {
				if f := n / float64(len(v)); math.Abs(f-want[b]) > 0.005 {
					t.Fatalf("bin %d holds %v of the samples, want %v", b, f, want[b])
				}
			}
			// A second call draws other values.
			again := empty(t, dt, 400, 500)
			if err := call(t, "aten::rand.out", []int64{400, 500}, again, again); err != nil {
				t.Fatal(err)
			}
			if slices.Equal(v, loadF64(again)) {
				t.Fatal("two calls gave the same values")
			}
		})
	}
	for _, tc := range []struct {
		size  []int64
		sizes []int
	}{{[]int64{}, []int{}}, {[]int64{0, 3}, []int{0, 3}}, {[]int64{2, 1, 3}, []int{2, 1, 3}}} {
		out := dynamic(t, executor.Float32, slices.Repeat([]int{3}, len(tc.size))...)
		if err := call(t, "aten::rand.out", tc.size, out, out); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(out.Sizes(), tc.sizes) {
			t.Fatalf("sizes %v, want %v", out.Sizes(), tc.sizes)
		}
	}
	o := empty(t, executor.Float32, 2, 2)
	wantErr(t, call(t, "aten::rand.out", []int64{2, -2}, o, o), "argument 0 (size): size -2 at dimension 1 is negative")
	wantErr(t, call(t, "aten::rand.out", []int64{2, 3}, o, o), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::rand.out", []int64{2, 2}, empty(t, executor.Int32, 2, 2), none), "argument 1 (out): rand supports floating dtypes, got int32")
	wantErr(t, call(t, "aten::rand.out", 2, o, o), "argument 0 (size): want IntList")
	wantErr(t, call(t, "aten::rand.out", []int64{2, 2}, o), "2 arguments")
}
