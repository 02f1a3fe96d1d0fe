package example_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends"
	"github.com/etgo/etgo/backends/example"
	"github.com/etgo/etgo/backends/xnnpack"
	xnnaot "github.com/etgo/etgo/backends/xnnpack/aot"
	"github.com/etgo/etgo/emit"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/frontend/pt2"
	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/kernels/portable"
	"github.com/etgo/etgo/kernels/prim"
	"github.com/etgo/etgo/lower"
	"github.com/etgo/etgo/npy"
	"github.com/etgo/etgo/pte"
)

// runtimeRegistry carries the portable and primitive kernels, XNNPACK and, when asked, the
// example backend: one registration line each.
func runtimeRegistry(t *testing.T, withExample bool) *executor.Registry {
	reg := executor.NewRegistry()
	if err := portable.Register(reg); err != nil {
		t.Fatal(err)
	}
	if err := prim.Register(reg); err != nil {
		t.Fatal(err)
	}
	if err := reg.RegisterBackend(xnnpack.BackendID, xnnpack.Backend{Threads: 1}); err != nil {
		t.Fatal(err)
	}
	if withExample {
		if err := reg.RegisterBackend(example.BackendID, example.Backend{}); err != nil {
			t.Fatal(err)
		}
	}
	return reg
}

// TestEndToEnd: with the ordered list [example, xnnpack], the example backend takes the
// residual block's add and relu and XNNPACK the convolutions; the program runs to eager
// PyTorch's outputs; a runtime without the example backend refuses it at load, by name.
func TestEndToEnd(t *testing.T) {
	aot := backends.NewRegistry()
	for _, b := range []backends.Backend{example.AheadOfTime(), xnnaot.Backend()} {
		if err := aot.Register(b); err != nil {
			t.Fatal(err)
		}
	}
	parts, recommended, err := aot.Partitioners([]string{"example", "xnnpack"}, backends.Options{})
	if err != nil {
		t.Fatal(err)
	}
	prog, err := pt2.Open(testutil.Testdata(t, "zoo", "residual_cnn", "model.pt2"))
	if err != nil {
		t.Fatal(err)
	}
	edge, err := lower.ToEdgeTransformAndLower(prog.Graph, lower.Options{Partitioners: parts, TransformPasses: recommended})
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, d := range edge.Plan.Delegates {
		count[d.Spec.BackendID]++
	}
	if count[example.BackendID] == 0 || count[xnnpack.BackendID] == 0 {
		t.Fatalf("delegates per backend %v: want both backends", count)
	}
	contents, err := lower.ToExecuTorch(edge.Plan, aot)
	if err != nil {
		t.Fatal(err)
	}
	if err := emit.CheckKernels(contents.Program, runtimeRegistry(t, true).HasKernel); err != nil {
		t.Fatal(err)
	}
	data, err := pte.Write(contents, pte.DefaultWriteOptions)
	if err != nil {
		t.Fatal(err)
	}
	f, err := pte.Parse(data)
	if err != nil {
		t.Fatal(err)
	}

	x, err := npy.Load(testutil.Testdata(t, "zoo", "residual_cnn", "inputs", "input_0.npy"))
	if err != nil {
		t.Fatal(err)
	}
	in, err := npyconv.Tensor(x)
	if err != nil {
		t.Fatal(err)
	}
	want, err := npy.Load(testutil.Testdata(t, "zoo", "residual_cnn", "expected", "eager", "output_0.npy"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := executor.NewProgram(f, executor.Options{Registry: runtimeRegistry(t, true)})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	m, err := p.LoadMethod("forward")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	outs, err := m.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if err := npyconv.Compare(outs[0], want, 1e-4); err != nil {
		t.Errorf("output: %v (delegates %v)", err, count)
	}

	// The app without the backend: refused at load, naming it.
	q, err := executor.NewProgram(f, executor.Options{Registry: runtimeRegistry(t, false)})
	if err == nil {
		_, err = q.LoadMethod("forward")
		q.Close()
	}
	if !errors.Is(err, executor.ErrBackendNotRegistered) || !strings.Contains(err.Error(), example.BackendID) {
		t.Errorf("without the example backend: %v", err)
	}
}

// TestInitRefusesBadBlobs: truncated and inconsistent blobs are errors, never panics.
func TestInitRefusesBadBlobs(t *testing.T) {
	good := []byte("EX01")
	for _, w := range []uint32{2, 1, 1, 1, 4, 4, 1, 0, 0, 1, 0, 1} {
		good = append(good, byte(w), byte(w>>8), byte(w>>16), byte(w>>24))
	}
	if _, err := (example.Backend{}).Init(nil, good, nil); err != nil {
		t.Fatalf("a valid blob: %v", err)
	}
	for i := range len(good) {
		if _, err := (example.Backend{}).Init(nil, good[:i], nil); err == nil {
			t.Errorf("truncated to %d bytes: accepted", i)
		}
	}
	bad := append([]byte(nil), good...)
	bad[4+4*9] = 7 // the op's output index, past the values
	if _, err := (example.Backend{}).Init(nil, bad, nil); err == nil {
		t.Error("an out-of-range index: accepted")
	}
}
