package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestQuantizedKernels: the binary carries ExecuTorch's quantized kernel library, so `etgo
// check` finds every quantized_decomposed kernel of programs that leave quantize/dequantize
// (or a quantized embedding) outside a delegate, and `etgo run` runs them.
func TestQuantizedKernels(t *testing.T) {
	dir := filepath.Join("..", "..", "kernels", "quantized", "testdata", "pte")
	for _, name := range []string{"qdq_cnn_per_channel", "embeddings"} {
		pte := filepath.Join(dir, name, "program.pte")
		code, out, stderr := etgo("check", pte)
		if code != 0 || !strings.Contains(out, "quantized_decomposed::") || !strings.Contains(out, "everything is present") {
			t.Errorf("etgo check %s: exit %d, stderr %q:\n%s", name, code, stderr, out)
		}
		code, out, stderr = etgo("run", pte, "--input", filepath.Join(dir, name, "input_0.npy"))
		if code != 0 || !strings.Contains(out, "output 0:") {
			t.Errorf("etgo run %s: exit %d, stderr %q:\n%s", name, code, stderr, out)
		}
	}
}
