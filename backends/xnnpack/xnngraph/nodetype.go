package xnngraph

import (
	"fmt"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	fb "github.com/etgo/etgo/internal/fbverify"
)

// Every node type is described once, by the file of its operator family (op_elementwise.go,
// op_gemm.go, op_conv.go, op_pool.go, op_shape.go, op_attention.go), which registers a
// nodeType from its init function: the flatbuffer table the type is stored in (which is also
// the verifier's spec of it), how its parameters decode and encode, its operands' roles, whether
// it honours output_min_max, and its shape rule. The parser, the encoder, the verifier spec and
// the checks of check.go look the type up here; none of them lists node types.

// nodeType is what the graph format knows about one XNNPACK node type.
type nodeType struct {
	op schema.XNodeUnion
	layout
	// roles names the inputs, in order, for error messages (nil: one "input").
	roles []string
	// optional lists the inputs that may be absent (the invalid id): a bias, a mask.
	optional []int
	// outputRange: the official runtime applies the node's output_min_max (it ignores the field
	// on every other node type, and so does etgo).
	outputRange bool
	// infer is the shape rule: the outputs' shapes from the inputs' (in[j] nil for an absent
	// optional operand), or what is inconsistent about them.
	infer func(n *Node, in [][]int) ([][]int, error)
	// declared, when set, checks the node against the values its inputs are declared as (nil for
	// an absent one), before infer: global pooling picks its axes from the declared rank.
	declared func(n *Node, inputs []*Value) error
}

// layout is a flatbuffer table with its codec: several node types share one (_XNNNode1x1 holds
// every unary operation), and a type may wrap a shared codec (average pooling fixes its
// dilation).
type layout struct {
	table *fb.Table
	// decode reads the node's operands, flags and parameters from its verified table.
	decode func(t flatbuffers.Table, n *Node)
	// encode writes them; it fails on parameters the type needs and n lacks.
	encode func(b *flatbuffers.Builder, n *Node) (flatbuffers.UOffsetT, error)
}

// nodeTypes is indexed by tag (XNodeUnion is a byte).
var nodeTypes [256]*nodeType

// unregistered stands in the verifier's union for a tag below the highest registered one that
// no family registers: TestSpecMatchesFBS then names it, and a blob using it is refused.
var unregistered = fb.NewTable("unregistered")

// register adds a node type and its table to the verifier's XNodeUnion (members in tag order).
// It runs from init functions only, so a conflict is a programming error, reported as one.
func register(t nodeType) {
	if t.op == schema.XNodeUnionNONE || nodeTypes[t.op] != nil {
		panic(fmt.Sprintf("xnngraph: node type %d (%s) registered twice or invalid", t.op, t.op))
	}
	if t.table == nil || t.decode == nil || t.encode == nil || t.infer == nil {
		panic(fmt.Sprintf("xnngraph: node type %s registered without its table, codec or shape rule", t.op))
	}
	nodeTypes[t.op] = &t
	u := specNodeUnion
	for len(u.Members) < int(t.op) {
		u.Members = append(u.Members, unregistered)
	}
	u.Members[t.op-1] = t.table
}

// lookup returns the description of a node type, nil for a tag no family registers.
func lookup(op schema.XNodeUnion) *nodeType { return nodeTypes[op] }

// role names input j of n.
func (t *nodeType) role(j int) string {
	roles := t.roles
	if roles == nil {
		roles = []string{"input"}
	}
	if j < len(roles) {
		return roles[j]
	}
	return fmt.Sprintf("operand %d", j)
}

// isOptional reports whether input j may be absent.
func (t *nodeType) isOptional(j int) bool {
	for _, o := range t.optional {
		if o == j {
			return true
		}
	}
	return false
}

// The shared layouts and shape rules.

// u32Table writes a table whose fields are all uint32, in slot order.
func u32Table(b *flatbuffers.Builder, fields ...uint32) flatbuffers.UOffsetT {
	b.StartObject(len(fields))
	for i, f := range fields {
		b.PrependUint32Slot(i, f, 0)
	}
	return b.EndObject()
}

// inID and outID are operand i of a node being encoded, or the invalid id when it has fewer.
func inID(n *Node, i int) uint32  { return idAt(n.Inputs, i) }
func outID(n *Node, i int) uint32 { return idAt(n.Outputs, i) }

func idAt(ids []uint32, i int) uint32 {
	if i < len(ids) {
		return ids[i]
	}
	return InvalidID
}

var (
	specNode1x1 = fb.NewTable("_XNNNode1x1", u32s("input_id", "output_id", "flags"))
	specNode2x1 = fb.NewTable("_XNNNode2x1", u32s("input1_id", "input2_id", "output_id", "flags"))
)

// layout1x1 is one input, one output and flags: the unary operations.
var layout1x1 = layout{
	table: specNode1x1,
	decode: func(tab flatbuffers.Table, n *Node) {
		var t schema.XNNNode1x1
		t.Init(tab.Bytes, tab.Pos)
		n.Inputs, n.Outputs, n.Flags = []uint32{t.InputId()}, []uint32{t.OutputId()}, t.Flags()
	},
	encode: func(b *flatbuffers.Builder, n *Node) (flatbuffers.UOffsetT, error) {
		return u32Table(b, inID(n, 0), outID(n, 0), n.Flags), nil
	},
}

// layout2x1 is two inputs, one output and flags: the binary operations.
var layout2x1 = layout{
	table: specNode2x1,
	decode: func(tab flatbuffers.Table, n *Node) {
		var t schema.XNNNode2x1
		t.Init(tab.Bytes, tab.Pos)
		n.Inputs, n.Outputs, n.Flags = []uint32{t.Input1Id(), t.Input2Id()}, []uint32{t.OutputId()}, t.Flags()
	},
	encode: func(b *flatbuffers.Builder, n *Node) (flatbuffers.UOffsetT, error) {
		return u32Table(b, inID(n, 0), inID(n, 1), outID(n, 0), n.Flags), nil
	},
}

// sameShape is the elementwise unary rule: the output has the input's shape.
func sameShape(_ *Node, in [][]int) ([][]int, error) { return [][]int{in[0]}, nil }

// oneOutput adapts a rule computing a single output's shape.
func oneOutput(f func(n *Node, in [][]int) ([]int, error)) func(n *Node, in [][]int) ([][]int, error) {
	return func(n *Node, in [][]int) ([][]int, error) {
		d, err := f(n, in)
		if err != nil {
			return nil, err
		}
		return [][]int{d}, nil
	}
}

// unknownType describes a tag no family registers, for the checks that run on graphs built in
// memory (ParseBlob refuses such a tag before): no optional operands, the unary shape rule.
var unknownType = &nodeType{infer: sameShape}

// typeOf is lookup with unknownType for an unregistered tag.
func typeOf(op schema.XNodeUnion) *nodeType {
	if t := lookup(op); t != nil {
		return t
	}
	return unknownType
}

// OptionalInput reports whether input j of a node of type op may be absent (the invalid id): a
// convolution's or fully connected layer's bias, an attention's mask.
func OptionalInput(op schema.XNodeUnion, j int) bool { return typeOf(op).isOptional(j) }
