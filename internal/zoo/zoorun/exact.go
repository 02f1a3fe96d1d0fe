package zoorun

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/npy"
)

// CheckExact runs dir/xnnpack.pte's forward on dir/inputs/input_0.npy runs times (later runs
// reuse the method's memory) and requires the official runtime's dir/expected/output_0.npy bit
// for bit: for graphs ending in a dequantize, one differing int8 code shows as a whole step.
func CheckExact(t *testing.T, reg *executor.Registry, dir string, runs int) {
	t.Helper()
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
	in, err := npy.Load(filepath.Join(dir, "inputs", "input_0.npy"))
	if err != nil {
		t.Fatal(err)
	}
	x, err := npyconv.Tensor(in)
	if err != nil {
		t.Fatal(err)
	}
	want, err := npy.Load(filepath.Join(dir, "expected", "output_0.npy"))
	if err != nil {
		t.Fatal(err)
	}
	exp, err := want.Float64s()
	if err != nil {
		t.Fatal(err)
	}
	for run := range runs {
		outs, err := meth.Run(context.Background(), x)
		if err != nil {
			t.Fatal(err)
		}
		if len(outs) != 1 || outs[0].ScalarType() != executor.Float32 {
			t.Fatalf("run %d: %d outputs, want one float32 tensor", run, len(outs))
		}
		got := executor.Data[float32](outs[0])
		if len(got) != len(exp) {
			t.Fatalf("run %d: %d output values, want %d", run, len(got), len(exp))
		}
		diffs, worst := 0, 0.0
		for i := range got {
			if math.Float32bits(got[i]) != math.Float32bits(float32(exp[i])) {
				diffs++
				worst = max(worst, math.Abs(float64(got[i])-exp[i]))
			}
		}
		if diffs > 0 {
			t.Fatalf("run %d: %d of %d outputs differ from the official runtime's, by up to %g", run, diffs, len(got), worst)
		}
	}
}
