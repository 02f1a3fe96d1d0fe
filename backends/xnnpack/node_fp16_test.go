package xnnpack

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/x448/float16"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/kernels/portable"
	"github.com/etgo/etgo/npy"
)

// runFP16 runs testdata/fp16/<dir> on its inputs named by prefix (input_<i> or nonfinite[_<i>])
// and returns etgo's fp16 output bits and the official runtime's expected/<out>.npy bits.
func runFP16(t *testing.T, dir, prefix, out string) (got, want []uint16) {
	t.Helper()
	reg := executor.NewRegistry()
	if err := portable.Register(reg); err != nil {
		t.Fatal(err)
	}
	if err := reg.RegisterBackend(BackendID, Backend{Threads: 1}); err != nil {
		t.Fatal(err)
	}
	p, err := executor.Open(filepath.Join(dir, "xnnpack.pte"), executor.Options{Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	meth, err := p.LoadMethod("forward")
	if err != nil {
		t.Fatal(err)
	}
	defer meth.Close()
	var args []*executor.Tensor
	for i := 0; ; i++ {
		name := fmt.Sprintf("input_%d.npy", i)
		if prefix != "input" {
			name = "nonfinite.npy"
			if i > 0 {
				name = fmt.Sprintf("nonfinite_%d.npy", i)
			}
		}
		a, err := npy.Load(filepath.Join(dir, "inputs", name))
		if os.IsNotExist(err) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		x, err := npyconv.Tensor(a)
		if err != nil {
			t.Fatal(err)
		}
		args = append(args, x)
	}
	w, err := npy.Load(filepath.Join(dir, "expected", out+".npy"))
	if err != nil {
		t.Fatal(err)
	}
	wt, err := npyconv.Tensor(w)
	if err != nil {
		t.Fatal(err)
	}
	if wt.ScalarType() != executor.Float16 {
		t.Fatalf("expected output is %s, want float16", executor.DTypeName(wt.ScalarType()))
	}
	want = executor.Data[uint16](wt)
	for run := range 2 { // the second run reuses the method's memory
		outs, err := meth.Run(context.Background(), args...)
		if err != nil {
			t.Fatal(err)
		}
		if len(outs) != 1 || outs[0].ScalarType() != executor.Float16 {
			t.Fatalf("run %d: %d outputs, want one float16 tensor", run, len(outs))
		}
		got = append([]uint16(nil), executor.Data[uint16](outs[0])...)
	}
	if len(got) != len(want) {
		t.Fatalf("%d output values, want %d", len(got), len(want))
	}
	return got, want
}

// fp16Diff compares fp16 outputs: how many differ in their bits, the largest difference relative
// to the official output's largest magnitude, and whether non-finite values disagree (NaN against
// a number, or infinities of different sign or against a number).
func fp16Diff(got, want []uint16) (diffs int, rel float64, nonfinite int) {
	scale := 0.0
	for _, b := range want {
		if v := float64(float16.Frombits(b).Float32()); !math.IsInf(v, 0) && !math.IsNaN(v) {
			scale = max(scale, math.Abs(v))
		}
	}
	for i := range got {
		if got[i] == want[i] {
			continue
		}
		g, w := float64(float16.Frombits(got[i]).Float32()), float64(float16.Frombits(want[i]).Float32())
		if math.IsNaN(g) && math.IsNaN(w) {
			continue
		}
		diffs++
		if math.IsNaN(g) || math.IsNaN(w) || math.IsInf(g, 0) || math.IsInf(w, 0) {
			nonfinite++
			continue
		}
		rel = max(rel, math.Abs(g-w)/max(scale, 1e-30))
	}
	return diffs, rel, nonfinite
}

// TestFP16Fixtures runs testdata/fp16 (tools/reference/generate_fp16_fixtures.py: op-family
// blocks and a small CNN in .half(), lowered by the default XnnpackPartitioner) and holds
// etgo's fp16 outputs to the official runtime's: within 1e-2 of the output's largest magnitude
// (the bound; node_fp16.go says where the arithmetic may differ by a few fp16 ulps), and
// NaN and infinities where the official runtime has them (the nonfinite inputs). The test logs
// how many outputs are bit-exact.
func TestFP16Fixtures(t *testing.T) {
	ptes, _ := filepath.Glob(testutil.Testdata(t, "fp16", "*", "xnnpack.pte"))
	if len(ptes) == 0 {
		t.Fatal("no fp16 fixtures")
	}
	var dirs []string // the fixture folders (not testdata/fp16/etgo_check.json)
	for _, p := range ptes {
		dirs = append(dirs, filepath.Dir(p))
	}
	sort.Strings(dirs)
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			cases := []string{"input"}
			if _, err := os.Stat(filepath.Join(dir, "expected", "nonfinite.npy")); err == nil {
				cases = append(cases, "nonfinite")
			}
			for _, c := range cases {
				out := "output_0"
				if c == "nonfinite" {
					out = "nonfinite"
				}
				got, want := runFP16(t, dir, c, out)
				diffs, rel, nonfinite := fp16Diff(got, want)
				t.Logf("%s: %d of %d outputs bit-exact, largest difference %.3g of the largest output", c, len(got)-diffs, len(got), rel)
				if rel > 1e-2 || nonfinite > 0 {
					t.Errorf("%s: %d of %d outputs differ from the official runtime's, by up to %.3g of the largest output, %d in NaN or infinity", c, diffs, len(got), rel, nonfinite)
				}
			}
		})
	}
}

// TestFP16Refusals: an fp16 graph whose node mixes fp16 and fp32 activations is refused at init,
// as XNNPACK's subgraph refuses it.
func TestFP16Refusals(t *testing.T) {
	g, named := delegateGraph(t, testutil.Testdata(t, "fp16", "add_mul", "xnnpack.pte"))
	if _, err := newPlan(g, named); err != nil {
		t.Fatalf("the seed: %v", err)
	}
	for i := range g.Values {
		if v := &g.Values[i]; v.IsInput() {
			v.DType = schema.XNNDatatypexnn_datatype_fp32
			break
		}
	}
	if _, err := newPlan(g, named); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "mixes fp16 and fp32 operands") {
		t.Errorf("an fp32 input to an fp16 node: error %v", err)
	}
}

// TestFP16Events: an fp16 node's event names its XNNPACK f16 operator.
func TestFP16Events(t *testing.T) {
	g, named := delegateGraph(t, testutil.Testdata(t, "fp16", "linear", "xnnpack.pte"))
	p, err := newPlan(g, named)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range p.steps {
		found = found || s.event == "Fully Connected (NC, F16) GEMM #1"
	}
	if !found {
		t.Errorf("no event \"Fully Connected (NC, F16) GEMM #1\" among %d steps", len(p.steps))
	}
}
