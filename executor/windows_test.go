package executor_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/testutil"
)

// windowCases is testdata/windows/cases.json (tools/reference/generate_window_cases.py): windowed
// operators whose window overhangs the input, lowered by the official toolchain and run by the
// official runtime.
type windowCases struct {
	Cases []windowCase `json:"cases"`
}

type windowCase struct {
	Name     string                   `json:"name"`
	Family   string                   `json:"family"`
	Params   map[string]any           `json:"params"`
	Inputs   []windowTensor           `json:"inputs"`
	Variants map[string]windowVariant `json:"variants"`
}

type windowVariant struct {
	File      string         `json:"file"`
	SameAs    string         `json:"same_as"`
	Delegates []string       `json:"delegates"`
	Status    string         `json:"status"` // ok, or the official runtime's refusal: load, execute, crash
	Error     string         `json:"error"`
	Outputs   []windowTensor `json:"outputs"`
}

// windowTensor holds float values as numbers, or "inf", "-inf", "nan" (JSON has none of them).
type windowTensor struct {
	DType string `json:"dtype"`
	Shape []int  `json:"shape"`
	Data  []any  `json:"data"`
}

func (w windowTensor) values(t *testing.T) []float64 {
	t.Helper()
	v := make([]float64, len(w.Data))
	for i, d := range w.Data {
		switch d := d.(type) {
		case float64:
			v[i] = d
		case string:
			v[i] = map[string]float64{"inf": math.Inf(1), "-inf": math.Inf(-1), "nan": math.NaN()}[d]
		default:
			t.Fatalf("value %v (%T)", d, d)
		}
	}
	return v
}

func (w windowTensor) tensor(t *testing.T) *executor.Tensor {
	t.Helper()
	v := w.values(t)
	var x *executor.Tensor
	var err error
	switch w.DType {
	case "float32":
		f := make([]float32, len(v))
		for i := range v {
			f[i] = float32(v[i])
		}
		x, err = executor.FromSlice(f, w.Shape...)
	case "int64":
		n := make([]int64, len(v))
		for i := range v {
			n[i] = int64(v[i])
		}
		x, err = executor.FromSlice(n, w.Shape...)
	default:
		t.Fatalf("input dtype %s", w.DType)
	}
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// TestWindowCases runs every overhanging-window case (issue 20) through etgo's runtime, the
// portable file on the portable kernels and the XNNPACK file on the XNNPACK backend (at one and two
// threads), and compares with the official runtime: floats within 1e-5·max(1, |official|),
// integers (max-pool indices) exactly; where the official runtime refused a file (at load, at execute, or by crashing),
// etgo must refuse it too, with an error and not a recovered panic, except the 3-D families
// etgo runs beyond the official runtime (windowBeyondOfficial), which must run.
func TestWindowCases(t *testing.T) {
	dir := testutil.Testdata(t, "windows")
	raw, err := os.ReadFile(filepath.Join(dir, "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc windowCases
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Cases) < 100 {
		t.Fatalf("only %d cases", len(doc.Cases))
	}
	for _, threads := range []int{1, 2} {
		reg := portableRegistry(t)
		if err := reg.RegisterBackend(xnnpack.BackendID, xnnpack.Backend{Threads: threads}); err != nil {
			t.Fatal(err)
		}
		for _, c := range doc.Cases {
			for _, variant := range []string{"portable", "xnnpack"} {
				v, ok := c.Variants[variant]
				if !ok {
					t.Fatalf("%s has no %s variant", c.Name, variant)
				}
				if threads == 2 && (variant == "portable" || len(v.Delegates) == 0) {
					continue // threads only matter to the delegate
				}
				t.Run(fmt.Sprintf("threads=%d/%s/%s", threads, c.Name, variant), func(t *testing.T) {
					file := v.File
					if v.SameAs != "" {
						file = c.Variants[v.SameAs].File
					}
					runWindowCase(t, reg, filepath.Join(dir, file), c, v)
				})
			}
		}
	}
}

// windowBeyondOfficial are the families etgo's portable kernels run although the official
// runtime refuses them: its convolution takes only 3-D and 4-D inputs, and it has no
// max_pool3d_with_indices or avg_pool3d kernel.
var windowBeyondOfficial = map[string]bool{"conv3d": true, "conv_transpose3d": true, "max_pool3d": true, "avg_pool3d": true}

func runWindowCase(t *testing.T, reg *executor.Registry, path string, c windowCase, v windowVariant) {
	inputs := make([]*executor.Tensor, len(c.Inputs))
	for i, in := range c.Inputs {
		inputs[i] = in.tensor(t)
	}
	outs, stage, err := func() ([]*executor.Tensor, string, error) {
		p, err := executor.Open(path, executor.Options{Registry: reg})
		if err != nil {
			return nil, "load", err
		}
		defer p.Close()
		m, err := p.LoadMethod("forward")
		if err != nil {
			return nil, "load", err
		}
		defer m.Close()
		outs, err := m.Run(context.Background(), inputs...)
		return outs, "execute", err
	}()
	if v.Status != "ok" && windowBeyondOfficial[c.Family] {
		// etgo runs these where the official runtime refuses them; the fixture has no
		// official output to compare with (kernels/portable holds them to eager PyTorch).
		if err != nil {
			t.Fatalf("%s: %v; params %v", stage, err, c.Params)
		}
		return
	}
	if v.Status != "ok" {
		switch {
		case err == nil:
			t.Fatalf("etgo ran a file the official runtime refused (%s: %s); params %v", v.Status, v.Error, c.Params)
		case strings.Contains(err.Error(), "panic"):
			t.Fatalf("refused by a recovered panic: %v", err)
		case v.Status == "load" && stage != "load":
			t.Fatalf("the official runtime refused the file at load; etgo at %s: %v", stage, err)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s: %v; params %v", stage, err, c.Params)
	}
	if len(outs) != len(v.Outputs) {
		t.Fatalf("%d outputs, want %d", len(outs), len(v.Outputs))
	}
	for i, want := range v.Outputs {
		got := outs[i]
		if !slices.Equal(got.Sizes(), want.Shape) {
			t.Fatalf("output %d: sizes %v, want %v", i, got.Sizes(), want.Shape)
		}
		w := want.values(t)
		var g []float64
		switch want.DType {
		case "float32":
			if got.ScalarType() != executor.Float32 {
				t.Fatalf("output %d is %s, want float32", i, executor.DTypeName(got.ScalarType()))
			}
			for _, x := range executor.Data[float32](got) {
				g = append(g, float64(x))
			}
		case "int64":
			if got.ScalarType() != executor.Int64 {
				t.Fatalf("output %d is %s, want int64", i, executor.DTypeName(got.ScalarType()))
			}
			for _, x := range executor.Data[int64](got) {
				g = append(g, float64(x))
			}
		default:
			t.Fatalf("output dtype %s", want.DType)
		}
		bad := 0
		for j := range w {
			ok := g[j] == w[j] || (math.IsNaN(g[j]) && math.IsNaN(w[j]))
			if !ok && want.DType == "float32" {
				ok = math.Abs(g[j]-w[j]) <= 1e-5*max(1, math.Abs(w[j]))
			}
			if !ok {
				if bad < 5 {
					t.Errorf("output %d[%d] = %v, want %v", i, j, g[j], w[j])
				}
				bad++
			}
		}
		if bad > 0 {
			t.Fatalf("output %d: %d of %d values differ; params %v", i, bad, len(w), c.Params)
		}
	}
}
