//go:build !novulkan

// Package vulkan_test runs the official Vulkan programs of testdata/vulkan (zoo models lowered
// by tools/reference/generate_vulkan_fixtures.py with the VulkanPartitioner, alone and ahead
// of XNNPACK) through the etgo Module, whose registry carries the Vulkan backend. With a Vulkan
// device each runs against the zoo's eager outputs, or is refused at load naming the operators
// etgo's Vulkan backend does not run (unsupported below); without one, every method with a
// Vulkan delegate is refused at load naming VulkanBackend and what is missing, and the others
// run as before.
package vulkan_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/etgo/etgo"
	"github.com/etgo/etgo/backends/vulkan/vkrt"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/npy"
	"github.com/etgo/etgo/pte"
)

// relTol bounds every float output: the largest absolute difference to eager PyTorch relative
// to the output's largest magnitude (fp32 ≤ 1e-3 relative, issue #19).
const relTol = 1e-3

// unsupported is, by model/variant, the operators whose absence makes etgo's Vulkan backend
// refuse a program's blob (each must be named in the refusal). Every other program must run.
// Empty: all 38 official programs run (the int/bool family landed with BOOL tensors); a new
// zoo lowering that etgo cannot run is listed here with the operators it lacks.
var unsupported = map[string][]string{}

// childEnv marks the copy of this test binary that TestWithoutDevice starts with no Vulkan
// driver reachable.
const childEnv = "ETGO_VULKAN_TEST_NO_DEVICE"

func programs(t *testing.T) []string {
	files, _ := filepath.Glob(testutil.Testdata(t, "vulkan", "*", "*.pte"))
	if len(files) == 0 {
		t.Fatal("no official Vulkan programs in testdata/vulkan")
	}
	return files
}

func hasVulkan(t *testing.T, path string) bool {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := pte.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Program.ExecutionPlans[0].Delegates {
		if d.ID == vkrt.BackendID {
			return true
		}
	}
	return false
}

// TestVulkanPrograms runs every program on this machine's Vulkan device, or, without one,
// checks each is refused (or, with no Vulkan delegate, runs) as the package comment says.
func TestVulkanPrograms(t *testing.T) {
	device, noDevice := vkrt.Available()
	if noDevice != nil && os.Getenv("ETGO_REQUIRE_VULKAN") != "" && os.Getenv(childEnv) == "" {
		t.Fatalf("ETGO_REQUIRE_VULKAN is set and: %v", noDevice)
	}
	if noDevice == nil {
		t.Logf("device: %s", device)
	} else {
		t.Logf("no Vulkan device: %v", noDevice)
	}
	var summary []string
	for _, p := range programs(t) {
		name := filepath.Base(filepath.Dir(p)) + "/" + strings.TrimSuffix(filepath.Base(p), ".pte")
		t.Run(name, func(t *testing.T) {
			vulkan := hasVulkan(t, p)
			m, err := etgo.Load(p)
			if err != nil {
				t.Fatalf("load: %v", err) // loading a program never needs a device
			}
			defer m.Close()
			err = m.LoadMethod("forward")
			switch {
			case noDevice != nil && vulkan:
				if !errors.Is(err, etgo.ErrBackendUnavailable) || !errors.Is(err, vkrt.ErrNoDevice) || !strings.Contains(err.Error(), "VulkanBackend") {
					t.Fatalf("loading forward without a device gave %v, want ErrBackendUnavailable naming VulkanBackend and wrapping vkrt.ErrNoDevice", err)
				}
				return
			case noDevice == nil && unsupported[name] != nil:
				if !errors.Is(err, vkrt.ErrUnsupported) {
					t.Fatalf("loading forward gave %v, want vkrt.ErrUnsupported naming %v", err, unsupported[name])
				}
				for _, op := range unsupported[name] {
					if !strings.Contains(err.Error(), op) {
						t.Errorf("refusal %q does not name %s", err, op)
					}
				}
				summary = append(summary, name+": refused")
				return
			case err != nil:
				t.Fatalf("loading forward: %v", err)
			}
			worst := runZoo(t, m, filepath.Base(filepath.Dir(p)))
			summary = append(summary, fmt.Sprintf("%s: %.3g", name, worst))
		})
	}
	if len(summary) > 0 {
		t.Logf("worst relative error per program: %s", strings.Join(summary, ", "))
	}
}

// TestWithoutDevice runs TestVulkanPrograms again in a copy of this test binary for which the
// Vulkan loader finds no driver, so the refusals are tested on machines that have a device.
func TestWithoutDevice(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		return
	}
	if _, err := vkrt.Available(); err != nil {
		t.Skipf("no Vulkan device here: TestVulkanPrograms has tested the refusals (%v)", err)
	}
	if testing.Short() {
		t.Skip("-short")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestVulkanPrograms$", "-test.count=1", "-test.v")
	// A driver list naming no file: the loader (VK_DRIVER_FILES since 1.3.207, VK_ICD_FILENAMES
	// before) then searches nowhere else.
	none := filepath.Join(t.TempDir(), "no-driver.json")
	cmd.Env = append(os.Environ(), childEnv+"=1", "VK_DRIVER_FILES="+none, "VK_ICD_FILENAMES="+none)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("TestVulkanPrograms without a driver: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "no Vulkan device") {
		t.Fatalf("the child found a device:\n%s", out)
	}
}

// runZoo runs forward on the zoo model's inputs, twice, and compares every output with the
// eager ones; it returns the worst relative error.
func runZoo(t *testing.T, m *etgo.Module, model string) float64 {
	t.Helper()
	dir := testutil.Testdata(t, "zoo", model)
	inputs := loadNpys(t, filepath.Join(dir, "inputs", "input_*.npy"))
	want := loadNpys(t, filepath.Join(dir, "expected", "eager", "output_*.npy"))
	ins := make([]*executor.Tensor, len(inputs))
	for i, a := range inputs {
		var err error
		if ins[i], err = npyconv.Tensor(a); err != nil {
			t.Fatal(err)
		}
	}
	var worst float64
	for round := 0; round < 2; round++ { // twice: a second call reuses the recorded commands
		outs, err := m.Forward(context.Background(), ins...)
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

func loadNpys(t *testing.T, pattern string) []*npy.Array {
	t.Helper()
	files, _ := filepath.Glob(pattern)
	index := func(p string) int {
		var n int
		fmt.Sscanf(filepath.Base(p)[strings.LastIndex(filepath.Base(p), "_")+1:], "%d", &n)
		return n
	}
	sort.Slice(files, func(i, j int) bool { return index(files[i]) < index(files[j]) })
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
