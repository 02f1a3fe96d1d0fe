package executor_test

import (
	"fmt"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack"
	"github.com/etgo/etgo/internal/zoo"
)

// TestZooXnnpack runs every official zoo xnnpack.pte with etgo's XNNPACK backend (and portable
// kernels for what stayed outside the delegates) and compares with the official runtime.
func TestZooXnnpack(t *testing.T) {
	for _, threads := range []int{1, 2} {
		reg := portableRegistry(t)
		if err := reg.RegisterBackend(xnnpack.BackendID, xnnpack.Backend{Threads: threads}); err != nil {
			t.Fatal(err)
		}
		t.Run(fmt.Sprintf("threads=%d", threads), func(t *testing.T) {
			zoo.Each(t, func(t *testing.T, m zoo.Model) { runZoo(t, reg, m, zoo.Xnnpack) })
		})
	}
}
