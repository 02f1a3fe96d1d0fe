package runtime_test

import (
	"testing"

	"github.com/etgo/etgo/backends/xnnpack"
	"github.com/etgo/etgo/internal/zoo"
)

// TestZooXnnpack runs every official zoo xnnpack.pte with etgo's XNNPACK backend (and portable
// kernels for what stayed outside the delegates) and compares with the official runtime.
func TestZooXnnpack(t *testing.T) {
	reg := portableRegistry(t)
	if err := xnnpack.Register(reg); err != nil {
		t.Fatal(err)
	}
	zoo.Each(t, func(t *testing.T, m zoo.Model) { runZoo(t, reg, m, zoo.Xnnpack) })
}
