package transforms

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/x448/float16"

	"github.com/etgo/etgo/ir"
)

// Params are a graph's parameters, buffers and constants, with their data: what the rewrites
// read weights from and add rewritten ones to.
type Params struct {
	g    *ir.Graph
	data map[*ir.Value]*ir.Constant // nil data: the graph has none for the value
}

// ParamsOf indexes g's inputs other than user inputs.
func ParamsOf(g *ir.Graph) *Params {
	p := &Params{g: g, data: map[*ir.Value]*ir.Constant{}}
	for _, in := range g.Inputs {
		if in.Kind != ir.UserInput && in.Value != nil {
			p.data[in.Value] = g.Constants[in.Target]
		}
	}
	return p
}

// Is reports whether v is a parameter, buffer or constant.
func (p *Params) Is(v *ir.Value) bool {
	_, ok := p.data[v]
	return v != nil && ok
}

// Data is v's constant, nil when v is not one or the graph has no data for it.
func (p *Params) Data(v *ir.Value) *ir.Constant { return p.data[v] }

// Float32s returns a parameter's elements as float32 (nil for a nil v: an absent optional
// argument).
func (p *Params) Float32s(v *ir.Value) ([]float32, error) {
	if v == nil {
		return nil, nil
	}
	c := p.data[v]
	if c == nil {
		return nil, fmt.Errorf("%s is not a constant with data", v.Name)
	}
	return Float32Data(c, v.Name)
}

// Add makes a new parameter of the graph holding data (a rewritten weight), named after name.
func (p *Params) Add(name string, meta ir.TensorMeta, data []byte) *ir.Value {
	v := p.g.NewValue(name, &ir.TensorMeta{DType: meta.DType, Sizes: meta.Sizes}, nil)
	c := &ir.Constant{Meta: meta, Data: data}
	// The value's name is unique in the graph, and no program's FQN starts with an underscore
	// and this prefix, so the target is new.
	target := "_transforms." + v.Name
	p.g.Constants[target] = c
	p.g.Inputs = append(p.g.Inputs, ir.InputSpec{Kind: ir.Parameter, Value: v, Target: target})
	p.data[v] = c
	return v
}

// DropUnused forgets the parameters nothing reads any more (the weights a fusion replaced) and
// returns how many.
func (p *Params) DropUnused() int {
	users := p.g.Users()
	kept := p.g.Inputs[:0]
	dropped := 0
	for _, in := range p.g.Inputs {
		if in.Kind != ir.UserInput && len(users[in.Value]) == 0 && !p.g.IsGraphOutput(in.Value) {
			delete(p.data, in.Value)
			dropped++
			continue
		}
		kept = append(kept, in)
	}
	p.g.Inputs = kept
	return dropped
}

// withUnitDim makes n, the node at index i of g, read its tensor argument input with a
// trailing unit dim and give its result without one: an unsqueeze (at dim) before n and a
// squeeze after it, named after base, their values' names suffixed, both with n's debug handle.
// It returns the squeeze's index.
func withUnitDim(g *ir.Graph, i int, n *ir.Node, input string, dim int64, base, suffix string) int {
	unit := func(v *ir.Value) *ir.TensorMeta {
		return &ir.TensorMeta{DType: v.Meta.DType, Sizes: append(slices.Clone(v.Meta.Sizes), ir.Dim{Size: 1})}
	}
	in := n.TensorArg(input)
	unsq := &ir.Node{Name: base + "_unsqueeze", Target: "aten.unsqueeze_copy.default", Args: []ir.Arg{
		{Name: "self", Kind: ir.ArgTensor, Values: []*ir.Value{in}}, {Name: "dim", Kind: ir.ArgInt, Int: dim}}}
	unsq.Outputs = []*ir.Value{g.NewValue(in.Name+suffix, unit(in), unsq)}
	n.SetTensorArg(input, unsq.Outputs[0])
	out := n.FirstOutput()
	wide := g.NewValue(out.Name+suffix, unit(out), n)
	n.Outputs[0] = wide
	sq := &ir.Node{Name: base + "_squeeze", Target: "aten.squeeze_copy.dim", Args: []ir.Arg{
		{Name: "self", Kind: ir.ArgTensor, Values: []*ir.Value{wide}}, {Name: "dim", Kind: ir.ArgInt, Int: dim}}, Outputs: []*ir.Value{out}}
	out.Producer = sq
	unsq.DebugHandle, sq.DebugHandle = n.DebugHandle, n.DebugHandle
	g.Nodes = slices.Insert(g.Nodes, i+1, sq)
	g.Nodes = slices.Insert(g.Nodes, i, unsq)
	return i + 2
}

// Float32Data returns a constant's elements as float32 (the dtype rewritten weights are
// stored in), converting float64, and widening float16 and bfloat16 exactly (torch's
// .to(torch.float32)).
func Float32Data(c *ir.Constant, name string) ([]float32, error) {
	n := 1
	for _, d := range c.Meta.Sizes {
		n *= int(d.Size)
	}
	switch c.Meta.DType {
	case ir.Float32:
		if len(c.Data) != 4*n {
			return nil, fmt.Errorf("constant %s: %d bytes for %d float32 elements", name, len(c.Data), n)
		}
		out := make([]float32, n)
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(c.Data[4*i:]))
		}
		return out, nil
	case ir.Float64:
		if len(c.Data) != 8*n {
			return nil, fmt.Errorf("constant %s: %d bytes for %d float64 elements", name, len(c.Data), n)
		}
		out := make([]float32, n)
		for i := range out {
			out[i] = float32(math.Float64frombits(binary.LittleEndian.Uint64(c.Data[8*i:])))
		}
		return out, nil
	case ir.Float16, ir.BFloat16:
		if len(c.Data) != 2*n {
			return nil, fmt.Errorf("constant %s: %d bytes for %d %s elements", name, len(c.Data), n, c.Meta.DType)
		}
		out := make([]float32, n)
		for i := range out {
			b := binary.LittleEndian.Uint16(c.Data[2*i:])
			if c.Meta.DType == ir.Float16 {
				out[i] = float16.Frombits(b).Float32()
			} else {
				out[i] = math.Float32frombits(uint32(b) << 16)
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("constant %s is %s; only float32, float64, float16 and bfloat16 data is read as float32", name, c.Meta.DType)
}

// Float32Bytes encodes f as a constant's data.
func Float32Bytes(f []float32) []byte {
	b := make([]byte, 4*len(f))
	for i, x := range f {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// roundTo returns the rounding of a float32 to dt as torch stores it: none for float32, to
// nearest even for float16 and bfloat16 (values kept as float32). Other dtypes are refused.
func roundTo(dt ir.DType) (func(float32) float32, error) {
	switch dt {
	case ir.Float32:
		return func(x float32) float32 { return x }, nil
	case ir.Float16:
		return func(x float32) float32 { return float16.Frombits(halfBits(x)).Float32() }, nil
	case ir.BFloat16:
		return func(x float32) float32 { return math.Float32frombits(uint32(bf16Bits(x)) << 16) }, nil
	}
	return nil, fmt.Errorf("%s weights are not rewritten (float32, float16, bfloat16 are)", dt)
}

// odd32 rounds x to float32 to odd (truncated, the last bit set when inexact): rounding that
// again to float16 or bfloat16 is the correct rounding of x, with no double-rounding error.
func odd32(x float64) float32 {
	f := float32(x)
	if float64(f) == x || math.IsInf(float64(f), 0) || x != x {
		return f
	}
	if math.Abs(float64(f)) > math.Abs(x) {
		f = math.Nextafter32(f, 0)
	}
	return math.Float32frombits(math.Float32bits(f) | 1)
}

// halfBits rounds to IEEE half to nearest even; a NaN becomes the quiet NaN with its sign, as
// c10::Half does.
func halfBits(f float32) uint16 {
	if f != f {
		return uint16(math.Float32bits(f)>>16)&0x8000 | 0x7e00
	}
	return float16.Fromfloat32(f).Bits()
}

// bf16Bits rounds to bfloat16 to nearest even; a NaN becomes 0x7fc0 whatever its sign, as
// c10::BFloat16 does.
func bf16Bits(f float32) uint16 {
	if f != f {
		return 0x7fc0
	}
	u := math.Float32bits(f)
	return uint16((u + 0x7fff + (u>>16)&1) >> 16)
}

// DTypeBytes encodes f as a constant's data of dtype dt (float32, float16 or bfloat16; f
// already rounded to it for the half types).
func DTypeBytes(dt ir.DType, f []float32) []byte {
	switch dt {
	case ir.Float16, ir.BFloat16:
		b := make([]byte, 2*len(f))
		for i, x := range f {
			h := halfBits(x)
			if dt == ir.BFloat16 {
				h = bf16Bits(x)
			}
			binary.LittleEndian.PutUint16(b[2*i:], h)
		}
		return b
	}
	return Float32Bytes(f)
}

// summary joins the parts of a pass's summary that say something.
func summary(parts ...string) string {
	var said []string
	for _, p := range parts {
		if p != "" {
			said = append(said, p)
		}
	}
	return strings.Join(said, "; ")
}

// recovered turns a panic of a rewrite into its error: the rewrites index shapes and data a
// corrupt archive can make disagree, and a pass must not take its caller down.
func recovered(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("internal error: %v", r)
	}
}
