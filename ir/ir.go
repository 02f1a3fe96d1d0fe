// Package ir is etgo's ahead-of-time graph: the program torch.export produced, as nodes calling
// operators on named values, with tensor metadata (dtype, sizes with symbolic dims and their
// ranges) and the graph signature (parameters, buffers, constants, user inputs and outputs).
//
// Invariants: Nodes are in topological order (every argument value is a graph input or the
// output of an earlier node); every Value has exactly one producer (a node or the graph's
// inputs); names are unique. Constant data is not copied from its source (a mapped .pt2).
package ir

import (
	"fmt"
	"strings"
)

// DType is a tensor element type, numbered as ExecuTorch/c10 number them (float32 = 6).
type DType int8

const (
	Uint8   DType = 0
	Int8    DType = 1
	Int16   DType = 2
	Int32   DType = 3
	Int64   DType = 4
	Float16 DType = 5
	Float32 DType = 6
	Float64 DType = 7
	// The complex types hold a (real, imaginary) pair of the float type of half their size.
	ComplexHalf   DType = 8
	ComplexFloat  DType = 9
	ComplexDouble DType = 10
	Bool          DType = 11
	BFloat16      DType = 15
	Uint16        DType = 27
	Uint32        DType = 28
	Uint64        DType = 29
)

var dtypeInfo = map[DType]struct {
	name string
	size int
}{
	Uint8: {"uint8", 1}, Int8: {"int8", 1}, Int16: {"int16", 2}, Int32: {"int32", 4}, Int64: {"int64", 8},
	Float16: {"float16", 2}, Float32: {"float32", 4}, Float64: {"float64", 8}, Bool: {"bool", 1},
	bComplex32: {"bcomplex32", 0}, ComplexHalf: {"complex32", 4}, ComplexFloat: {"complex64", 8}, ComplexDouble: {"complex128", 16},
	BFloat16: {"bfloat16", 2}, Uint16: {"uint16", 2}, Uint32: {"uint32", 4}, Uint64: {"uint64", 8},
}

func (d DType) String() string {
	if i, ok := dtypeInfo[d]; ok {
		return i.name
	}
	return fmt.Sprintf("dtype(%d)", int8(d))
}

// Size is the bytes of one element (0 when unknown).
func (d DType) Size() int { return dtypeInfo[d].size }

// IsFloat reports a floating-point type.
func (d DType) IsFloat() bool {
	return d == Float16 || d == Float32 || d == Float64 || d == BFloat16
}

// IsComplex reports a complex type.
func (d DType) IsComplex() bool { return d == ComplexHalf || d == ComplexFloat || d == ComplexDouble }

// ToComplex is c10's toComplexType: the complex type whose parts are d (float16 → complex32,
// float32 → complex64, float64 → complex128; a complex type is itself). Other types have no
// complex counterpart etgo represents (torch 2.15's bcomplex32 for bfloat16 has no .pt2 or
// .pte code) and give false.
func (d DType) ToComplex() (DType, bool) {
	switch d {
	case Float16, ComplexHalf:
		return ComplexHalf, true
	case Float32, ComplexFloat:
		return ComplexFloat, true
	case Float64, ComplexDouble:
		return ComplexDouble, true
	}
	return d, false
}

// ToReal is c10's toRealValueType: the float type of a complex type's parts; other types are
// themselves.
func (d DType) ToReal() DType {
	switch d {
	case ComplexHalf:
		return Float16
	case ComplexFloat:
		return Float32
	case ComplexDouble:
		return Float64
	}
	return d
}

// Dim is one tensor dimension: a known size, or a symbol with the size it had when traced.
type Dim struct {
	Size   int64  // the static size, or the trace-time hint of a symbolic dim
	Symbol string // "" for static dims; the sympy expression for symbolic ones (e.g. "s77")
}

// IsStatic reports a known size.
func (d Dim) IsStatic() bool { return d.Symbol == "" }

func (d Dim) String() string {
	if d.IsStatic() {
		return fmt.Sprint(d.Size)
	}
	return d.Symbol
}

// Layout is a tensor's storage layout, numbered as c10 numbers it (strided = 0, the zero value).
// Only strided tensors exist in an Edge graph; the others are read so that the Edge conversion
// can refuse them by name.
type Layout int8

const (
	Strided   Layout = 0
	SparseCOO Layout = 1
	SparseCSR Layout = 2
	Mkldnn    Layout = 3
	SparseCSC Layout = 4
	SparseBSR Layout = 5
	SparseBSC Layout = 6
)

var layoutNames = map[Layout]string{
	Strided: "strided", SparseCOO: "sparse_coo", SparseCSR: "sparse_csr", Mkldnn: "_mkldnn",
	SparseCSC: "sparse_csc", SparseBSR: "sparse_bsr", SparseBSC: "sparse_bsc",
}

func (l Layout) String() string {
	if s, ok := layoutNames[l]; ok {
		return s
	}
	return fmt.Sprintf("layout(%d)", int8(l))
}

// TensorMeta describes a tensor value.
type TensorMeta struct {
	DType DType
	// Layout is strided (the zero value) but for the sparse tensors a .pt2 may declare.
	Layout Layout
	Sizes  []Dim
	// DimOrder is the order of the dims in memory, outermost first, as torch's
	// Tensor.dim_order() gives it; nil means contiguous (0, 1, …, rank-1).
	DimOrder []int64
}

// Order is the dim order, contiguous when none is recorded.
func (m *TensorMeta) Order() []int64 {
	if m.DimOrder != nil {
		return m.DimOrder
	}
	out := make([]int64, len(m.Sizes))
	for i := range out {
		out[i] = int64(i)
	}
	return out
}

// IsStatic reports whether every dim is known.
func (m *TensorMeta) IsStatic() bool {
	for _, d := range m.Sizes {
		if !d.IsStatic() {
			return false
		}
	}
	return true
}

func (m *TensorMeta) String() string {
	s := make([]string, len(m.Sizes))
	for i, d := range m.Sizes {
		s[i] = d.String()
	}
	return fmt.Sprintf("%s[%s]", m.DType, strings.Join(s, ","))
}

// ValueKind says what a Value holds.
type ValueKind uint8

const (
	TensorValue ValueKind = iota
	SymIntValue
	SymBoolValue
	SymFloatValue
)

// Value is a named result: a graph input or a node output.
type Value struct {
	Name     string
	Kind     ValueKind
	Meta     *TensorMeta // tensors only
	Producer *Node       // nil for graph inputs
	// Sym is, for a symbolic int, the size it holds: its expression over the program's
	// symbols and its trace-time value ({} when unknown).
	Sym Dim
	// InputStrides are, for a graph input whose example was a non-dense view (a strided
	// slice), the element strides torch.export recorded; nil when the input is dense in its
	// dim order. Decompositions read them where ATen's composites branch on the layout
	// (contiguous, reshape).
	InputStrides []int64
}

// ArgKind says what an argument holds.
type ArgKind uint8

const (
	ArgNone ArgKind = iota
	ArgTensor
	ArgTensors         // list of tensors
	ArgOptionalTensors // list of tensors or None (nil entries)
	ArgInt
	ArgInts
	ArgFloat
	ArgFloats
	ArgBool
	ArgBools
	ArgString
	ArgStrings
	ArgScalarType
	ArgMemoryFormat
	ArgLayout
	ArgDevice
	ArgSymInt  // a symbolic int value (Values[0])
	ArgSymInts // a list mixing ints and symbolic ints (Ints, with Values non-nil where symbolic)
)

// Arg is one argument of a node, named as in the operator schema.
type Arg struct {
	Name   string
	Kind   ArgKind
	Values []*Value // tensors, or symbolic ints (nil entries where a list item is None or static)
	Int    int64    // int, scalar type, memory format, layout
	Ints   []int64
	Float  float64
	Floats []float64
	Bool   bool
	Bools  []bool
	Str    string
	Strs   []string
	// KwargOnly is true for keyword-only arguments of the schema.
	KwargOnly bool
}

// Node calls an operator.
type Node struct {
	Name string
	// Target is the operator as "namespace.op.overload", e.g. "aten.convolution.default".
	Target  string
	Args    []Arg
	Outputs []*Value // nil entries for unused outputs of multi-output ops
	// ListOutput is true when the operator returns a list (outputs are its items).
	ListOutput bool
	// StackTrace and ModuleStack come from the exporter's metadata (for reports).
	StackTrace  string
	ModuleStack string
	// DebugHandle ties a node of a backend's graph to the node it came from (ExecuTorch's
	// node.meta["debug_handle"]): a backend's preprocess numbers the region's nodes before its
	// rewrites, and a rewrite gives the nodes it puts in place of one node that node's handle,
	// so the backend's profile still names the operator the model called. 0 means none.
	DebugHandle uint32
}

// InputKind classifies a graph input.
type InputKind uint8

const (
	UserInput InputKind = iota
	Parameter
	Buffer
	TensorConstant
	ConstantInput // a non-tensor constant baked into the signature
)

// InputSpec is one graph input.
type InputSpec struct {
	Kind  InputKind
	Value *Value
	// Target is the fully qualified name of a parameter, buffer or constant ("fc1.weight").
	Target     string
	Persistent bool
}

// OutputKind classifies a graph output.
type OutputKind uint8

const (
	UserOutput OutputKind = iota
	BufferMutation
	UserInputMutation
)

// OutputSpec is one graph output.
type OutputSpec struct {
	Kind   OutputKind
	Value  *Value // nil when the output is a constant (None or a literal)
	Target string // the mutated buffer or input
}

// Range bounds a symbol. Max < 0 means unbounded.
type Range struct{ Min, Max int64 }

// Constant is the data of a parameter, buffer or tensor constant.
type Constant struct {
	Meta TensorMeta
	// Data holds the elements, contiguous, little-endian; it aliases the source archive.
	Data []byte
}

// Graph is one exported program.
type Graph struct {
	Nodes   []*Node
	Inputs  []InputSpec
	Outputs []OutputSpec
	// Constants maps each parameter, buffer and constant FQN to its data.
	Constants map[string]*Constant
	Ranges    map[string]Range
	values    map[string]*Value
}

// NewGraph returns an empty graph.
func NewGraph() *Graph {
	return &Graph{Constants: map[string]*Constant{}, Ranges: map[string]Range{}, values: map[string]*Value{}}
}

// Value looks a value up by name.
func (g *Graph) Value(name string) (*Value, bool) {
	v, ok := g.values[name]
	return v, ok
}

// AddValue registers a value; names must be unique.
func (g *Graph) AddValue(v *Value) error {
	if _, dup := g.values[v.Name]; dup {
		return fmt.Errorf("ir: value %q defined twice", v.Name)
	}
	g.values[v.Name] = v
	return nil
}

// Users returns, for each value, the nodes that take it as an argument, in graph order.
func (g *Graph) Users() map[*Value][]*Node {
	users := map[*Value][]*Node{}
	for _, n := range g.Nodes {
		for _, a := range n.Args {
			for _, v := range a.Values {
				if v != nil {
					users[v] = append(users[v], n)
				}
			}
		}
	}
	return users
}

// ReplaceAllUses makes every argument and graph output that refers to old refer to repl.
func (g *Graph) ReplaceAllUses(old, repl *Value) int {
	n := 0
	for _, node := range g.Nodes {
		for ai := range node.Args {
			for vi, v := range node.Args[ai].Values {
				if v == old {
					node.Args[ai].Values[vi] = repl
					n++
				}
			}
		}
	}
	for i := range g.Outputs {
		if g.Outputs[i].Value == old {
			g.Outputs[i].Value = repl
			n++
		}
	}
	return n
}

// RemoveNodes deletes the given nodes and their output values from the graph. Callers ensure no
// remaining node or output uses them.
func (g *Graph) RemoveNodes(dead map[*Node]bool) {
	kept := g.Nodes[:0]
	for _, n := range g.Nodes {
		if dead[n] {
			for _, v := range n.Outputs {
				if v != nil {
					delete(g.values, v.Name)
				}
			}
			continue
		}
		kept = append(kept, n)
	}
	clear(g.Nodes[len(kept):])
	g.Nodes = kept
}

// IsGraphOutput reports whether v is one of the graph's outputs.
func (g *Graph) IsGraphOutput(v *Value) bool {
	for _, o := range g.Outputs {
		if o.Value == v {
			return true
		}
	}
	return false
}

// Rename gives v a new name, which must be free; a node named after v follows it.
func (g *Graph) Rename(v *Value, name string) error {
	if v.Name == name {
		return nil
	}
	if _, taken := g.values[name]; taken {
		return fmt.Errorf("ir: value %q already exists", name)
	}
	delete(g.values, v.Name)
	if v.Producer != nil && v.Producer.Name == v.Name {
		v.Producer.Name = name
	}
	v.Name = name
	g.values[name] = v
	return nil
}

// NewValue registers a tensor value named base, or base_1, base_2, … when base is taken.
func (g *Graph) NewValue(base string, meta *TensorMeta, producer *Node) *Value {
	name := base
	for i := 1; ; i++ {
		if _, taken := g.values[name]; !taken {
			break
		}
		name = fmt.Sprintf("%s_%d", base, i)
	}
	v := &Value{Name: name, Kind: TensorValue, Meta: meta, Producer: producer}
	g.values[name] = v
	return v
}

// InsertBefore puts n into the node list just before at (at the end when at is not found).
func (g *Graph) InsertBefore(at, n *Node) {
	for i, x := range g.Nodes {
		if x == at {
			g.Nodes = append(g.Nodes[:i+1], g.Nodes[i:]...)
			g.Nodes[i] = n
			return
		}
	}
	g.Nodes = append(g.Nodes, n)
}

// Arg returns the argument with the given schema name, or nil.
func (n *Node) Arg(name string) *Arg {
	for i := range n.Args {
		if n.Args[i].Name == name {
			return &n.Args[i]
		}
	}
	return nil
}

// TensorArg returns the tensor passed as the named argument, or nil.
func (n *Node) TensorArg(name string) *Value {
	a := n.Arg(name)
	if a == nil || a.Kind != ArgTensor || len(a.Values) != 1 {
		return nil
	}
	return a.Values[0]
}

// IntArg returns an int argument, or def when it is absent, None or not an int.
func (n *Node) IntArg(name string, def int64) int64 {
	if a := n.Arg(name); a != nil && a.Kind == ArgInt {
		return a.Int
	}
	return def
}

// BoolArg returns a bool argument, or def when it is absent or not a bool.
func (n *Node) BoolArg(name string, def bool) bool {
	if a := n.Arg(name); a != nil && a.Kind == ArgBool {
		return a.Bool
	}
	return def
}

// ScalarArg returns a number argument (a schema Scalar, given as an int or a float), or def
// when it is absent, None or not a number.
func (n *Node) ScalarArg(name string, def float64) float64 {
	if a := n.Arg(name); a != nil {
		switch a.Kind {
		case ArgInt:
			return float64(a.Int)
		case ArgFloat:
			return a.Float
		}
	}
	return def
}

// HasScalarArg reports whether a number argument is given (not absent or None).
func (n *Node) HasScalarArg(name string) bool {
	a := n.Arg(name)
	return a != nil && (a.Kind == ArgInt || a.Kind == ArgFloat)
}

// IntsArg returns an int-list argument, or def when it is absent or holds a symbolic entry.
func (n *Node) IntsArg(name string, def []int64) []int64 {
	a := n.Arg(name)
	if a == nil || (a.Kind != ArgInts && a.Kind != ArgSymInts) {
		return def
	}
	for _, v := range a.Values {
		if v != nil {
			return def
		}
	}
	return a.Ints
}

// TensorInputs lists the node's distinct tensor arguments in order (FX's all_input_nodes).
func (n *Node) TensorInputs() []*Value {
	var out []*Value
	seen := map[*Value]bool{}
	for _, a := range n.Args {
		for _, v := range a.Values {
			if v != nil && v.Kind == TensorValue && !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	return out
}

// FirstTensorArg is the node's first single-tensor argument (its "self" or "input"), or nil.
func (n *Node) FirstTensorArg() *Value {
	for _, a := range n.Args {
		if a.Kind == ArgTensor && len(a.Values) == 1 && a.Values[0] != nil {
			return a.Values[0]
		}
	}
	return nil
}

// FirstOutput is the node's first result, or nil.
func (n *Node) FirstOutput() *Value {
	if len(n.Outputs) == 0 {
		return nil
	}
	return n.Outputs[0]
}

// SetTensorArg sets the named argument to the tensor v, adding it when absent.
func (n *Node) SetTensorArg(name string, v *Value) {
	if a := n.Arg(name); a != nil {
		a.Kind, a.Values = ArgTensor, []*Value{v}
		return
	}
	n.Args = append(n.Args, Arg{Name: name, Kind: ArgTensor, Values: []*Value{v}})
}

// SetIntsArg sets the named argument to the int list v, adding it when absent.
func (n *Node) SetIntsArg(name string, v []int64) {
	if a := n.Arg(name); a != nil {
		a.Kind, a.Ints, a.Values = ArgInts, v, nil
		return
	}
	n.Args = append(n.Args, Arg{Name: name, Kind: ArgInts, Ints: v})
}

// Rank is a tensor value's number of dims, -1 when v is nil or has no tensor metadata.
func (v *Value) Rank() int {
	if v == nil || v.Meta == nil {
		return -1
	}
	return len(v.Meta.Sizes)
}
