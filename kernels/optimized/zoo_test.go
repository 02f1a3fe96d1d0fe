package optimized_test

import (
	"testing"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/zoo"
	"github.com/etgo/etgo/internal/zoo/zoorun"
	"github.com/etgo/etgo/kernels/optimized"
	"github.com/etgo/etgo/kernels/portable"
	"github.com/etgo/etgo/kernels/prim"
)

// TestZooPortableOptimized runs every zoo portable.pte (every operator on the kernels, none
// delegated) with the optimized kernels over the portable ones, threaded, against the official
// runtime's outputs.
func TestZooPortableOptimized(t *testing.T) {
	reg := executor.NewRegistry()
	for _, err := range []error{portable.Register(reg), optimized.Register(reg, 2), prim.Register(reg)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	zoo.Each(t, func(t *testing.T, m zoo.Model) {
		p, err := executor.Open(m.PTE(zoo.Portable), executor.Options{Registry: reg})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		zoorun.Check(t, p, m, zoo.Portable)
	})
}
