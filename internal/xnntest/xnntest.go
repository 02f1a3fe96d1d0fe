// Package xnntest gives the XNNPACK packages' tests the official delegate blobs committed in
// testdata.
package xnntest

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/pte"
)

// Blobs returns every delegate blob of the zoo's and testdata/quant's xnnpack.pte files with
// the file's named data.
func Blobs(t testing.TB) (blobs [][]byte, named []func(string) ([]byte, error)) {
	t.Helper()
	files, _ := filepath.Glob(testutil.Testdata(t, "zoo", "*", "xnnpack.pte"))
	quant, _ := filepath.Glob(testutil.Testdata(t, "quant", "*", "xnnpack.pte")) // quantized graphs too
	files = append(files, quant...)
	dyn, _ := filepath.Glob(testutil.Testdata(t, "dynquant", "*", "xnnpack.pte")) // and dynamically quantized ones
	files = append(files, dyn...)
	for _, p := range files {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := pte.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Program.ExecutionPlans[0].Delegates {
			b, err := f.DelegateData(&d)
			if err != nil {
				t.Fatal(err)
			}
			blobs = append(blobs, b)
			named = append(named, f.NamedData)
		}
	}
	if len(blobs) < 10 {
		t.Fatalf("only %d blobs in the zoo", len(blobs))
	}
	return blobs, named
}

// OpCase is one entry of testdata/op_cases.json (tools/reference/generate_xnnpack_op_cases.py):
// a node, its operands in XNNPACK layout, and torch's result.
type OpCase struct {
	Name  string `json:"name"`
	Op    string `json:"op"`
	Flags uint32 `json:"flags"`
	Conv  *struct {
		Pad, Kernel, Stride, Dilation, Adjustment []uint32
		Groups, GroupIn, GroupOut                 uint32
	} `json:"conv"`
	Pool *struct {
		Pad, Kernel, Stride []uint32
	} `json:"pool"`
	Alpha    float32   `json:"alpha"`
	MinMax   []float32 `json:"min_max"`
	Perm     []uint32  `json:"perm"`
	NewShape []uint32  `json:"new_shape"`
	Offsets  []uint32  `json:"offsets"`
	Sizes    []uint32  `json:"sizes"`
	Pre      []uint32  `json:"pre"`
	PostPad  []uint32  `json:"post"`
	PadValue float32   `json:"pad_value"`
	Axis     uint32    `json:"axis"`
	NewHW    []uint32  `json:"new_hw"`
	Inputs   []Operand `json:"inputs"`
	Output   Operand   `json:"output"`
}

type Operand struct {
	Dims []int     `json:"dims"`
	Data []float64 `json:"data"`
}

func (c *OpCase) UnmarshalJSON(b []byte) error {
	type plain OpCase
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	var conv struct {
		Conv *struct {
			Pad        []uint32 `json:"pad"`
			Kernel     []uint32 `json:"kernel"`
			Stride     []uint32 `json:"stride"`
			Dilation   []uint32 `json:"dilation"`
			Adjustment []uint32 `json:"adjustment"`
			Groups     uint32   `json:"groups"`
			GroupIn    uint32   `json:"group_in"`
			GroupOut   uint32   `json:"group_out"`
		} `json:"conv"`
	}
	if err := json.Unmarshal(b, &conv); err != nil {
		return err
	}
	*c = OpCase(p)
	if conv.Conv != nil {
		c.Conv.Pad, c.Conv.Kernel, c.Conv.Stride, c.Conv.Dilation = conv.Conv.Pad, conv.Conv.Kernel, conv.Conv.Stride, conv.Conv.Dilation
		c.Conv.Adjustment, c.Conv.Groups, c.Conv.GroupIn, c.Conv.GroupOut = conv.Conv.Adjustment, conv.Conv.Groups, conv.Conv.GroupIn, conv.Conv.GroupOut
	}
	return nil
}

// Graph makes a one-node graph whose operands are external inputs 0..n-1 and whose output
// is external n.
func Graph(t testing.TB, c *OpCase) *xnngraph.Graph {
	t.Helper()
	op, ok := schema.EnumValuesXNodeUnion[c.Op]
	if !ok {
		t.Fatalf("unknown op %s", c.Op)
	}
	g := &xnngraph.Graph{NumExterns: uint32(len(c.Inputs) + 1), HasHeader: true}
	n := xnngraph.Node{Op: op, Flags: c.Flags, OutputMin: float32(math.Inf(-1)), OutputMax: float32(math.Inf(1))}
	for i, in := range c.Inputs {
		g.Values = append(g.Values, xnngraph.Value{ID: uint32(i), DType: schema.XNNDatatypexnn_datatype_fp32, Dims: u32dims(in.Dims), ExternalID: uint32(i), Flags: xnngraph.FlagExternalInput})
		n.Inputs = append(n.Inputs, uint32(i))
	}
	out := uint32(len(c.Inputs))
	g.Values = append(g.Values, xnngraph.Value{ID: out, DType: schema.XNNDatatypexnn_datatype_fp32, Dims: u32dims(c.Output.Dims), ExternalID: out, Flags: xnngraph.FlagExternalOutput})
	n.Outputs = []uint32{out}
	for xnngraph.OptionalInput(op, len(n.Inputs)) { // a case without a bias leaves it absent
		n.Inputs = append(n.Inputs, xnngraph.InvalidID)
	}
	if cp := c.Conv; cp != nil {
		n.Conv = &xnngraph.ConvParams{PadTop: cp.Pad[0], PadRight: cp.Pad[1], PadBottom: cp.Pad[2], PadLeft: cp.Pad[3],
			KernelH: cp.Kernel[0], KernelW: cp.Kernel[1], StrideH: cp.Stride[0], StrideW: cp.Stride[1],
			DilationH: cp.Dilation[0], DilationW: cp.Dilation[1], Groups: cp.Groups, GroupInputChannels: cp.GroupIn, GroupOutputChannels: cp.GroupOut}
		if len(cp.Adjustment) == 2 {
			n.Conv.AdjustmentH, n.Conv.AdjustmentW = cp.Adjustment[0], cp.Adjustment[1]
		}
	}
	if pp := c.Pool; pp != nil {
		n.Pool = &xnngraph.PoolParams{PadTop: pp.Pad[0], PadRight: pp.Pad[1], PadBottom: pp.Pad[2], PadLeft: pp.Pad[3],
			PoolH: pp.Kernel[0], PoolW: pp.Kernel[1], StrideH: pp.Stride[0], StrideW: pp.Stride[1], DilationH: 1, DilationW: 1}
	}
	if len(c.MinMax) == 2 {
		n.OutputMin, n.OutputMax = c.MinMax[0], c.MinMax[1]
	}
	n.Alpha, n.Perm, n.NewShape, n.Offsets, n.Sizes = c.Alpha, c.Perm, c.NewShape, c.Offsets, c.Sizes
	n.PrePadding, n.PostPadding, n.PadValue, n.Axis = c.Pre, c.PostPad, c.PadValue, c.Axis
	if len(c.NewHW) == 2 {
		n.NewHeight, n.NewWidth = c.NewHW[0], c.NewHW[1]
	}
	g.Nodes = []xnngraph.Node{n}
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	return g
}

func u32dims(d []int) []uint32 {
	out := make([]uint32, len(d))
	for i, x := range d {
		out[i] = uint32(x)
	}
	return out
}

// OpCases returns the node cases computed by torch (backends/xnnpack/testdata/op_cases.json,
// written by tools/reference/generate_xnnpack_op_cases.py).
func OpCases(t testing.TB) []OpCase {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(testutil.RepoRoot(t), "backends", "xnnpack", "testdata", "op_cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []OpCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

// OpCaseNamed returns the op case (backends/xnnpack/testdata/op_cases.json) with this name.
func OpCaseNamed(t testing.TB, name string) *OpCase {
	t.Helper()
	cases := OpCases(t)
	for i := range cases {
		if cases[i].Name == name {
			return &cases[i]
		}
	}
	t.Fatalf("no op case %q", name)
	return nil
}
