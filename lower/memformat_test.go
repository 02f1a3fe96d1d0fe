package lower_test

import (
	"context"
	"encoding/binary"
	"math"
	"slices"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack"
	xnnaot "github.com/etgo/etgo/backends/xnnpack/aot"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/portable"
	"github.com/etgo/etgo/lower"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/pte"
)

// TestCloneChannelsLast: x.clone(memory_format=torch.channels_last) lowers, with and without
// the XNNPACK partitioner, to a program whose output is x laid out channels-last (dim order
// 0,2,3,1), as the official program is; etgo used to keep aten.clone, and its file failed in
// both runtimes. (Checked by hand in the official runtime: both files run and return x.)
func TestCloneChannelsLast(t *testing.T) {
	reg := executor.NewRegistry()
	if err := portable.Register(reg); err != nil {
		t.Fatal(err)
	}
	if err := reg.RegisterBackend(xnnpack.BackendID, xnnpack.Backend{Threads: 1}); err != nil {
		t.Fatal(err)
	}
	for _, parts := range [][]partition.Partitioner{nil, {&xnnaot.Partitioner{}}} {
		data, _ := lowerFile(t, "../testdata/decomp/cases/nn.clone_channels_last.pt2", lower.Options{Partitioners: parts})
		f, err := pte.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		p, err := executor.NewProgram(f, executor.Options{Registry: reg})
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.LoadMethod("forward")
		if err != nil {
			t.Fatal(err)
		}
		x, err := executor.NewTensor(executor.Float32, 1, 3, 8, 8)
		if err != nil {
			t.Fatal(err)
		}
		in := x.Bytes()
		for i := 0; i < len(in)/4; i++ {
			binary.LittleEndian.PutUint32(in[4*i:], math.Float32bits(float32(i)))
		}
		outs, err := m.Run(context.Background(), x)
		if err != nil {
			t.Fatalf("%d partitioners: %v", len(parts), err)
		}
		y := outs[0]
		if !slices.Equal(y.DimOrder(), []uint8{0, 2, 3, 1}) {
			t.Errorf("%d partitioners: output dim order %v, official [0 2 3 1]", len(parts), y.DimOrder())
		}
		// Element (c, h, w) of a channels-last tensor sits at (h*8 + w)*3 + c.
		out := y.Bytes()
		for c := 0; c < 3; c++ {
			for hw := 0; hw < 64; hw++ {
				got := math.Float32frombits(binary.LittleEndian.Uint32(out[4*(hw*3+c):]))
				if want := float32(c*64 + hw); got != want {
					t.Fatalf("%d partitioners: element (%d, %d) = %v, want %v", len(parts), c, hw, got, want)
				}
			}
		}
	}
}
