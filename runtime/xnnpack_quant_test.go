package runtime_test

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack"
	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/npy"
	"github.com/etgo/etgo/runtime"
)

// TestQuantXnnpack runs every statically quantized fixture (testdata/quant, made by
// tools/reference/generate_quant_fixtures.py) with etgo's XNNPACK backend and requires the
// official runtime's outputs exactly: the graphs end in a dequantize, so equal int8 codes give
// equal floats, and one differing code shows as a whole quantization step.
func TestQuantXnnpack(t *testing.T) {
	dirs, _ := filepath.Glob(testutil.Testdata(t, "quant", "*"))
	if len(dirs) < 3 {
		t.Fatalf("only %d quantized fixtures", len(dirs))
	}
	for _, threads := range []int{1, 2} {
		reg := portableRegistry(t)
		if err := reg.RegisterBackend(xnnpack.BackendID, xnnpack.Backend{Threads: threads}); err != nil {
			t.Fatal(err)
		}
		for _, dir := range dirs {
			t.Run(fmt.Sprintf("threads=%d/%s", threads, filepath.Base(dir)), func(t *testing.T) {
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
				in, err := npy.Load(filepath.Join(dir, "inputs", "input_0.npy"))
				if err != nil {
					t.Fatal(err)
				}
				x, err := npyconv.Tensor(in)
				if err != nil {
					t.Fatal(err)
				}
				outs, err := meth.Run(context.Background(), x)
				if err != nil {
					t.Fatal(err)
				}
				want, err := npy.Load(filepath.Join(dir, "expected", "output_0.npy"))
				if err != nil {
					t.Fatal(err)
				}
				if len(outs) != 1 {
					t.Fatalf("%d outputs, want 1", len(outs))
				}
				got := runtime.Data[float32](outs[0])
				exp, err := want.Float64s()
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != len(exp) {
					t.Fatalf("%d output values, want %d", len(got), len(exp))
				}
				diffs, worst := 0, 0.0
				for i := range got {
					if math.Float32bits(got[i]) != math.Float32bits(float32(exp[i])) {
						diffs++
						worst = max(worst, math.Abs(float64(got[i])-exp[i]))
					}
				}
				if diffs > 0 {
					t.Errorf("%d of %d outputs differ from the official runtime's, by up to %g", diffs, len(got), worst)
				}
			})
		}
	}
}
