package executor_test

import (
	"bytes"
	"context"
	"sync"
	"testing"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/zoo"
	"github.com/etgo/etgo/internal/zoo/zoorun"
	"github.com/etgo/etgo/kernels/portable"
)

func portableRegistry(t testing.TB) *executor.Registry {
	t.Helper()
	reg := executor.NewRegistry()
	if err := portable.Register(reg); err != nil {
		t.Fatal(err)
	}
	return reg
}

// runZoo runs one .pte of a zoo model on its inputs and compares with the expected outputs.
func runZoo(t *testing.T, reg *executor.Registry, m zoo.Model, v zoo.Variant) {
	t.Helper()
	p, err := executor.Open(m.PTE(v), executor.Options{Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	zoorun.Check(t, p, m, v)
}

// TestZooPortable runs every zoo portable.pte and compares with the official runtime's outputs.
func TestZooPortable(t *testing.T) {
	reg := portableRegistry(t)
	zoo.Each(t, func(t *testing.T, m zoo.Model) { runZoo(t, reg, m, zoo.Portable) })
}

// TestConcurrentMethods: one Program shared by 8 goroutines, each with its own Method, 1,000 runs
// in total, every output identical to the first (run it with -race).
func TestConcurrentMethods(t *testing.T) {
	m := zooModel(t, "residual_cnn")
	p, err := executor.Open(m.Portable, executor.Options{Registry: portableRegistry(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	inputs := zoorun.Inputs(t, m)
	const workers, total = 8, 1000
	results := make(chan []byte, total)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			meth, err := p.LoadMethod("forward")
			if err != nil {
				errs <- err
				return
			}
			defer meth.Close()
			for i := 0; i < total/workers; i++ {
				outs, err := meth.Run(context.Background(), inputs...)
				if err != nil {
					errs <- err
					return
				}
				results <- outs[0].Bytes()
			}
		}()
	}
	wg.Wait()
	close(results)
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	var first []byte
	n := 0
	for r := range results {
		if first == nil {
			first = r
		} else if !bytes.Equal(r, first) {
			t.Fatalf("run %d differs from run 0", n)
		}
		n++
	}
	if n != total {
		t.Fatalf("%d runs, want %d", n, total)
	}
}

func zooModel(t testing.TB, name string) zoo.Model {
	t.Helper()
	for _, m := range zoo.Models(t) {
		if m.Name == name {
			return m
		}
	}
	t.Fatalf("no zoo model %s", name)
	return zoo.Model{}
}

// BenchmarkZooPortable times Execute of every zoo portable.pte on its inputs (one thread).
func BenchmarkZooPortable(b *testing.B) {
	reg := portableRegistry(b)
	for _, m := range zoo.Models(b) {
		b.Run(m.Name, func(b *testing.B) {
			p, err := executor.Open(m.Portable, executor.Options{Registry: reg})
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close()
			meth, err := p.LoadMethod("forward")
			if err != nil {
				b.Fatal(err)
			}
			defer meth.Close()
			inputs := zoorun.Inputs(b, m)
			ctx := context.Background()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := meth.Run(ctx, inputs...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
