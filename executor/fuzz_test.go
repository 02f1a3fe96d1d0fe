package executor_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/etgo/etgo/backends/xnnpack"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/kernels/prim"
	"github.com/etgo/etgo/pte"
)

// FuzzLoadAndExecute: a program is untrusted from its header to its last instruction. Whatever the
// bytes, loading and running every method on its declared inputs returns values or an error: no
// panic, no hang. Seeds are small official programs (portable, XNNPACK, statically and
// dynamically quantized XNNPACK, dynamic shapes).
func FuzzLoadAndExecute(f *testing.F) {
	for _, p := range [][]string{
		{"zoo", "add", "portable.pte"}, {"zoo", "add", "xnnpack.pte"}, {"zoo", "mlp", "portable.pte"},
		{"zoo", "int_bool", "portable.pte"}, {"zoo", "shape_ops", "xnnpack.pte"}, {"zoo", "split_delegation", "xnnpack.pte"},
		{"prim", "dynamic_view", "portable.pte"}, {"quant", "conv_linear", "xnnpack.pte"}, {"quant", "gated", "xnnpack.pte"},
		{"dynquant", "mlp", "xnnpack.pte"}, {"dynquant", "mlp_8da4w_g32", "xnnpack.pte"},
	} {
		b, err := os.ReadFile(testutil.Testdata(f, p...))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	reg := portableRegistry(f)
	if err := prim.Register(reg); err != nil {
		f.Fatal(err)
	}
	if err := reg.RegisterBackend(xnnpack.BackendID, xnnpack.Backend{Threads: 1}); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := pte.Parse(data)
		if err != nil {
			return
		}
		p, err := executor.NewProgram(file, executor.Options{Registry: reg})
		if err != nil {
			return
		}
		defer p.Close()
		for _, name := range p.MethodNames() {
			m, err := p.LoadMethod(name)
			if err != nil {
				continue
			}
			var in []*executor.EValue
			for i := range m.NumInputs() {
				v := *m.Input(i)
				if v.Tag == executor.TagTensor && v.Tensor != nil {
					v.Tensor = v.Tensor.Clone()
				}
				in = append(in, &v)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			_, _ = m.Execute(ctx, in...)
			cancel()
			m.Close()
		}
	})
}
