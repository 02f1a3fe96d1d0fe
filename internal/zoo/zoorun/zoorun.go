// Package zoorun runs zoo models in etgo's runtime for tests. It is apart from package zoo
// because the runtime imports pte, whose own tests use zoo.
package zoorun

import (
	"context"
	"testing"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/internal/zoo"
)

// Inputs loads the model's inputs as runtime tensors.
func Inputs(tb testing.TB, m zoo.Model) []*executor.Tensor {
	tb.Helper()
	arrays, err := m.LoadInputs()
	if err != nil {
		tb.Fatal(err)
	}
	out := make([]*executor.Tensor, len(arrays))
	for i, a := range arrays {
		if out[i], err = npyconv.Tensor(a); err != nil {
			tb.Fatal(err)
		}
	}
	return out
}

// Check runs prog's forward method on the model's inputs and compares every output with
// variant v's expected outputs (floats within 1e-4, integers and booleans exact).
func Check(t testing.TB, prog *executor.Program, m zoo.Model, v zoo.Variant) {
	t.Helper()
	meth, err := prog.LoadMethod("forward")
	if err != nil {
		t.Fatal(err)
	}
	defer meth.Close()
	outs, err := meth.Run(context.Background(), Inputs(t, m)...)
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
