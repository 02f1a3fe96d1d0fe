package lower_test

import (
	"context"
	"encoding/binary"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends/all"

	"github.com/etgo/etgo/backends/xnnpack"
	xnnaot "github.com/etgo/etgo/backends/xnnpack/aot"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/frontend/pt2"
	"github.com/etgo/etgo/kernels/portable"
	"github.com/etgo/etgo/lower"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/pte"
)

// toPTE lowers an oracle case with and without the XNNPACK partitioner through emission.
func toPTE(t *testing.T, name string, xnn bool) ([]byte, error) {
	t.Helper()
	prog, err := pt2.Open(filepath.Join("..", "testdata", "decomp", "cases", name+".pt2"))
	if err != nil {
		t.Fatal(err)
	}
	var opts lower.Options
	if xnn {
		opts.Partitioners = []partition.Partitioner{&xnnaot.Partitioner{}}
	}
	edge, err := lower.ToEdgeTransformAndLower(prog.Graph, opts)
	if err != nil {
		t.Fatalf("%s: to Edge: %v", name, err)
	}
	c, err := lower.ToExecuTorch(edge.Plan, all.Registry())
	if err != nil {
		return nil, err
	}
	return pte.Write(c, pte.DefaultWriteOptions)
}

// TestCustomOpRefusedAtEmission: an operator outside aten passes the Edge check whole, as
// ExecuTorch's verifier lets it, and emission refuses it by name: there is no out variant to
// run (to_executorch stops at "Missing out variants" too).
func TestCustomOpRefusedAtEmission(t *testing.T) {
	for _, xnn := range []bool{false, true} {
		_, err := toPTE(t, "nn.functional.linear_cross_entropy.chunked.0", xnn)
		if err == nil || !strings.Contains(err.Error(), "torch_nn._linear_cross_entropy_batch_chunked.default") {
			t.Errorf("xnnpack=%v: error %v, want one naming the custom operator", xnn, err)
		}
	}
}

// TestUnbackedSizesEmit: programs whose sizes depend on the data (nonzero's rows) emit with
// each such tensor planned at its upper bound (the symbol's range, as ExecuTorch's memory
// planning does) and run: the rows come out sized by the data. (Checked by hand: etgo's files
// for argwhere and nonzero(as_tuple=True) also run in the official runtime.)
func TestUnbackedSizesEmit(t *testing.T) {
	reg := executor.NewRegistry()
	if err := portable.Register(reg); err != nil {
		t.Fatal(err)
	}
	if err := reg.RegisterBackend(xnnpack.BackendID, xnnpack.Backend{Threads: 1}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		in    []float32
		shape []int
		want  []int64 // the output's elements
		rows  int
	}{
		{"argwhere.0", []float32{0, 1, 0, 2}, []int{4}, []int64{1, 3}, 2},
		{"argwhere.3", nil, []int{5, 0}, nil, 0},
		{"nonzero.0", []float32{3}, nil, []int64{}, 1},
		{"nonzero.1", []float32{0}, nil, []int64{}, 0},
	} {
		for _, xnn := range []bool{false, true} {
			data, err := toPTE(t, c.name, xnn)
			if err != nil {
				t.Errorf("%s xnnpack=%v: %v", c.name, xnn, err)
				continue
			}
			f, err := pte.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			p, err := executor.NewProgram(f, executor.Options{Registry: reg})
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			m, err := p.LoadMethod("forward")
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			x, err := executor.NewTensor(executor.Float32, c.shape...)
			if err != nil {
				t.Fatal(err)
			}
			for i, v := range c.in {
				binary.LittleEndian.PutUint32(x.Bytes()[4*i:], math.Float32bits(v))
			}
			outs, err := m.Run(context.Background(), x)
			if err != nil {
				t.Errorf("%s xnnpack=%v: %v", c.name, xnn, err)
				continue
			}
			y := outs[0]
			if got := y.Sizes(); len(got) == 0 || int(got[0]) != c.rows {
				t.Errorf("%s xnnpack=%v: output sizes %v, want %d rows", c.name, xnn, got, c.rows)
				continue
			}
			var got []int64
			for i := 0; i+8 <= len(y.Bytes()); i += 8 {
				got = append(got, int64(binary.LittleEndian.Uint64(y.Bytes()[i:])))
			}
			if c.want != nil && !slices.Equal(got, c.want) {
				t.Errorf("%s xnnpack=%v: output %v, want %v", c.name, xnn, got, c.want)
			}
		}
	}
}
