package quantized_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/kernels/optimized"
	"github.com/etgo/etgo/kernels/portable"
	"github.com/etgo/etgo/kernels/prim"
	"github.com/etgo/etgo/kernels/quantized"
	"github.com/etgo/etgo/npy"
)

// notExact are the programs whose outputs also go through an fp32 kernel etgo does not match
// bit for bit: dynamic_linear's aten::addmm sums in another order than the official BLAS one
// (its quantized operators run alone, bit for bit, in dynamic_qdq).
var notExact = map[string]float64{"dynamic_linear": 1e-6}

// TestPTE runs the official toolchain's programs whose quantize/dequantize (and quantized
// embedding) operators stay outside any delegate (testdata/pte, written by
// tools/reference/generate_quantized_pte_fixtures.py) with the portable, optimized and quantized
// kernels:
// every output must equal the official runtime's bit for bit.
func TestPTE(t *testing.T) {
	dirs, err := filepath.Glob("testdata/pte/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no programs in testdata/pte (%v)", err)
	}
	reg := executor.NewRegistry()
	// The optimized kernels over the portable ones, as the official runtime links its optimized
	// library (its addmm is the one the dynamic-quantization program's linears need to match).
	for _, err := range []error{portable.Register(reg), optimized.Register(reg, 1), prim.Register(reg), quantized.Register(reg)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			p, err := executor.Open(filepath.Join(dir, "program.pte"), executor.Options{Registry: reg})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			m, err := p.LoadMethod("forward")
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			var inputs []*executor.EValue
			for i := 0; ; i++ {
				a, err := npy.Load(filepath.Join(dir, fmt.Sprintf("input_%d.npy", i)))
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
				inputs = append(inputs, &executor.EValue{Tag: executor.TagTensor, Tensor: x})
			}
			outs, err := m.Execute(context.Background(), inputs...)
			if err != nil {
				t.Fatal(err)
			}
			for i, o := range outs {
				a, err := npy.Load(filepath.Join(dir, fmt.Sprintf("expected_%d.npy", i)))
				if err != nil {
					t.Fatal(err)
				}
				want, err := npyconv.Tensor(a)
				if err != nil {
					t.Fatal(err)
				}
				if tol, ok := notExact[filepath.Base(dir)]; ok {
					if err := npyconv.Compare(o.Tensor, a, tol); err != nil {
						t.Errorf("output %d: %v", i, err)
					}
					continue
				}
				if o.Tensor == nil || o.Tensor.ScalarType() != want.ScalarType() || !bytes.Equal(o.Tensor.Bytes(), want.Bytes()) {
					d, _ := npyconv.MaxAbsDiff(o.Tensor, a)
					t.Errorf("output %d differs from the official runtime's (max abs diff %g):%s", i, d, firstDiff(o.Tensor, want.Bytes()))
				}
			}
		})
	}
}
