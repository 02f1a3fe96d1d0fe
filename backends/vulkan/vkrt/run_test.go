package vkrt_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/etgo/etgo/backends/vulkan/vkrt"
	"github.com/etgo/etgo/backends/xnnpack"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/kernels/portable"
	"github.com/etgo/etgo/npy"
	"github.com/etgo/etgo/pte"
)

// relTol is the bound on every output: the largest absolute difference to eager PyTorch,
// relative to the output's largest magnitude (fp32 ≤ 1e-3 relative, issue #19).
const relTol = 1e-3

// requireDevice skips a test when this machine has no Vulkan device, saying why, unless
// ETGO_REQUIRE_VULKAN is set (CI installs lavapipe and sets it, so there the test fails).
func requireDevice(t *testing.T) {
	t.Helper()
	name, err := vkrt.Available()
	if err != nil {
		if os.Getenv("ETGO_REQUIRE_VULKAN") != "" {
			t.Fatalf("ETGO_REQUIRE_VULKAN is set and: %v", err)
		}
		t.Skipf("no Vulkan device (install libvulkan1 and mesa-vulkan-drivers): %v", err)
	}
	t.Logf("device: %s", name)
}

func registry(t testing.TB) *executor.Registry {
	reg := executor.NewRegistry()
	if err := portable.Register(reg); err != nil {
		t.Fatal(err)
	}
	if err := xnnpack.Register(reg); err != nil {
		t.Fatal(err)
	}
	if err := vkrt.Register(reg); err != nil {
		t.Fatal(err)
	}
	return reg
}

func loadNpys(t testing.TB, pattern string) []*npy.Array {
	t.Helper()
	files, _ := filepath.Glob(pattern)
	sort.Slice(files, func(i, j int) bool { return numbered(files[i]) < numbered(files[j]) })
	out := make([]*npy.Array, len(files))
	for i, f := range files {
		a, err := npy.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = a
	}
	return out
}

func numbered(path string) int {
	var n int
	base := filepath.Base(path)
	for i := len(base) - 5; i >= 0 && base[i] >= '0' && base[i] <= '9'; i-- {
		n = n*10 + int(base[i]-'0') // reversed digits, only compared for order below 10
	}
	return n
}

// runPTE runs a .pte on inputs and compares every output with want; it returns the worst
// relative error. The program must hold a Vulkan delegate.
func runPTE(t *testing.T, path string, inputs, want []*npy.Array) float64 {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := pte.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	hasVulkan := false
	for _, d := range f.Program.ExecutionPlans[0].Delegates {
		hasVulkan = hasVulkan || d.ID == vkrt.BackendID
	}
	if !hasVulkan {
		t.Fatalf("%s has no Vulkan delegate", path)
	}
	p, err := executor.Open(path, executor.Options{Registry: registry(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	m, err := p.LoadMethod("forward")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	ins := make([]*executor.Tensor, len(inputs))
	for i, a := range inputs {
		if ins[i], err = npyconv.Tensor(a); err != nil {
			t.Fatal(err)
		}
	}
	var worst float64
	for round := 0; round < 2; round++ { // twice: a second call reuses the recorded commands
		outs, err := m.Run(context.Background(), ins...)
		if err != nil {
			t.Fatal(err)
		}
		if len(outs) != len(want) {
			t.Fatalf("%d outputs, want %d", len(outs), len(want))
		}
		for i := range outs {
			rel, err := npyconv.MaxRelDiff(outs[i], want[i])
			if err != nil {
				t.Fatalf("output %d: %v", i, err)
			}
			if rel > relTol {
				t.Errorf("output %d: relative error %.3g > %g", i, rel, relTol)
			}
			worst = max(worst, rel)
		}
	}
	return worst
}
