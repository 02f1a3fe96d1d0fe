package emit_test

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/etgo/etgo/ir"
)

// standInDecompose rewrites the three non-core operators of the zoo that passes.ToEdge cannot
// yet decompose when no partitioner keeps them whole (aten.linear, aten.max_pool2d,
// aten.hardswish), as torch's core ATen decompositions do, so that the emitter and the memory
// planner are tested on the whole zoo. It belongs in passes.Decompose: delete it when passes
// handles these operators (lowerPortable then needs only passes.ToEdge).
func standInDecompose(g *ir.Graph) error {
	for _, n := range slices.Clone(g.Nodes) {
		var err error
		switch n.Target {
		case "aten.linear.default":
			err = standInLinear(g, n)
		case "aten.max_pool2d.default":
			// max_pool2d(x, …) is getitem(max_pool2d_with_indices(x, …), 0); the indices are unused.
			n.Target = "aten.max_pool2d_with_indices.default"
			n.Outputs = append(n.Outputs[:1:1], nil)
		case "aten.hardswish.default":
			err = standInHardswish(g, n)
		}
		if err != nil {
			return fmt.Errorf("stand-in decomposition of %s: %w", n.Name, err)
		}
	}
	return nil
}

func tensorArg(name string, v *ir.Value) ir.Arg {
	return ir.Arg{Name: name, Kind: ir.ArgTensor, Values: []*ir.Value{v}}
}

func insert(g *ir.Graph, at *ir.Node, base, target string, meta *ir.TensorMeta, args ...ir.Arg) *ir.Value {
	node := &ir.Node{Target: target, Args: args}
	v := g.NewValue(base, meta, node)
	node.Name = v.Name
	node.Outputs = []*ir.Value{v}
	g.InsertBefore(at, node)
	return v
}

// standInLinear: linear(x, w, b) is addmm(b, x, permute(w)) (mm without a bias), with x
// flattened to 2-D and the result viewed back when x has more dims.
func standInLinear(g *ir.Graph, n *ir.Node) error {
	x, w := n.TensorArg("input"), n.TensorArg("weight")
	b := n.TensorArg("bias")
	if x == nil || w == nil || len(n.Outputs) != 1 || len(w.Meta.Sizes) != 2 {
		return fmt.Errorf("unexpected arguments")
	}
	out := n.Outputs[0]
	wt := insert(g, n, n.Name+"_permute", "aten.permute_copy.default",
		&ir.TensorMeta{DType: w.Meta.DType, Sizes: []ir.Dim{w.Meta.Sizes[1], w.Meta.Sizes[0]}},
		tensorArg("self", w), ir.Arg{Name: "dims", Kind: ir.ArgInts, Ints: []int64{1, 0}})
	mm := func(in *ir.Value, meta *ir.TensorMeta) (string, []ir.Arg) {
		if b == nil {
			return "aten.mm.default", []ir.Arg{tensorArg("self", in), tensorArg("mat2", wt)}
		}
		return "aten.addmm.default", []ir.Arg{tensorArg("self", b), tensorArg("mat1", in), tensorArg("mat2", wt)}
	}
	rank := len(x.Meta.Sizes)
	if rank == 2 {
		n.Target, n.Args = mm(x, out.Meta)
		return nil
	}
	if !x.Meta.IsStatic() {
		return fmt.Errorf("symbolic %d-D input", rank)
	}
	lead := int64(1)
	var leadDims []int64
	for _, d := range x.Meta.Sizes[:rank-1] {
		lead *= d.Size
		leadDims = append(leadDims, d.Size)
	}
	in, outF := x.Meta.Sizes[rank-1].Size, w.Meta.Sizes[0].Size
	flat := insert(g, n, n.Name+"_view", "aten.view_copy.default",
		&ir.TensorMeta{DType: x.Meta.DType, Sizes: []ir.Dim{{Size: lead}, {Size: in}}},
		tensorArg("self", x), ir.Arg{Name: "size", Kind: ir.ArgInts, Ints: []int64{lead, in}})
	target, args := mm(flat, nil)
	y := insert(g, n, n.Name+"_mm", target, &ir.TensorMeta{DType: out.Meta.DType, Sizes: []ir.Dim{{Size: lead}, {Size: outF}}}, args...)
	n.Target = "aten.view_copy.default"
	n.Args = []ir.Arg{tensorArg("self", y), {Name: "size", Kind: ir.ArgInts, Ints: append(leadDims, outF)}}
	return nil
}

// standInHardswish: hardswish(x) is x * clamp(clamp(x + 3, min=0), max=6) / 6.
func standInHardswish(g *ir.Graph, n *ir.Node) error {
	x := n.TensorArg("self")
	if x == nil || len(n.Outputs) != 1 {
		return fmt.Errorf("unexpected arguments")
	}
	like := func() *ir.TensorMeta { m := *x.Meta; m.Sizes = slices.Clone(x.Meta.Sizes); return &m }
	scalar := func(k int64) *ir.Value {
		name := ""
		for i := 0; ; i++ {
			name = fmt.Sprintf("_lifted_tensor_constant%d", i)
			if _, taken := g.Value(name); !taken && g.Constants[name] == nil {
				break
			}
		}
		meta := ir.TensorMeta{DType: ir.Int64}
		v := g.NewValue(name, &meta, nil)
		g.Constants[name] = &ir.Constant{Meta: meta, Data: binary.LittleEndian.AppendUint64(nil, uint64(k))}
		g.Inputs = slices.Insert(g.Inputs, 0, ir.InputSpec{Kind: ir.TensorConstant, Value: v, Target: name})
		return insert(g, n, n.Name+"_scalar", "dim_order_ops._to_dim_order_copy.default", &ir.TensorMeta{DType: x.Meta.DType},
			tensorArg("self", v),
			ir.Arg{Name: "dtype", Kind: ir.ArgScalarType, Int: int64(x.Meta.DType), KwargOnly: true},
			ir.Arg{Name: "dim_order", Kind: ir.ArgInts, Ints: []int64{}, KwargOnly: true})
	}
	step := func(name, target string, args ...ir.Arg) *ir.Value {
		return insert(g, n, n.Name+"_"+name, target, like(), args...)
	}
	sum := step("add", "aten.add.Tensor", tensorArg("self", x), tensorArg("other", scalar(3)))
	low := step("clamp", "aten.clamp.default", tensorArg("self", sum), ir.Arg{Name: "min", Kind: ir.ArgInt, Int: 0})
	high := step("clamp_max", "aten.clamp.default", tensorArg("self", low), ir.Arg{Name: "min", Kind: ir.ArgNone}, ir.Arg{Name: "max", Kind: ir.ArgInt, Int: 6})
	prod := step("mul", "aten.mul.Tensor", tensorArg("self", x), tensorArg("other", high))
	n.Target = "aten.div.Tensor"
	n.Args = []ir.Arg{tensorArg("self", prod), tensorArg("other", scalar(6))}
	return nil
}
