package xnnpack

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/kernels/portable"
	"github.com/etgo/etgo/npy"
	"github.com/etgo/etgo/runtime"
)

// runDynquant runs testdata/dynquant/<model> on inputs/<in>.npy with threads threads and returns
// etgo's output and the official runtime's expected/<out>.npy.
func runDynquant(t *testing.T, dir, in, out string, threads int) (got []float32, want []float64, dims []int) {
	t.Helper()
	reg := runtime.NewRegistry()
	if err := portable.Register(reg); err != nil {
		t.Fatal(err)
	}
	if err := reg.RegisterBackend(BackendID, Backend{Threads: threads}); err != nil {
		t.Fatal(err)
	}
	p, err := runtime.Open(filepath.Join(dir, "xnnpack.pte"), runtime.Options{Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	meth, err := p.LoadMethod("forward")
	if err != nil {
		t.Fatal(err)
	}
	defer meth.Close()
	a, err := npy.Load(filepath.Join(dir, "inputs", in+".npy"))
	if err != nil {
		t.Fatal(err)
	}
	x, err := npyconv.Tensor(a)
	if err != nil {
		t.Fatal(err)
	}
	w, err := npy.Load(filepath.Join(dir, "expected", out+".npy"))
	if err != nil {
		t.Fatal(err)
	}
	want, err = w.Float64s()
	if err != nil {
		t.Fatal(err)
	}
	for run := range 2 { // the second run reuses the method's memory
		outs, err := meth.Run(context.Background(), x)
		if err != nil {
			t.Fatal(err)
		}
		if len(outs) != 1 || outs[0].ScalarType() != runtime.Float32 {
			t.Fatalf("run %d: %d outputs, want one float32 tensor", run, len(outs))
		}
		got = append([]float32(nil), runtime.Data[float32](outs[0])...)
		dims = outs[0].Sizes()
	}
	if len(got) != len(want) {
		t.Fatalf("%d output values, want %d", len(got), len(want))
	}
	return got, want, dims
}

// TestDynquantFixtures runs testdata/dynquant (tools/reference/generate_dynquant_fixtures.py:
// linear layers and MLPs, dynamically quantized per token, with qcint8 or qbint4 filters) on one
// thread and split across two, and requires the official runtime's outputs bit for bit.
//
// The tolerance is zero because nothing in the arithmetic is left to chance: the codes, the
// per-row parameters and the int32 accumulators are exact, and the few fp32 steps after them
// follow the order of XNNPACK's x86 kernels, which made the fixtures (quant_dynamic.go; its two
// last-bit caveats do not occur here). Official outputs from another ISA's kernels (without
// FMA, or summing qb4w blocks in another order) could differ from these in the last bits of
// the fp32 steps; such fixtures would need a tolerance of a few ulps of each output's
// magnitude, never a different code.
func TestDynquantFixtures(t *testing.T) {
	dirs, _ := filepath.Glob(testutil.Testdata(t, "dynquant", "*"))
	if len(dirs) == 0 {
		t.Fatal("no dynamically quantized fixtures")
	}
	for _, dir := range dirs {
		for _, threads := range []int{1, 2} {
			t.Run(filepath.Base(dir), func(t *testing.T) {
				got, want, _ := runDynquant(t, dir, "input_0", "output_0", threads)
				diffs, worst, rel := 0, 0.0, 0.0
				for i := range got {
					if math.Float32bits(got[i]) != math.Float32bits(float32(want[i])) {
						diffs++
						d := math.Abs(float64(got[i]) - want[i])
						worst = max(worst, d)
						rel = max(rel, d/max(math.Abs(want[i]), 1e-30))
					}
				}
				if diffs > 0 {
					t.Errorf("threads %d: %d of %d outputs differ from the official runtime's, by up to %g (relative %g)", threads, diffs, len(got), worst, rel)
				}
			})
		}
	}
}

// TestDynquantNonfinite: rows holding NaN, +Inf and -Inf come out as the official runtime's
// (a NaN element is forgotten by the row's min and max and quantizes to 127; an infinite one
// makes the row's multiplier 0 and its scale infinite, so the outputs are infinities or NaN, and
// the qc8w and qb4w kernels clamp NaN differently; quant_dynamic.go).
func TestDynquantNonfinite(t *testing.T) {
	for _, m := range []string{"linear_2d", "linear_8da4w_g32"} {
		got, want, dims := runDynquant(t, testutil.Testdata(t, "dynquant", m), "nonfinite", "nonfinite", 1)
		oc := dims[len(dims)-1]
		for i := range got {
			w := float32(want[i])
			if math.Float32bits(got[i]) != math.Float32bits(w) && !(got[i] != got[i] && w != w) {
				t.Errorf("%s [%d,%d] = %g, the official runtime's is %g", m, i/oc, i%oc, got[i], w)
			}
		}
	}
}
