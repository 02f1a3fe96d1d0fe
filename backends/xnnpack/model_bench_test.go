package xnnpack_test

import (
	"context"
	"path/filepath"
	"sort"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/kernels/optimized"
	"github.com/etgo/etgo/kernels/portable"
	"github.com/etgo/etgo/npy"
)

// BenchmarkModels runs whole committed programs through the backend at one thread: the small zoo
// CNNs (fp32: convolutions, depthwise, pooling, elementwise) and the statically quantized
// fixtures (the int8 path) and the widest dynamically quantized ones (qd8 x qc8w, qd8 x qb4w),
// so a change to the plan or the node kernels shows in one place.
func BenchmarkModels(b *testing.B) {
	benchModels(b, []string{
		"zoo/mobilenet_v2_small", "zoo/mobilenet_v3_small_small", "zoo/resnet18_small", "zoo/transformer_encoder",
		"quant/mobilenet_v2_tiny", "quant/conv_linear", "quant/dw_residual", "quant/blocks",
		"dynquant/linear_wide", "dynquant/linear_8da4w_g128",
	})
}

// BenchmarkQuantFull runs the full-size quantized models of tools/reference/generate_quant_full.py
// (testdata/bench-full/quant, generated on demand, never committed) that are present.
func BenchmarkQuantFull(b *testing.B) {
	dirs, _ := filepath.Glob(filepath.Join(testutil.Testdata(b), "bench-full", "quant", "*", "xnnpack.pte"))
	if len(dirs) == 0 {
		b.Skip("no full-size quantized models: tools/reference/generate_quant_full.py makes them")
	}
	var ms []string
	for _, d := range dirs {
		rel, _ := filepath.Rel(testutil.Testdata(b), filepath.Dir(d))
		ms = append(ms, filepath.ToSlash(rel))
	}
	benchModels(b, ms)
}

func benchModels(b *testing.B, models []string) {
	for _, m := range models {
		b.Run(filepath.Base(m), func(b *testing.B) {
			dir := testutil.Testdata(b, filepath.FromSlash(m))
			reg := executor.NewRegistry()
			// The kernels the etgo binary runs the fallback operators on.
			if err := portable.Register(reg); err != nil {
				b.Fatal(err)
			}
			if err := optimized.Register(reg, 1); err != nil {
				b.Fatal(err)
			}
			if err := reg.RegisterBackend(xnnpack.BackendID, xnnpack.Backend{Threads: 1}); err != nil {
				b.Fatal(err)
			}
			p, err := executor.Open(filepath.Join(dir, "xnnpack.pte"), executor.Options{Registry: reg})
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close()
			meth, err := p.LoadMethod("forward")
			if err != nil {
				b.Fatal(err)
			}
			defer meth.Close()
			paths, _ := filepath.Glob(filepath.Join(dir, "inputs", "input_*.npy"))
			sort.Strings(paths)
			var inputs []*executor.Tensor
			for _, path := range paths {
				a, err := npy.Load(path)
				if err != nil {
					b.Fatal(err)
				}
				tn, err := npyconv.Tensor(a)
				if err != nil {
					b.Fatal(err)
				}
				inputs = append(inputs, tn)
			}
			for b.Loop() {
				if _, err := meth.Run(context.Background(), inputs...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
