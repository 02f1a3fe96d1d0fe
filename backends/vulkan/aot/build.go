package aot

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"

	"github.com/etgo/etgo/backends/vulkan/schema"
	"github.com/etgo/etgo/backends/vulkan/vkgraph"
	"github.com/etgo/etgo/internal/opschema"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/pte"
)

// VkGraphBuilder (serialization/vulkan_graph_builder.py): values are numbered as the graph is
// walked in node order: a placeholder's tensor when it is reached (unused ones are skipped;
// constants carry a constant id, user inputs become input ids); for each call, its schema's
// arguments in order (given, keyword or default), each a new value except nodes already
// numbered and scalars already seen (ints and floats equal in Python share one value, as a
// dict keyed by them does), then its output (a tuple: its tensors, then the ValueList); a
// getitem names its item; the output node lists the output ids.

// localSchemas are the et_vk operators' schemas (custom_ops_lib.py).
var localSchemas = map[string]*opschema.Schema{
	tPrepack: {Name: "et_vk::prepack", Returns: 1, Args: []opschema.SchemaArg{{Name: "x", Type: "Tensor"}}},
	tConvClamp: {Name: "et_vk::conv_with_clamp", Returns: 1, Args: []opschema.SchemaArg{
		{Name: "input", Type: "Tensor"}, {Name: "weight", Type: "Tensor"}, {Name: "bias", Type: "Tensor?"},
		{Name: "stride", Type: "SymInt[]"}, {Name: "padding", Type: "SymInt[]"}, {Name: "dilation", Type: "SymInt[]"},
		{Name: "transposed", Type: "bool"}, {Name: "output_padding", Type: "SymInt[]"}, {Name: "groups", Type: "SymInt"},
		{Name: "output_min", Type: "Scalar?"}, {Name: "output_max", Type: "Scalar?"}}},
}

func schemaOf(target string) (*opschema.Schema, bool) {
	if s, ok := localSchemas[target]; ok {
		return s, true
	}
	return opschema.Functional(target)
}

type scalarKey struct {
	isBool bool
	b      bool
	f      float64
}

type vkBuilder struct {
	g       *fxGraph
	out     *vkgraph.Graph
	ids     map[*fxNode]int32
	scalars map[scalarKey]int32
	named   []pte.NamedBlob
	keys    map[string]bool
	nodeID  uint32
}

func (g *fxGraph) build() (*vkgraph.Graph, []pte.NamedBlob, error) {
	b := &vkBuilder{g: g, out: &vkgraph.Graph{Version: "0", StorageTypeOverride: schema.VkStorageTypeDEFAULT_STORAGE,
		MemoryLayoutOverride: schema.VkMemoryLayoutDEFAULT_LAYOUT}, ids: map[*fxNode]int32{}, scalars: map[scalarKey]int32{}, keys: map[string]bool{}}
	b.out.Chain, b.out.Values, b.out.InputIDs, b.out.OutputIDs = []vkgraph.OpCall{}, []vkgraph.Value{}, []uint32{}, []uint32{}
	b.out.Constants, b.out.Shaders = []vkgraph.Bytes{}, []vkgraph.Bytes{}
	for _, n := range g.nodes {
		var err error
		switch n.kind {
		case fxPlaceholder:
			if len(n.users) == 0 {
				continue
			}
			var id int32
			id, err = b.nodeValue(n)
			if err == nil && !n.param {
				b.out.InputIDs = append(b.out.InputIDs, uint32(id))
			}
		case fxGetitem:
			list := b.out.Values[b.ids[n.args[0].node]]
			if list.Kind != schema.GraphTypesValueList || n.item >= len(list.ValueList) {
				return nil, nil, fmt.Errorf("vulkan: getitem %s of a value that is not a list", n.name)
			}
			b.ids[n] = list.ValueList[n.item]
		case fxCall:
			err = b.call(n)
		case fxOutput:
			for _, a := range n.args {
				id, ok := b.ids[a.node]
				if !ok {
					return nil, nil, fmt.Errorf("vulkan: output %s is not serialized", a.node.name)
				}
				b.out.OutputIDs = append(b.out.OutputIDs, uint32(id))
			}
		}
		if err != nil {
			return nil, nil, err
		}
	}
	return b.out, b.named, nil
}

func (b *vkBuilder) add(v vkgraph.Value) int32 {
	b.out.Values = append(b.out.Values, v)
	return int32(len(b.out.Values) - 1)
}

func (b *vkBuilder) call(n *fxNode) error {
	s, ok := schemaOf(n.target)
	if !ok {
		return unsupported("node %s: no schema for %s", n.name, n.target)
	}
	byName := map[string]*fxArg{}
	for _, as := range [][]fxArg{n.args, n.kwargs} {
		for i := range as {
			byName[as[i].name] = &as[i]
		}
	}
	var args []int32
	for _, sa := range s.Args {
		if sa.Out {
			continue
		}
		a, given := byName[sa.Name]
		var id int32
		var err error
		switch {
		case given:
			id, err = b.argValue(n, a)
		case sa.Default != nil:
			id, err = b.defaultValue(sa.Default)
		default:
			err = fmt.Errorf("vulkan: node %s: argument %s has no value", n.name, sa.Name)
		}
		if err != nil {
			return err
		}
		args = append(args, id)
	}
	id, err := b.nodeValue(n)
	if err != nil {
		return err
	}
	args = append(args, id)
	b.out.Chain = append(b.out.Chain, vkgraph.OpCall{NodeID: b.nodeID, Name: n.target, Args: args})
	b.nodeID++
	return nil
}

func (b *vkBuilder) scalar(k scalarKey, v vkgraph.Value) int32 {
	if !(k.f != k.f) { // NaN never equals a dict key
		if id, ok := b.scalars[k]; ok {
			return id
		}
	}
	id := b.add(v)
	b.scalars[k] = id
	return id
}

func (b *vkBuilder) intValue(x int64) int32 {
	return b.scalar(scalarKey{f: float64(x)}, vkgraph.Value{Kind: schema.GraphTypesInt, Int: x})
}

func (b *vkBuilder) floatValue(x float64) int32 {
	return b.scalar(scalarKey{f: x}, vkgraph.Value{Kind: schema.GraphTypesDouble, Double: x})
}

func (b *vkBuilder) boolValue(x bool) int32 {
	return b.scalar(scalarKey{isBool: true, b: x}, vkgraph.Value{Kind: schema.GraphTypesBool, Bool: x})
}

func (b *vkBuilder) null() int32 { return b.add(vkgraph.Value{Kind: schema.GraphTypesNull}) }

// scalarList is create_scalar_list_value, quirks included: an empty list adds an IntList, a
// BoolList and an IntList (the checks are all vacuously true and not exclusive), a list of
// bools a BoolList and an IntList (a bool is an int); the first is the argument's value.
func (b *vkBuilder) intList(xs []int64) int32 {
	id := int32(len(b.out.Values))
	if len(xs) == 0 {
		b.add(vkgraph.Value{Kind: schema.GraphTypesIntList, IntList: []int64{}})
		b.add(vkgraph.Value{Kind: schema.GraphTypesBoolList, BoolList: []bool{}})
	}
	b.add(vkgraph.Value{Kind: schema.GraphTypesIntList, IntList: append([]int64{}, xs...)})
	return id
}

func (b *vkBuilder) boolList(xs []bool) int32 {
	if len(xs) == 0 {
		return b.intList(nil)
	}
	id := b.add(vkgraph.Value{Kind: schema.GraphTypesBoolList, BoolList: append([]bool{}, xs...)})
	ints := make([]int64, len(xs))
	for i, x := range xs {
		if x {
			ints[i] = 1
		}
	}
	b.add(vkgraph.Value{Kind: schema.GraphTypesIntList, IntList: ints})
	return id
}

func (b *vkBuilder) floatList(xs []float64) int32 {
	if len(xs) == 0 {
		return b.intList(nil)
	}
	return b.add(vkgraph.Value{Kind: schema.GraphTypesDoubleList, DoubleList: append([]float64{}, xs...)})
}

func (b *vkBuilder) argValue(n *fxNode, a *fxArg) (int32, error) {
	switch a.kind {
	case faNone:
		return b.null(), nil
	case faNode:
		if id, ok := b.ids[a.node]; ok {
			return id, nil
		}
		return b.nodeValue(a.node)
	case faNodes:
		var items []int32
		for _, m := range a.nodes {
			id, ok := b.ids[m]
			if !ok {
				var err error
				if id, err = b.nodeValue(m); err != nil {
					return 0, err
				}
			}
			items = append(items, id)
		}
		if len(items) == 0 {
			return b.intList(nil), nil
		}
		return b.add(vkgraph.Value{Kind: schema.GraphTypesValueList, ValueList: items}), nil
	case faInt:
		return b.intValue(a.i), nil
	case faFloat:
		return b.floatValue(a.f), nil
	case faBool:
		return b.boolValue(a.b), nil
	case faInts:
		return b.intList(a.is), nil
	case faFloats:
		return b.floatList(a.fs), nil
	case faBools:
		return b.boolList(a.bs), nil
	case faStr:
		return b.add(vkgraph.Value{Kind: schema.GraphTypesString, String: a.s}), nil
	}
	return 0, unsupported("node %s: argument %s", n.name, a.name)
}

func (b *vkBuilder) defaultValue(d *opschema.Default) (int32, error) {
	switch d.Kind {
	case opschema.DefaultNone:
		return b.null(), nil
	case opschema.DefaultInt:
		return b.intValue(d.Int), nil
	case opschema.DefaultFloat:
		return b.floatValue(d.Float), nil
	case opschema.DefaultBool:
		return b.boolValue(d.Bool), nil
	case opschema.DefaultString:
		return b.add(vkgraph.Value{Kind: schema.GraphTypesString, String: d.Str}), nil
	case opschema.DefaultInts:
		return b.intList(d.Ints), nil
	case opschema.DefaultFloats:
		return b.floatList(d.Floats), nil
	case opschema.DefaultBools:
		return b.boolList(d.Bools), nil
	}
	return 0, fmt.Errorf("vulkan: default of kind %d", d.Kind)
}

// nodeValue is create_node_value.
func (b *vkBuilder) nodeValue(n *fxNode) (int32, error) {
	if len(n.specs) == 0 {
		return 0, unsupported("node %s has no tensor", n.name)
	}
	var id int32
	if n.tuple {
		var items []int32
		for _, s := range n.specs {
			t, err := b.tensor(s, -1)
			if err != nil {
				return 0, fmt.Errorf("node %s: %w", n.name, err)
			}
			items = append(items, t)
		}
		id = b.add(vkgraph.Value{Kind: schema.GraphTypesValueList, ValueList: items})
	} else {
		cid := int32(-1)
		if n.param {
			var err error
			if cid, err = b.constant(n); err != nil {
				return 0, err
			}
		}
		var err error
		if id, err = b.tensor(n.specs[0], cid); err != nil {
			return 0, fmt.Errorf("node %s: %w", n.name, err)
		}
	}
	b.ids[n] = id
	return id, nil
}

var vkDTypes = map[ir.DType]schema.VkDataType{
	ir.Bool: schema.VkDataTypeBOOL, ir.Uint8: schema.VkDataTypeUINT8, ir.Int8: schema.VkDataTypeINT8,
	ir.Int32: schema.VkDataTypeINT32, ir.Float16: schema.VkDataTypeFLOAT16, ir.Float32: schema.VkDataTypeFLOAT32,
	ir.Float64: schema.VkDataTypeFLOAT64, ir.Int64: schema.VkDataTypeINT64,
}

// effective is get_effective_dtype with downcast_64_bit (the default).
func effective(d ir.DType) ir.DType {
	switch d {
	case ir.Float64:
		return ir.Float32
	case ir.Int64:
		return ir.Int32
	}
	return d
}

func (b *vkBuilder) tensor(s *tensorSpec, constantID int32) (int32, error) {
	dt, ok := vkDTypes[effective(s.meta.DType)]
	if !ok {
		return 0, unsupported("dtype %s", s.meta.DType)
	}
	t := &vkgraph.Tensor{DType: dt, StagingDataType: dt, ConstantID: constantID, MemObjID: -1,
		StorageType: schema.VkStorageTypeDEFAULT_STORAGE, MemoryLayout: schema.VkMemoryLayoutDEFAULT_LAYOUT}
	if s.planned {
		t.MemObjID = int32(s.memObjID)
	}
	if s.repr != nil {
		t.StorageType, t.MemoryLayout = s.repr.storage, s.repr.layout
	}
	for _, d := range s.meta.Sizes {
		if d.Size < 0 || d.Size > math.MaxUint32 {
			return 0, fmt.Errorf("vulkan: dim %d out of range", d.Size)
		}
		t.Dims = append(t.Dims, uint32(d.Size))
	}
	if t.Dims == nil {
		t.Dims = []uint32{}
	}
	return b.add(vkgraph.Value{Kind: schema.GraphTypesVkTensor, Tensor: t}), nil
}

// constant is maybe_add_constant_tensor: the data in the effective dtype, stored as named data
// under its SHA-256 (16-byte aligned); an empty tensor is an empty inline constant.
func (b *vkBuilder) constant(n *fxNode) (int32, error) {
	if n.data == nil {
		return 0, fmt.Errorf("vulkan: constant %s has no data", n.name)
	}
	data, err := downcast(n.data)
	if err != nil {
		return 0, fmt.Errorf("vulkan: constant %s: %w", n.name, err)
	}
	id := int32(len(b.out.Constants))
	if len(data) == 0 {
		b.out.Constants = append(b.out.Constants, vkgraph.Bytes{HasKey: true})
		return id, nil
	}
	sum := sha256.Sum256(data)
	key := hex.EncodeToString(sum[:])
	if !b.keys[key] {
		b.keys[key] = true
		b.named = append(b.named, pte.NamedBlob{Key: key, Data: data, Alignment: 16})
	}
	b.out.Constants = append(b.out.Constants, vkgraph.Bytes{Offset: vkgraph.NamedData, Length: uint64(len(data)), NamedKey: key, HasKey: true})
	return id, nil
}

func downcast(c *ir.Constant) ([]byte, error) {
	n := int64(1)
	for _, d := range c.Meta.Sizes {
		n *= d.Size
	}
	size := int64(c.Meta.DType.Size())
	if size == 0 || int64(len(c.Data)) != n*size {
		return nil, fmt.Errorf("%d bytes for %d elements of %s", len(c.Data), n, c.Meta.DType)
	}
	le := binary.LittleEndian
	switch c.Meta.DType {
	case ir.Int64:
		out := make([]byte, 4*n)
		for i := range n {
			le.PutUint32(out[4*i:], uint32(int32(int64(le.Uint64(c.Data[8*i:])))))
		}
		return out, nil
	case ir.Float64:
		out := make([]byte, 4*n)
		for i := range n {
			le.PutUint32(out[4*i:], math.Float32bits(float32(math.Float64frombits(le.Uint64(c.Data[8*i:])))))
		}
		return out, nil
	}
	return c.Data, nil
}
