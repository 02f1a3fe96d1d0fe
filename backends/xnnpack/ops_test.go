package xnnpack

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/runtime"
)

// opCase is one entry of testdata/op_cases.json (tools/reference/generate_xnnpack_op_cases.py):
// a node, its operands in XNNPACK layout, and torch's result.
type opCase struct {
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
	Inputs   []operand `json:"inputs"`
	Output   operand   `json:"output"`
}

type operand struct {
	Dims []int     `json:"dims"`
	Data []float64 `json:"data"`
}

func (c *opCase) UnmarshalJSON(b []byte) error {
	type plain opCase
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
	*c = opCase(p)
	if conv.Conv != nil {
		c.Conv.Pad, c.Conv.Kernel, c.Conv.Stride, c.Conv.Dilation = conv.Conv.Pad, conv.Conv.Kernel, conv.Conv.Stride, conv.Conv.Dilation
		c.Conv.Adjustment, c.Conv.Groups, c.Conv.GroupIn, c.Conv.GroupOut = conv.Conv.Adjustment, conv.Conv.Groups, conv.Conv.GroupIn, conv.Conv.GroupOut
	}
	return nil
}

// graphFor makes a one-node graph whose operands are external inputs 0..n-1 and whose output
// is external n.
func graphFor(t *testing.T, c *opCase) *Graph {
	t.Helper()
	op, ok := schema.EnumValuesXNodeUnion[c.Op]
	if !ok {
		t.Fatalf("unknown op %s", c.Op)
	}
	g := &Graph{NumExterns: uint32(len(c.Inputs) + 1), HasHeader: true}
	n := Node{Op: op, Flags: c.Flags, OutputMin: float32(math.Inf(-1)), OutputMax: float32(math.Inf(1))}
	for i, in := range c.Inputs {
		g.Values = append(g.Values, Value{ID: uint32(i), DType: schema.XNNDatatypexnn_datatype_fp32, Dims: u32dims(in.Dims), ExternalID: uint32(i), Flags: flagExternalInput})
		n.Inputs = append(n.Inputs, uint32(i))
	}
	out := uint32(len(c.Inputs))
	g.Values = append(g.Values, Value{ID: out, DType: schema.XNNDatatypexnn_datatype_fp32, Dims: u32dims(c.Output.Dims), ExternalID: out, Flags: flagExternalOutput})
	n.Outputs = []uint32{out}
	switch op {
	case schema.XNodeUnionXNNConv2d, schema.XNodeUnionXNNDepthwiseConv2d, schema.XNodeUnionXNNConvTranspose2d, schema.XNodeUnionXNNFullyConnected:
		if len(n.Inputs) == 2 {
			n.Inputs = append(n.Inputs, invalidID)
		}
	}
	if cp := c.Conv; cp != nil {
		n.Conv = &ConvParams{PadTop: cp.Pad[0], PadRight: cp.Pad[1], PadBottom: cp.Pad[2], PadLeft: cp.Pad[3],
			KernelH: cp.Kernel[0], KernelW: cp.Kernel[1], StrideH: cp.Stride[0], StrideW: cp.Stride[1],
			DilationH: cp.Dilation[0], DilationW: cp.Dilation[1], Groups: cp.Groups, GroupInputChannels: cp.GroupIn, GroupOutputChannels: cp.GroupOut}
		if len(cp.Adjustment) == 2 {
			n.Conv.AdjustmentH, n.Conv.AdjustmentW = cp.Adjustment[0], cp.Adjustment[1]
		}
	}
	if pp := c.Pool; pp != nil {
		n.Pool = &PoolParams{PadTop: pp.Pad[0], PadRight: pp.Pad[1], PadBottom: pp.Pad[2], PadLeft: pp.Pad[3],
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
	g.Nodes = []Node{n}
	if err := g.validate(); err != nil {
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

func f32(v []float64) []float32 {
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x)
	}
	return out
}

// TestOpsAgainstTorch runs each node implementation on torch-computed cases.
func TestOpsAgainstTorch(t *testing.T) {
	raw, err := os.ReadFile("testdata/op_cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []opCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 30 {
		t.Fatalf("only %d cases", len(cases))
	}
	for i := range cases {
		for _, threads := range []int{1, 2, 3} {
			c := &cases[i]
			t.Run(fmt.Sprintf("%s/threads=%d", c.Name, threads), func(t *testing.T) {
				runCase(t, c, threads)
			})
		}
	}
}

func runCase(t *testing.T, c *opCase, threads int) {
	if threads > 1 {
		// Split even these small cases, so the multi-threaded paths are what runs.
		saved := minParallelWork
		minParallelWork = 0
		defer func() { minParallelWork = saved }()
	}
	p, err := newPlan(graphFor(t, c), nil)
	if err != nil {
		t.Fatal(err)
	}
	p.threads = threads
	var args []*runtime.EValue
	for _, in := range c.Inputs {
		x, err := runtime.FromSlice(f32(in.Data), in.Dims...)
		if err != nil {
			t.Fatal(err)
		}
		args = append(args, &runtime.EValue{Tag: runtime.TagTensor, Tensor: x})
	}
	out, err := runtime.NewTensor(runtime.Float32, c.Output.Dims...)
	if err != nil {
		t.Fatal(err)
	}
	args = append(args, &runtime.EValue{Tag: runtime.TagTensor, Tensor: out})
	if err := p.execute(args); err != nil {
		t.Fatal(err)
	}
	got := runtime.Data[float32](out)
	for k, w := range c.Output.Data {
		if d := math.Abs(float64(got[k]) - w); d > 1e-4*math.Max(1, math.Abs(w)) {
			t.Fatalf("element %d = %v, torch %v", k, got[k], w)
		}
	}
}

// TestMaxPoolTap checks poolTapCoord on every small window: a tap always reads a pixel of the
// input; when the window has taps inside the input every tap reads one of them (so padding never
// wins and the result is the maximum over the window's inside, as torch's), and cases the
// official runtime ran pin the rest (testdata/windows, TestWindowCases in runtime).
func TestMaxPoolTap(t *testing.T) {
	for _, tc := range []struct{ pos, dil, pad, size, want int }{
		{0, 3, 1, 2, 0}, // MaxPool2d(2, stride=1, padding=1, dilation=3) over 2x2: taps -1 and 2 both read row 0
		{3, 3, 1, 2, 0},
		{0, 2, 1, 5, 1}, // tap -1 of a dilation-2 window moves to its next tap, 1
		{0, 1, 2, 3, 0}, // no dilation: clamped to the border
		{6, 1, 2, 3, 2},
	} {
		if got := poolTapCoord(tc.pos, tc.pad, tc.size, tc.dil); got != tc.want {
			t.Errorf("poolTapCoord(pos %d, dil %d, pad %d, size %d) = %d, want %d", tc.pos, tc.dil, tc.pad, tc.size, got, tc.want)
		}
	}
	for size := 1; size <= 5; size++ {
		for k := 1; k <= 5; k++ {
			for dil := 1; dil <= 4; dil++ {
				for pad := 0; pad <= k/2; pad++ {
					for stride := 1; stride <= 3; stride++ {
						out := outSize(size, pad, pad, k, stride, dil)
						for o := 0; o < out; o++ {
							inside := map[int]bool{}
							for j := 0; j < k; j++ {
								if y := o*stride + j*dil - pad; y >= 0 && y < size {
									inside[y] = true
								}
							}
							for j := 0; j < k; j++ {
								y := poolTapCoord(o*stride+j*dil, pad, size, dil)
								if y < 0 || y >= size || (len(inside) > 0 && !inside[y]) {
									t.Fatalf("size %d k %d dil %d pad %d stride %d: output %d tap %d reads %d; the window's inside is %v", size, k, dil, pad, stride, o, j, y, inside)
								}
							}
						}
					}
				}
			}
		}
	}
}
