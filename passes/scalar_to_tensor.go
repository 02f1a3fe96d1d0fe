package passes

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/etgo/etgo/ir"
)

// ScalarToTensor turns a number passed where a Tensor overload takes a tensor into a 0-d tensor,
// as ExecuTorch's to_edge does (ScalarToTensorPass, SymToTensorPass, RemoveMixedTypeOperators):
//   - a Python number (`x * 0.5` exports as aten.mul.Tensor(x, 0.5)) becomes a lifted tensor
//     constant: torch.tensor(0.5) is float32, an int is int64, a bool is bool;
//   - a symbolic size (`x + x.shape[0]`) becomes aten.scalar_tensor(s, dtype=int32) (float32 for a
//     SymFloat, bool for a SymBool), computed at run time;
//   - then, for the operators whose operands torch promotes to one type (add, sub, mul, div,
//     minimum), an operand of another type is converted by _to_dim_order_copy.
//
// The out-variant kernels then receive the tensors their schema names, and a delegate that
// claims the node receives a constant as a runtime input.
type ScalarToTensor struct{}

func (ScalarToTensor) Name() string { return "ScalarToTensor" }

func (ScalarToTensor) Run(g *ir.Graph) (string, error) {
	lifted, converted := 0, 0
	// Nodes are inserted as we go: walk a snapshot.
	for _, node := range slices.Clone(g.Nodes) {
		for i := range node.Args {
			a := &node.Args[i]
			if !takesTensor(node, a.Name) {
				continue
			}
			ok, err := scalarToTensor(g, node, a)
			if err != nil {
				return "", err
			}
			if ok {
				lifted++
			}
		}
		converted += promoteOperands(g, node)
	}
	if lifted == 0 && converted == 0 {
		return "", nil
	}
	var parts []string
	if lifted > 0 {
		parts = append(parts, fmt.Sprintf("made %d scalar operand(s) tensors", lifted))
	}
	if converted > 0 {
		parts = append(parts, fmt.Sprintf("converted %d operand(s) to their operator's type", converted))
	}
	return strings.Join(parts, ", "), nil
}

// scalarToTensor replaces a number argument a of node by a 0-d tensor and reports whether it did.
func scalarToTensor(g *ir.Graph, node *ir.Node, a *ir.Arg) (bool, error) {
	var dtype ir.DType
	var data []byte
	switch a.Kind {
	case ir.ArgSymInt:
		if len(a.Values) != 1 || a.Values[0] == nil {
			return false, fmt.Errorf("node %s: argument %s holds no symbolic value", node.Name, a.Name)
		}
		dt, ok := symTensorType[a.Values[0].Kind]
		if !ok {
			return false, fmt.Errorf("node %s: argument %s is not a symbolic number", node.Name, a.Name)
		}
		t := insertBefore(g, node, "scalar_tensor", "aten.scalar_tensor.default", &ir.TensorMeta{DType: dt},
			ir.Arg{Name: "s", Kind: ir.ArgSymInt, Values: []*ir.Value{a.Values[0]}},
			ir.Arg{Name: "dtype", Kind: ir.ArgScalarType, Int: int64(dt), KwargOnly: true})
		*a = ir.Arg{Name: a.Name, Kind: ir.ArgTensor, Values: []*ir.Value{t}, KwargOnly: a.KwargOnly}
		return true, nil
	case ir.ArgFloat:
		dtype, data = ir.Float32, binary.LittleEndian.AppendUint32(nil, math.Float32bits(float32(a.Float)))
	case ir.ArgInt:
		dtype, data = ir.Int64, binary.LittleEndian.AppendUint64(nil, uint64(a.Int))
	case ir.ArgBool:
		b := byte(0)
		if a.Bool {
			b = 1
		}
		dtype, data = ir.Bool, []byte{b}
	default:
		return false, nil
	}
	v := liftConstant(g, dtype, data)
	*a = ir.Arg{Name: a.Name, Kind: ir.ArgTensor, Values: []*ir.Value{v}, KwargOnly: a.KwargOnly}
	return true, nil
}

// takesTensor reports whether the schema of n's operator types argument name as a Tensor (not
// an optional one: ScalarToTensorPass coerces only those). Without a known schema, the other
// operand of a .Tensor overload is taken to be one.
func takesTensor(n *ir.Node, name string) bool {
	if s, ok := SchemaOf(n.Target); ok {
		a, ok := s.Arg(name)
		return ok && a.Type == "Tensor"
	}
	return name == "other" && (strings.HasSuffix(n.Target, ".Tensor") || strings.HasSuffix(n.Target, ".Tensor_mode"))
}

// symTensorType is the dtype SymToTensorPass gives a symbolic number's tensor.
var symTensorType = map[ir.ValueKind]ir.DType{ir.SymIntValue: ir.Int32, ir.SymFloatValue: ir.Float32, ir.SymBoolValue: ir.Bool}

// promotes lists the operators RemoveMixedTypeOperators brings to one operand type, and whether
// integers promote to float (true division).
var promotes = map[string]bool{
	"aten.add.Tensor": false, "aten.sub.Tensor": false, "aten.mul.Tensor": false,
	"aten.div.Tensor": true, "aten.div.Tensor_mode": true, "aten.minimum.default": false,
}

// promoteOperands converts n's tensor operands self and other to the type torch computes n in
// (elementwise_dtypes), by _to_dim_order_copy, when they differ from it; it returns how many.
func promoteOperands(g *ir.Graph, n *ir.Node) int {
	intToFloat, ok := promotes[n.Target]
	if !ok {
		return 0
	}
	if n.Target == "aten.div.Tensor_mode" {
		if m := n.Arg("rounding_mode"); m != nil && m.Kind == ir.ArgString {
			intToFloat = false
		}
	}
	self, other := n.Arg("self"), n.Arg("other")
	if self == nil || other == nil || self.Kind != ir.ArgTensor || other.Kind != ir.ArgTensor ||
		len(self.Values) != 1 || len(other.Values) != 1 || self.Values[0] == nil || other.Values[0] == nil ||
		self.Values[0].Meta == nil || other.Values[0].Meta == nil {
		return 0
	}
	want := resultType(self.Values[0].Meta, other.Values[0].Meta)
	if intToFloat && !want.IsFloat() {
		want = ir.Float32
	}
	converted := 0
	for _, a := range []*ir.Arg{self, other} {
		v := a.Values[0]
		if v.Meta.DType == want {
			continue
		}
		converted++
		meta := &ir.TensorMeta{DType: want, Sizes: v.Meta.Sizes}
		a.Values = []*ir.Value{insertBefore(g, n, v.Name+"_to", "dim_order_ops._to_dim_order_copy.default", meta,
			tensorArgOf("self", v),
			ir.Arg{Name: "dtype", Kind: ir.ArgScalarType, Int: int64(want), KwargOnly: true},
			ir.Arg{Name: "dim_order", Kind: ir.ArgInts, Ints: identity(len(v.Meta.Sizes)), KwargOnly: true})}
	}
	return converted
}

// resultType is torch's result_type of two tensors: the higher category (bool < integer <
// floating) wins; within one category a tensor with dims outranks a 0-d one, and two of the same
// rank kind take the wider type.
func resultType(a, b *ir.TensorMeta) ir.DType {
	category := func(d ir.DType) int {
		switch {
		case d == ir.Bool:
			return 0
		case d.IsFloat():
			return 2
		}
		return 1
	}
	ca, cb := category(a.DType), category(b.DType)
	switch {
	case ca > cb:
		return a.DType
	case cb > ca:
		return b.DType
	case len(a.Sizes) > 0 && len(b.Sizes) == 0:
		return a.DType
	case len(b.Sizes) > 0 && len(a.Sizes) == 0:
		return b.DType
	case a.DType == b.DType:
		return a.DType
	case a.DType.Size() > b.DType.Size():
		return a.DType
	case b.DType.Size() > a.DType.Size():
		return b.DType
	case ca == 2:
		return ir.Float32 // float16 with bfloat16
	}
	return a.DType
}
