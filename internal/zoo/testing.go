package zoo

import (
	"context"
	"testing"

	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/runtime"
)

// Models returns the committed zoo (testdata/zoo), failing the test if it cannot be read.
func Models(tb testing.TB) []Model {
	tb.Helper()
	models, err := Load(testutil.Testdata(tb, "zoo"))
	if err != nil {
		tb.Fatal(err)
	}
	return models
}

// Each runs fn as a subtest for every committed zoo model: the one line a test needs to cover
// the whole zoo.
func Each(t *testing.T, fn func(t *testing.T, m Model)) {
	t.Helper()
	for _, m := range Models(t) {
		t.Run(m.Name, func(t *testing.T) { fn(t, m) })
	}
}

// InputTensors loads the model's inputs as runtime tensors.
func (m Model) InputTensors(tb testing.TB) []*runtime.Tensor {
	tb.Helper()
	arrays, err := m.LoadInputs()
	if err != nil {
		tb.Fatal(err)
	}
	out := make([]*runtime.Tensor, len(arrays))
	for i, a := range arrays {
		if out[i], err = npyconv.Tensor(a); err != nil {
			tb.Fatal(err)
		}
	}
	return out
}

// RunAndCheck runs prog's forward method on the model's inputs and compares every output with
// variant v's expected outputs (floats within 1e-4, integers and booleans exact).
func (m Model) RunAndCheck(t testing.TB, prog *runtime.Program, v Variant) {
	t.Helper()
	meth, err := prog.LoadMethod("forward")
	if err != nil {
		t.Fatal(err)
	}
	defer meth.Close()
	outs, err := meth.Run(context.Background(), m.InputTensors(t)...)
	if err != nil {
		t.Fatal(err)
	}
	want, err := m.LoadExpected(v)
	if err != nil {
		t.Fatal(err)
	}
	if len(outs) != len(want) {
		t.Fatalf("%d outputs, want %d", len(outs), len(want))
	}
	for i := range outs {
		if err := npyconv.Compare(outs[i], want[i], 1e-4); err != nil {
			t.Errorf("output %d: %v", i, err)
		}
	}
}
