package executor_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/gemm"
	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/internal/zoo"
	"github.com/etgo/etgo/kernels/optimized"
	"github.com/etgo/etgo/npy"
)

// The NaN fixtures (testdata/nan, made by tools/reference/generate_nan_fixtures.py): inputs with
// NaN and ±Inf run by the official runtime. Outputs must match it in class: NaN where it is NaN,
// the same infinity where it is infinite, finite values within nanTol (relative above 1).
const nanTol = 1e-4

// nanConfigs are the runtimes every fixture runs in: the portable kernels alone, with the
// optimized kernels over them, and with the
// XNNPACK backend at one and two threads, each on every kernel set this machine has (AVX-512,
// AVX2, portable Go; under -tags purego only the last).
type nanConfig struct {
	name    string
	variant zoo.Variant
	isa     string
	reg     *executor.Registry
}

func nanConfigs(t *testing.T) []nanConfig {
	var cs []nanConfig
	for _, isa := range gemm.ISAs() {
		cs = append(cs, nanConfig{name: "portable/" + isa, variant: zoo.Portable, isa: isa, reg: portableRegistry(t)})
		// The optimized kernels over the portable ones (the Module API's and the CLI's default).
		opt := portableRegistry(t)
		if err := optimized.Register(opt, 2); err != nil {
			t.Fatal(err)
		}
		cs = append(cs, nanConfig{name: "optimized/" + isa, variant: zoo.Portable, isa: isa, reg: opt})
		for _, threads := range []int{1, 2} {
			reg := portableRegistry(t)
			if err := reg.RegisterBackend(xnnpack.BackendID, xnnpack.Backend{Threads: threads}); err != nil {
				t.Fatal(err)
			}
			cs = append(cs, nanConfig{name: fmt.Sprintf("xnnpack/%s/threads=%d", isa, threads), variant: zoo.Xnnpack, isa: isa, reg: reg})
		}
	}
	return cs
}

// useISA selects the config's kernels for the rest of the test (packing happens at load, so
// programs are opened after this).
func (c nanConfig) useISA(t *testing.T) {
	restore, err := gemm.UseISA(c.isa)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(restore)
}

// run opens pte in the config's runtime and runs forward once per input set.
func (c nanConfig) run(t *testing.T, pte string, inputs [][]*executor.Tensor) [][]*executor.Tensor {
	t.Helper()
	p, err := executor.Open(pte, executor.Options{Registry: c.reg})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	meth, err := p.LoadMethod("forward")
	if err != nil {
		t.Fatal(err)
	}
	defer meth.Close()
	var all [][]*executor.Tensor
	for _, in := range inputs {
		outs, err := meth.Run(context.Background(), in...)
		if err != nil {
			t.Fatal(err)
		}
		cl := make([]*executor.Tensor, len(outs))
		for i, o := range outs {
			cl[i] = o.Clone() // the method reuses its output memory on the next run
		}
		all = append(all, cl)
	}
	return all
}

// nanRun is a fixture's [start, count, value] patch run; value is text for floats ("nan",
// "inf", "-inf", or a float32), a number for integers.
type nanRun struct {
	start, count int
	value        json.RawMessage
}

func (r *nanRun) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if len(raw) != 3 {
		return fmt.Errorf("patch run of %d fields", len(raw))
	}
	if err := json.Unmarshal(raw[0], &r.start); err != nil {
		return err
	}
	if err := json.Unmarshal(raw[1], &r.count); err != nil {
		return err
	}
	r.value = raw[2]
	return nil
}

// parseF32 reads a fixture's float32 text exactly.
func parseF32(s string) (float32, error) {
	f, err := strconv.ParseFloat(s, 32)
	return float32(f), err
}

// patchTensor applies runs to a contiguous tensor's elements.
func patchTensor(t *executor.Tensor, runs []nanRun) error {
	for _, r := range runs {
		if r.start < 0 || r.count < 0 || r.start+r.count > t.Numel() {
			return fmt.Errorf("patch [%d, +%d) outside %d elements", r.start, r.count, t.Numel())
		}
		switch t.ScalarType() {
		case executor.Float32:
			var s string
			if err := json.Unmarshal(r.value, &s); err != nil {
				return err
			}
			v, err := parseF32(s)
			if err != nil {
				return err
			}
			d := executor.Data[float32](t)
			for i := r.start; i < r.start+r.count; i++ {
				d[i] = v
			}
		case executor.Int64, executor.Int32, executor.Uint8, executor.Bool:
			var v int64
			if err := json.Unmarshal(r.value, &v); err != nil {
				return err
			}
			for i := r.start; i < r.start+r.count; i++ {
				setInt(t, i, v)
			}
		default:
			return fmt.Errorf("cannot patch %s", executor.DTypeName(t.ScalarType()))
		}
	}
	return nil
}

func setInt(t *executor.Tensor, i int, v int64) {
	switch t.ScalarType() {
	case executor.Int64:
		executor.Data[int64](t)[i] = v
	case executor.Int32:
		executor.Data[int32](t)[i] = int32(v)
	case executor.Uint8:
		executor.Data[uint8](t)[i] = uint8(v)
	case executor.Bool:
		executor.Data[bool](t)[i] = v != 0
	}
}

// loadNpyTensor reads an .npy file into a tensor that owns a copy of the data.
func loadNpyTensor(t *testing.T, path string) *executor.Tensor {
	t.Helper()
	a, err := npy.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	x, err := npyconv.Tensor(a)
	if err != nil {
		t.Fatal(err)
	}
	return x.Clone()
}

// compareInClass checks got against want element by element: NaN exactly where want is NaN,
// the same infinities, finite floats within nanTol (relative to |want| above 1), integers and
// booleans equal. It describes the first few mismatches.
func compareInClass(got, want *executor.Tensor) error {
	if got.ScalarType() != want.ScalarType() || fmt.Sprint(got.Sizes()) != fmt.Sprint(want.Sizes()) {
		return fmt.Errorf("got %v, want %v", got, want)
	}
	g, w := asFloat64s(got), asFloat64s(want)
	if g == nil || w == nil {
		return fmt.Errorf("cannot compare %s tensors", executor.DTypeName(got.ScalarType()))
	}
	exact := got.ScalarType() != executor.Float32
	var bad []string
	n := 0
	for i := range g {
		ok := true
		switch {
		case math.IsNaN(w[i]) || math.IsNaN(g[i]):
			ok = math.IsNaN(w[i]) && math.IsNaN(g[i])
		case math.IsInf(w[i], 0) || math.IsInf(g[i], 0) || exact:
			ok = g[i] == w[i]
		default:
			ok = math.Abs(g[i]-w[i]) <= nanTol*max(1, math.Abs(w[i]))
		}
		if !ok {
			n++
			if len(bad) < 6 {
				bad = append(bad, fmt.Sprintf("[%d] %g want %g", i, g[i], w[i]))
			}
		}
	}
	if n > 0 {
		return fmt.Errorf("%d of %d elements differ: %s", n, len(g), strings.Join(bad, ", "))
	}
	return nil
}

func asFloat64s(t *executor.Tensor) []float64 {
	out := make([]float64, t.Numel())
	switch t.ScalarType() {
	case executor.Float32:
		for i, v := range executor.Data[float32](t) {
			out[i] = float64(v)
		}
	case executor.Int64:
		for i, v := range executor.Data[int64](t) {
			out[i] = float64(v)
		}
	case executor.Int32:
		for i, v := range executor.Data[int32](t) {
			out[i] = float64(v)
		}
	case executor.Uint8:
		for i, v := range executor.Data[uint8](t) {
			out[i] = float64(v)
		}
	case executor.Bool:
		for i, v := range executor.Data[bool](t) {
			if v {
				out[i] = 1
			}
		}
	default:
		return nil
	}
	return out
}

// nanZooFixture is testdata/nan/zoo/<model>.json: per case, patches of the zoo model's committed
// inputs and of each variant's committed official outputs.
type nanZooFixture struct {
	Model string `json:"model"`
	Cases []struct {
		Name    string                `json:"name"`
		Inputs  [][]nanRun            `json:"inputs"`
		Outputs map[string][][]nanRun `json:"outputs"`
	} `json:"cases"`
}

// TestNaNZoo runs every zoo model's portable.pte and xnnpack.pte on its inputs with one NaN, one
// +Inf, one -Inf, a mix, and everything NaN, against the official runtime's outputs.
func TestNaNZoo(t *testing.T) {
	models := zoo.Models(t)
	for _, c := range nanConfigs(t) {
		t.Run(c.name, func(t *testing.T) {
			c.useISA(t)
			for _, m := range models {
				t.Run(m.Name, func(t *testing.T) { checkNaNZoo(t, c, m) })
			}
		})
	}
}

func checkNaNZoo(t *testing.T, c nanConfig, m zoo.Model) {
	b, err := os.ReadFile(testutil.Testdata(t, "nan", "zoo", m.Name+".json"))
	if err != nil {
		t.Fatalf("%v (run tools/reference/generate_nan_fixtures.py)", err)
	}
	var fx nanZooFixture
	if err := json.Unmarshal(b, &fx); err != nil {
		t.Fatal(err)
	}
	if len(fx.Cases) == 0 {
		t.Fatal("no cases")
	}
	var inputs [][]*executor.Tensor
	for _, cs := range fx.Cases {
		if len(cs.Inputs) != len(m.Inputs) {
			t.Fatalf("%s: %d input patches for %d inputs", cs.Name, len(cs.Inputs), len(m.Inputs))
		}
		in := make([]*executor.Tensor, len(m.Inputs))
		for i, p := range m.Inputs {
			in[i] = loadNpyTensor(t, p)
			if err := patchTensor(in[i], cs.Inputs[i]); err != nil {
				t.Fatalf("%s input %d: %v", cs.Name, i, err)
			}
		}
		inputs = append(inputs, in)
	}
	got := c.run(t, m.PTE(c.variant), inputs)
	for k, cs := range fx.Cases {
		patches := cs.Outputs[string(c.variant)]
		files := m.Expected[c.variant]
		if len(patches) != len(files) || len(got[k]) != len(files) {
			t.Fatalf("%s: %d outputs, %d patches, %d expected", cs.Name, len(got[k]), len(patches), len(files))
		}
		for i, f := range files {
			want := loadNpyTensor(t, f)
			if err := patchTensor(want, patches[i]); err != nil {
				t.Fatalf("%s output %d: %v", cs.Name, i, err)
			}
			if err := compareInClass(got[k][i], want); err != nil {
				if why, known := nanKnownDivergences[m.Name+"/"+cs.Name+"/"+string(c.variant)]; known {
					// Held to the official portable kernels' outputs instead: the math.
					portable := loadNpyTensor(t, m.Expected["portable"][i])
					if perr := patchTensor(portable, cs.Outputs["portable"][i]); perr != nil {
						t.Fatalf("%s output %d: %v", cs.Name, i, perr)
					}
					if perr := compareInClass(got[k][i], portable); perr != nil {
						t.Errorf("%s output %d differs from the official XNNPACK runtime (%s) and from its portable kernels: %v", cs.Name, i, why, perr)
					} else {
						t.Logf("deliberate divergence, %s output %d: %v (%s); equal to the official portable kernels'", cs.Name, i, err, why)
					}
					continue
				}
				t.Errorf("%s output %d: %v", cs.Name, i, err)
			}
		}
	}
}

// nanKnownDivergences are fixture cases (model/case/variant) where etgo's outputs differ from
// the official runtime's on purpose, with the reason; such a case is held to the official
// portable kernels' outputs for the same inputs instead (the mathematically right values).
var nanKnownDivergences = map[string]string{
	// A batch norm with nothing to fold into runs as XNNPACK's 1x1 depthwise convolution. The
	// official kernel spreads a non-finite input to up to two neighbouring output pixels of
	// the same channel (its microkernel reads more taps than the 1x1 filter has, weighted 0, and
	// 0·Inf is NaN), which PyTorch and the official portable kernels do not; which neighbours
	// depends on the microkernel the machine's ISA selects. etgo reads only the real tap.
	"batchnorm_standalone/mix/xnnpack": "XNNPACK 1x1 depthwise spreads non-finite inputs to neighbouring pixels",
}

// nanTensor is a tensor in a case.json: values as space-separated text.
type nanTensor struct {
	DType  string `json:"dtype"`
	Shape  []int  `json:"shape"`
	Values string `json:"values"`
}

func (nt nanTensor) tensor() (*executor.Tensor, error) {
	f := strings.Fields(nt.Values)
	switch nt.DType {
	case "float32":
		v := make([]float32, len(f))
		for i, s := range f {
			x, err := parseF32(s)
			if err != nil {
				return nil, err
			}
			v[i] = x
		}
		return executor.FromSlice(v, nt.Shape...)
	case "int64", "bool":
		v := make([]int64, len(f))
		for i, s := range f {
			x, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return nil, err
			}
			v[i] = x
		}
		if nt.DType == "int64" {
			return executor.FromSlice(v, nt.Shape...)
		}
		bv := make([]bool, len(v))
		for i, x := range v {
			bv[i] = x != 0
		}
		return executor.FromSlice(bv, nt.Shape...)
	}
	return nil, fmt.Errorf("dtype %q", nt.DType)
}

// nanOpCase is testdata/nan/ops/<family>/case.json.
type nanOpCase struct {
	Family      string                 `json:"family"`
	Inputs      []nanTensor            `json:"inputs"`
	OutputNames []string               `json:"output_names"`
	Outputs     map[string][]nanTensor `json:"outputs"`
}

// TestNaNOps runs the single-operator programs (every output one operator, or a convolution or
// linear layer with its fused activation) whose inputs put NaN and ±Inf where kernels decide
// (pooling window taps, vector lanes and tails, NaN beside +Inf, whole rows), against the
// official runtime's outputs for the same program.
func TestNaNOps(t *testing.T) {
	dirs, _ := filepath.Glob(testutil.Testdata(t, "nan", "ops", "*"))
	if len(dirs) < 6 {
		t.Fatalf("only %d operator families under testdata/nan/ops", len(dirs))
	}
	for _, c := range nanConfigs(t) {
		t.Run(c.name, func(t *testing.T) {
			c.useISA(t)
			for _, dir := range dirs {
				t.Run(filepath.Base(dir), func(t *testing.T) { checkNaNOps(t, c, dir) })
			}
		})
	}
}

func checkNaNOps(t *testing.T, c nanConfig, dir string) {
	b, err := os.ReadFile(filepath.Join(dir, "case.json"))
	if err != nil {
		t.Fatal(err)
	}
	var oc nanOpCase
	if err := json.Unmarshal(b, &oc); err != nil {
		t.Fatal(err)
	}
	in := make([]*executor.Tensor, len(oc.Inputs))
	for i, nt := range oc.Inputs {
		if in[i], err = nt.tensor(); err != nil {
			t.Fatalf("input %d: %v", i, err)
		}
	}
	got := c.run(t, filepath.Join(dir, string(c.variant)+".pte"), [][]*executor.Tensor{in})[0]
	want := oc.Outputs[string(c.variant)]
	if len(got) != len(want) || len(want) != len(oc.OutputNames) {
		t.Fatalf("%d outputs, want %d (%d names)", len(got), len(want), len(oc.OutputNames))
	}
	for i, w := range want {
		wt, err := w.tensor()
		if err != nil {
			t.Fatalf("%s: %v", oc.OutputNames[i], err)
		}
		if err := compareInClass(got[i], wt); err != nil {
			t.Errorf("%s: %v", oc.OutputNames[i], err)
		}
	}
}
