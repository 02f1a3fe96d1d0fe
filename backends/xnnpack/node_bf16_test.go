package xnnpack

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/kernels/portable"
	"github.com/etgo/etgo/npy"
)

// bf16Tensor reads a testdata/bf16 array: raw bfloat16 bits stored as uint16 (numpy has no
// bfloat16), made a BFloat16 tensor of the same shape.
func bf16Tensor(t *testing.T, path string) *executor.Tensor {
	t.Helper()
	a, err := npy.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	x, err := executor.FromBytes(executor.BFloat16, a.Shape, a.Data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return x
}

// bf16Record is testdata/bf16/<model>/delegation.json: per file, whether the official runtime
// loads it and, if not, its error.
type bf16Record struct {
	Portable, XNNPACK struct {
		Delegates    []string `json:"delegates"`
		OfficialRuns bool     `json:"official_runs"`
		Error        string   `json:"error"`
	}
}

func readBF16Record(t *testing.T, dir string) bf16Record {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "delegation.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Portable json.RawMessage `json:"portable"`
		XNNPACK  json.RawMessage `json:"xnnpack"`
	}
	if err := json.Unmarshal(raw, &rec); err != nil {
		t.Fatal(err)
	}
	var r bf16Record
	if err := json.Unmarshal(rec.Portable, &r.Portable); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(rec.XNNPACK, &r.XNNPACK); err != nil {
		t.Fatal(err)
	}
	return r
}

func bf16Dirs(t *testing.T) []string {
	t.Helper()
	pts, _ := filepath.Glob(testutil.Testdata(t, "bf16", "*", "model.pt2"))
	if len(pts) == 0 {
		t.Fatal("no bf16 fixtures (run tools/reference/generate_bf16_fixtures.py)")
	}
	var dirs []string
	for _, p := range pts {
		dirs = append(dirs, filepath.Dir(p))
	}
	sort.Strings(dirs)
	return dirs
}

// loadBF16 opens testdata/bf16/<dir>/<file> with the portable kernels and the XNNPACK backend
// and loads forward.
func loadBF16(t *testing.T, path string) (*executor.Method, func(), error) {
	t.Helper()
	reg := executor.NewRegistry()
	if err := portable.Register(reg); err != nil {
		t.Fatal(err)
	}
	if err := reg.RegisterBackend(BackendID, Backend{Threads: 1}); err != nil {
		t.Fatal(err)
	}
	p, err := executor.Open(path, executor.Options{Registry: reg})
	if err != nil {
		return nil, nil, err
	}
	m, err := p.LoadMethod("forward")
	if err != nil {
		p.Close()
		return nil, nil, err
	}
	return m, func() { m.Close(); p.Close() }, nil
}

// bf16Inputs are the fixture's inputs named by prefix (input_<i>, or nonfinite[_<i>]).
func bf16Inputs(t *testing.T, dir, prefix string) []*executor.Tensor {
	var args []*executor.Tensor
	for i := 0; ; i++ {
		name := fmt.Sprintf("input_%d.npy", i)
		if prefix != "input" {
			name = "nonfinite.npy"
			if i > 0 {
				name = fmt.Sprintf("nonfinite_%d.npy", i)
			}
		}
		path := filepath.Join(dir, "inputs", name)
		if _, err := os.Stat(path); err != nil {
			break
		}
		args = append(args, bf16Tensor(t, path))
	}
	return args
}

// bf16Value widens bfloat16 bits exactly.
func bf16Value(b uint16) float32 { return math.Float32frombits(uint32(b) << 16) }

// runBF16Case runs m on the case's inputs twice (the second run reuses the method's memory)
// and compares the output with expected/<out>.npy bit for bit (any NaN equal to any NaN).
func runBF16Case(t *testing.T, m *executor.Method, dir, prefix, out string) {
	t.Helper()
	want := bf16Tensor(t, filepath.Join(dir, "expected", out+".npy"))
	args := bf16Inputs(t, dir, prefix)
	for run := range 2 {
		outs, err := m.Run(context.Background(), args...)
		if err != nil {
			t.Fatalf("%s run %d: %v", out, run, err)
		}
		if len(outs) != 1 || outs[0].ScalarType() != executor.BFloat16 {
			t.Fatalf("%s run %d: %d outputs, want one bfloat16 tensor", out, run, len(outs))
		}
		got, w := executor.Data[uint16](outs[0]), executor.Data[uint16](want)
		if len(got) != len(w) {
			t.Fatalf("%s: %d values, want %d", out, len(got), len(w))
		}
		diffs, first := 0, -1
		for i := range got {
			g, e := bf16Value(got[i]), bf16Value(w[i])
			if got[i] != w[i] && !(g != g && e != e) {
				diffs++
				if first < 0 {
					first = i
				}
			}
		}
		if diffs > 0 {
			t.Errorf("%s run %d: %d of %d values differ from the official runtime's; first [%d] %v (%#04x), want %v (%#04x)",
				out, run, diffs, len(got), first, bf16Value(got[first]), got[first], bf16Value(w[first]), w[first])
			return
		}
	}
}

// TestBF16Fixtures runs testdata/bf16 (tools/reference/generate_bf16_fixtures.py): each model in
// bfloat16 lowered by the default XnnpackPartitioner (portable.pte: every bf16 node declined,
// run by the portable kernels) and with enable_bf16 (xnnpack.pte: bf16 delegates). etgo's outputs
// equal the official runtime's bit for bit, and what the official runtime refuses at load etgo
// refuses at load.
func TestBF16Fixtures(t *testing.T) {
	for _, dir := range bf16Dirs(t) {
		rec := readBF16Record(t, dir)
		for _, kind := range []string{"portable", "xnnpack"} {
			t.Run(filepath.Base(dir)+"/"+kind, func(t *testing.T) {
				r := rec.Portable
				if kind == "xnnpack" {
					r = rec.XNNPACK
				}
				m, done, err := loadBF16(t, filepath.Join(dir, kind+".pte"))
				if !r.OfficialRuns {
					if err == nil {
						done()
						t.Fatalf("loads; the official runtime refuses it: %s", r.Error)
					}
					t.Logf("refused as the official runtime refuses it: %v", err)
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				defer done()
				runBF16Case(t, m, dir, "input", kind)
				if _, err := os.Stat(filepath.Join(dir, "expected", kind+"_nonfinite.npy")); err == nil {
					runBF16Case(t, m, dir, "nonfinite", kind+"_nonfinite")
				}
			})
		}
	}
}

// TestBF16Refusals: the delegates the official runtime fails to load are refused at init, by
// the node XNNPACK refuses to define.
func TestBF16Refusals(t *testing.T) {
	for _, c := range []struct{ model, node string }{
		{"conv2d_relu", "XNNConv2d"}, {"depthwise", "XNNDepthwiseConv2d"}, {"softmax", "XNNSoftmax"},
		{"mean", "XNNGlobalAvgPooling2d"}, {"cat", "XNNConv2d"},
	} {
		g, named := delegateGraph(t, testutil.Testdata(t, "bf16", c.model, "xnnpack.pte"))
		_, err := newPlan(g, named)
		if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), c.node) || !strings.Contains(err.Error(), "bf16") {
			t.Errorf("%s: error %v, want %s refused for bf16", c.model, err, c.node)
		}
	}
}
