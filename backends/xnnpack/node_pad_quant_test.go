package xnnpack

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/npy"
)

// padGraph parses testdata/quant_refused/pad (conv, two zero pads ExecuTorch 1.5.1 writes as
// fp32 -> qint8 and qint8 -> fp32, conv) and its input.
func padGraph(t *testing.T) (*xnngraph.Graph, func(string) ([]byte, error), *executor.Tensor) {
	t.Helper()
	g, named := delegateGraph(t, testutil.Testdata(t, "quant_refused", "pad", "xnnpack.pte"))
	a, err := npy.Load(testutil.Testdata(t, "quant_refused", "pad", "inputs", "input_0.npy"))
	if err != nil {
		t.Fatal(err)
	}
	x, err := npyconv.Tensor(a)
	if err != nil {
		t.Fatal(err)
	}
	return g, named, x
}

// TestQuantPadRefused: the official toolchain's pads across datatypes are refused at init, as
// the official runtime refuses them ("Failed to create StaticConstantPad node"), by name.
func TestQuantPadRefused(t *testing.T) {
	g, named, _ := padGraph(t)
	_, err := newPlan(g, named)
	if want := "node 4 (XNNStaticConstantPad) pads xnn_datatype_fp32 into xnn_datatype_qint8"; !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want one mentioning %q", err, want)
	}
}

// TestQuantPad: the refused program made consistent two ways, both pads qint8 (pad the codes
// with the zero point, quantPad) or both fp32 (dequantize, pad with 0, quantize), gives the same
// outputs bit for bit: a zero pad of codes is the zero point, and quantizing a dequantized code
// gives it back. A quantized pad whose input and output quantization differ is refused, as
// XNNPACK refuses it.
func TestQuantPad(t *testing.T) {
	node := func(g *xnngraph.Graph, k int) *xnngraph.Node {
		for i := range g.Nodes {
			if n := &g.Nodes[i]; n.Op == schema.XNodeUnionXNNStaticConstantPad {
				if k == 0 {
					return n
				}
				k--
			}
		}
		t.Fatal("no pad")
		return nil
	}
	value := func(g *xnngraph.Graph, id uint32) *xnngraph.Value {
		for i := range g.Values {
			if g.Values[i].ID == id {
				return &g.Values[i]
			}
		}
		t.Fatalf("no value %d", id)
		return nil
	}
	run := func(g *xnngraph.Graph, named func(string) ([]byte, error), x *executor.Tensor) []float32 {
		t.Helper()
		p, err := newPlan(g, named)
		if err != nil {
			t.Fatal(err)
		}
		y, _ := executor.NewTensor(executor.Float32, 1, 5, 4, 6)
		if err := p.execute([]*executor.EValue{{Tag: executor.TagTensor, Tensor: x}, {Tag: executor.TagTensor, Tensor: y}}); err != nil {
			t.Fatal(err)
		}
		return append([]float32(nil), executor.Data[float32](y)...)
	}
	// fp32: the first pad's output and the second's input become fp32; the Converts around
	// them dequantize and quantize.
	g, named, x := padGraph(t)
	mid := value(g, node(g, 0).Outputs[0])
	mid.DType, mid.Quantized, mid.Quant = schema.XNNDatatypexnn_datatype_fp32, false, nil
	want := run(g, named, x)
	if slicesMinMax(want) {
		t.Fatal("the fp32 pads' outputs are constant: nothing to compare")
	}
	// qint8: the first pad reads the code the Convert before it dequantized, the second writes
	// the codes the Convert after it quantized; both Converts drop out.
	g, named, _ = padGraph(t)
	first, second := node(g, 0), node(g, 1)
	var conv0, conv1 *xnngraph.Node
	for i := range g.Nodes {
		n := &g.Nodes[i]
		if n.Op == schema.XNodeUnionXNNConvert && n.Outputs[0] == first.Inputs[0] {
			conv0 = n
		}
		if n.Op == schema.XNodeUnionXNNConvert && n.Inputs[0] == second.Outputs[0] {
			conv1 = n
		}
	}
	if conv0 == nil || conv1 == nil {
		t.Fatal("the pads are not between Converts")
	}
	first.Inputs[0], second.Outputs[0] = conv0.Inputs[0], conv1.Outputs[0]
	nodes := g.Nodes[:0:0]
	for i := range g.Nodes {
		if n := &g.Nodes[i]; n != conv1 {
			nodes = append(nodes, *n)
		}
	}
	g.Nodes = nodes // (conv0 stays, read by nothing: it does not run)
	got := run(g, named, x)
	for i := range want {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("output %d: quantized pads %g, fp32 pads %g", i, got[i], want[i])
		}
	}
	// Input and output quantized apart.
	value(g, node(g, 0).Outputs[0]).Quant.ZeroPoint++
	if _, err := newPlan(g, named); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "XNNPACK requires them equal") {
		t.Errorf("zero points apart: error %v", err)
	}
}

// TestQS8Quantize: the pad value's code is xnn_qs8_quantize's: round half to even of v/scale +
// zp, clamped, a NaN at the low end (fmaxf ignores it).
func TestQS8Quantize(t *testing.T) {
	inf := float32(math.Inf(1))
	for _, tc := range []struct {
		v, scale float32
		zp, want int32
	}{
		{0, 0.5, -14, -14}, {0.25, 0.5, 0, 0}, {0.75, 0.5, 0, 2}, {-0.25, 0.5, 3, 2}, {1e9, 0.1, 0, 127},
		{-1e9, 0.1, 0, -128}, {inf, 1, 0, 127}, {-inf, 1, 0, -128}, {float32(math.NaN()), 1, 5, -128},
	} {
		if got := qs8Quantize(tc.v, tc.scale, tc.zp); got != tc.want {
			t.Errorf("qs8Quantize(%g, %g, %d) = %d, want %d", tc.v, tc.scale, tc.zp, got, tc.want)
		}
	}
}

// slicesMinMax reports whether every value of v is the same.
func slicesMinMax(v []float32) bool {
	for _, x := range v {
		if x != v[0] {
			return false
		}
	}
	return true
}
