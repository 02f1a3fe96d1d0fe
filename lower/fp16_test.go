package lower_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/x448/float16"

	"github.com/etgo/etgo/backends/xnnpack"
	xnnaot "github.com/etgo/etgo/backends/xnnpack/aot"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/kernels/portable"
	"github.com/etgo/etgo/lower"
	"github.com/etgo/etgo/npy"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/pte"
)

// TestFP16LoweredRuns: every fp16 program (testdata/fp16, model.half() exported) etgo lowers
// has the official number of delegate calls and runs in etgo with outputs equal, bit for bit,
// to etgo's on the official xnnpack.pte (package aot shows the graphs are the official ones),
// on the seeded inputs and the NaN/Inf ones; against the official runtime (expected/) they are
// held to TestFP16Fixtures' bound, 1e-2 of the largest output with NaN and infinities where
// the official has them (the fp16 run time's arithmetic, not the lowering;
// testdata/fp16/etgo_check.json records that the official runtime runs etgo's files with the
// official outputs bit for bit).
func TestFP16LoweredRuns(t *testing.T) {
	pt2s, _ := filepath.Glob(testutil.Testdata(t, "fp16", "*", "model.pt2"))
	if len(pt2s) == 0 {
		t.Fatal("no testdata/fp16/*/model.pt2 (run tools/reference/generate_fp16_fixtures.py)")
	}
	reg := executor.NewRegistry()
	if err := portable.Register(reg); err != nil {
		t.Fatal(err)
	}
	if err := reg.RegisterBackend(xnnpack.BackendID, xnnpack.Backend{Threads: 1}); err != nil {
		t.Fatal(err)
	}
	for _, path := range pt2s {
		dir := filepath.Dir(path)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			data, plan := lowerFile(t, path, lower.Options{Partitioners: []partition.Partitioner{&xnnaot.Partitioner{}}})
			if again, _ := lowerFile(t, path, lower.Options{Partitioners: []partition.Partitioner{&xnnaot.Partitioner{}}}); string(again) != string(data) {
				t.Error("lowering twice gave different bytes")
			}
			mine, err := pte.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			official, err := pte.Open(filepath.Join(dir, "xnnpack.pte"))
			if err != nil {
				t.Fatal(err)
			}
			defer official.Close()
			if g, w := len(plan.Delegates), len(official.Program.ExecutionPlans[0].Delegates); g != w {
				t.Errorf("%d delegate calls, official %d", g, w)
			}
			for _, c := range []struct{ prefix, expected string }{{"input_", "output_0"}, {"nonfinite", "nonfinite"}} {
				args := fp16Inputs(t, dir, c.prefix)
				if args == nil {
					continue
				}
				got, same := runFP16(t, reg, mine, args), runFP16(t, reg, official, args)
				for i := range got {
					if got[i] != same[i] && !(isNaN16(got[i]) && isNaN16(same[i])) {
						t.Fatalf("%s: output %d is %#04x, the official file in etgo %#04x", c.prefix, i, got[i], same[i])
					}
				}
				want := fp16Expected(t, filepath.Join(dir, "expected", c.expected+".npy"))
				if len(want) != len(got) {
					t.Fatalf("%s: %d outputs, official %d", c.prefix, len(got), len(want))
				}
				scale, exact := 0.0, 0
				for _, b := range want {
					if v := float64(float16.Frombits(b).Float32()); !math.IsInf(v, 0) && !math.IsNaN(v) {
						scale = max(scale, math.Abs(v))
					}
				}
				for i := range got {
					g, w := float64(float16.Frombits(got[i]).Float32()), float64(float16.Frombits(want[i]).Float32())
					switch {
					case got[i] == want[i] || math.IsNaN(g) && math.IsNaN(w):
						exact++
					case math.IsNaN(g) || math.IsNaN(w) || math.IsInf(g, 0) || math.IsInf(w, 0) || math.Abs(g-w) > 1e-2*scale:
						t.Errorf("%s: output %d is %g, the official runtime's %g", c.prefix, i, g, w)
					}
				}
				t.Logf("%s: %d of %d outputs bit-exact against the official runtime", c.prefix, exact, len(got))
			}
		})
	}
}

func isNaN16(b uint16) bool { return b&0x7c00 == 0x7c00 && b&0x03ff != 0 }

// fp16Inputs loads dir/inputs/<prefix>*.npy in order (nil when there are none).
func fp16Inputs(t *testing.T, dir, prefix string) []*executor.Tensor {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "inputs", prefix+"*.npy"))
	var args []*executor.Tensor
	for _, f := range files { // input_0 < input_1; nonfinite < nonfinite_1
		if strings.HasPrefix(filepath.Base(f), "input_") != (prefix == "input_") {
			continue
		}
		a, err := npy.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		x, err := npyconv.Tensor(a)
		if err != nil {
			t.Fatal(err)
		}
		args = append(args, x)
	}
	return args
}

func fp16Expected(t *testing.T, path string) []uint16 {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
	a, err := npy.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	x, err := npyconv.Tensor(a)
	if err != nil {
		t.Fatal(err)
	}
	if x.ScalarType() != executor.Float16 {
		t.Fatalf("%s is %s, want float16", path, executor.DTypeName(x.ScalarType()))
	}
	return executor.Data[uint16](x)
}

// runFP16 runs f's forward on args and returns its one fp16 output's bits.
func runFP16(t *testing.T, reg *executor.Registry, f *pte.File, args []*executor.Tensor) []uint16 {
	t.Helper()
	outs := runForward(t, reg, f, args)
	if len(outs) != 1 || outs[0].ScalarType() != executor.Float16 {
		t.Fatalf("%d outputs, want one float16 tensor", len(outs))
	}
	return append([]uint16(nil), executor.Data[uint16](outs[0])...)
}
