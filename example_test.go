package etgo_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/etgo/etgo"
)

// Load a program, read its input from a .npy file, run it. (This is the README's snippet:
// TestREADMESnippet keeps the two equal.)
func Example() {
	m, err := etgo.Load("testdata/zoo/mlp/xnnpack.pte")
	if err != nil {
		log.Fatal(err)
	}
	defer m.Close()

	x, err := etgo.ReadNPY("testdata/zoo/mlp/inputs/input_0.npy")
	if err != nil {
		log.Fatal(err)
	}
	out, err := m.Forward(context.Background(), x)
	if err != nil {
		log.Fatal(err)
	}
	logits, _ := etgo.Values[float32](out[0])
	fmt.Println(out[0].Sizes(), fmt.Sprintf("%.4f", logits[:3]))
	// Output: [4 10] [-0.2097 -0.3261 -0.2056]
}

// Tensors from Go slices: the add model adds its two [1, 3, 8, 8] inputs.
func ExampleNewTensor() {
	m, err := etgo.Load("testdata/zoo/add/xnnpack.pte", etgo.WithThreads(2))
	if err != nil {
		log.Fatal(err)
	}
	defer m.Close()

	a, b := make([]float32, 3*8*8), make([]float32, 3*8*8)
	for i := range a {
		a[i], b[i] = float32(i), 0.5
	}
	x, _ := etgo.NewTensor(a, 1, 3, 8, 8)
	y, _ := etgo.NewTensor(b, 1, 3, 8, 8)
	out, err := m.Forward(context.Background(), x, y)
	if err != nil {
		log.Fatal(err)
	}
	sum, _ := etgo.Values[float32](out[0])
	fmt.Println(sum[:4])
	// Output: [0.5 1.5 2.5 3.5]
}

// An application built without the XNNPACK backend learns it when the method loads, with the
// backend's name, not at the first call deep in a model.
func ExampleWithBackends() {
	m, err := etgo.Load("testdata/zoo/add/xnnpack.pte", etgo.WithBackends())
	if err != nil {
		log.Fatal(err)
	}
	defer m.Close()

	err = m.LoadMethod("forward")
	fmt.Println(errors.Is(err, etgo.ErrBackendNotRegistered))
	// Output: true
}
