package etgo_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/etgo/etgo"
)

// TestQuantizedProgram: the Module's default registry carries the quantized kernel library, so
// a program whose quantized embeddings and per-token quantize/dequantize run outside any
// delegate gives the official runtime's outputs bit for bit.
func TestQuantizedProgram(t *testing.T) {
	const dir = "kernels/quantized/testdata/pte/embeddings/"
	m, err := etgo.Load(dir + "program.pte")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	x, err := etgo.ReadNPY(dir + "input_0.npy")
	if err != nil {
		t.Fatal(err)
	}
	outs, err := m.Forward(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	want, err := etgo.ReadNPY(dir + "expected_0.npy")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(outs[0].Bytes(), want.Bytes()) {
		t.Error("output 0 differs from the official runtime's")
	}
}
