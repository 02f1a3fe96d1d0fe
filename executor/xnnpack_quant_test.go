package executor_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/internal/zoo/zoorun"
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
				zoorun.CheckExact(t, reg, dir, 1)
			})
		}
	}
}

// TestDynquantXnnpack runs every dynamically quantized fixture (testdata/dynquant, made by
// tools/reference/generate_dynquant_fixtures.py: qdint8 activations with qcint8 or qbint4
// weights) as a user would, and requires the official runtime's fp32 outputs bit for bit
// (backends/xnnpack's quant_dynamic.go says why no tolerance is needed).
func TestDynquantXnnpack(t *testing.T) {
	dirs, _ := filepath.Glob(testutil.Testdata(t, "dynquant", "*"))
	if len(dirs) < 3 {
		t.Fatalf("only %d dynamically quantized fixtures", len(dirs))
	}
	reg := portableRegistry(t)
	if err := reg.RegisterBackend(xnnpack.BackendID, xnnpack.Backend{}); err != nil {
		t.Fatal(err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			zoorun.CheckExact(t, reg, dir, 2)
		})
	}
}
