package vkrt

import (
	"errors"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends/vulkan/schema"
	"github.com/etgo/etgo/backends/vulkan/vkgraph"
)

// oneOp is a graph of one operator over values vals (tensors are inputs unless they are the
// last argument, the output).
func oneOp(name string, vals ...vkgraph.Value) *vkgraph.Graph {
	g := &vkgraph.Graph{Values: vals}
	args := make([]int32, len(vals))
	for i, v := range vals {
		args[i] = int32(i)
		if v.Kind != schema.GraphTypesVkTensor {
			continue
		}
		if i == len(vals)-1 {
			g.OutputIDs = append(g.OutputIDs, uint32(i))
		} else {
			g.InputIDs = append(g.InputIDs, uint32(i))
		}
	}
	g.Chain = []vkgraph.OpCall{{Name: name, Args: args}}
	return g
}

// catOf is out = cat([x, y], 0), the inputs as a value list.
func catOf(x, y, out vkgraph.Value) *vkgraph.Graph {
	g := &vkgraph.Graph{Values: []vkgraph.Value{x, y, {Kind: schema.GraphTypesValueList, ValueList: []int32{0, 1}},
		{Kind: schema.GraphTypesInt}, out}}
	g.InputIDs, g.OutputIDs = []uint32{0, 1}, []uint32{4}
	g.Chain = []vkgraph.OpCall{{Name: "aten.cat.default", Args: []int32{2, 3, 4}}}
	return g
}

// TestDTypeRefusals: an operator is refused, naming itself and the datatype, wherever a shader
// would otherwise read an int's or a bool's bits as a float (or write the wrong kind), instead
// of computing garbage.
func TestDTypeRefusals(t *testing.T) {
	f := func(dims ...uint32) vkgraph.Value { return tensorValue(schema.VkDataTypeFLOAT32, -1, dims...) }
	i := func(dims ...uint32) vkgraph.Value { return tensorValue(schema.VkDataTypeINT32, -1, dims...) }
	bo := func(dims ...uint32) vkgraph.Value { return tensorValue(schema.VkDataTypeBOOL, -1, dims...) }
	null := vkgraph.Value{Kind: schema.GraphTypesNull}
	one := vkgraph.Value{Kind: schema.GraphTypesInt, Int: 1}
	for _, tc := range []struct {
		name, want string
		g          *vkgraph.Graph
	}{
		{"relu of int32", "INT32", oneOp("aten.relu.default", i(4), i(4))},
		{"softmax of bool", "BOOL", oneOp("aten._softmax.default", bo(4), one, vkgraph.Value{Kind: schema.GraphTypesBool}, f(4))},
		{"where with a float condition", "FLOAT32 condition", oneOp("aten.where.self", f(4), f(4), f(4), f(4))},
		{"where of an int operand to float", "int32 operand", oneOp("aten.where.self", bo(4), i(4), f(4), f(4))},
		{"comparison to float", "FLOAT32 tensor", oneOp("aten.gt.Tensor", f(4), f(4), f(4))},
		{"int32 add of a float", "float32", oneOp("aten.add.Tensor", i(4), f(4), one, i(4))},
		{"add to bool", "BOOL tensor", oneOp("aten.add.Tensor", bo(4), bo(4), one, bo(4))},
		{"bitwise_and of floats", "FLOAT32 tensor", oneOp("aten.bitwise_and.Tensor", f(4), f(4), bo(4))},
		{"cat of bool and float", "BOOL and FLOAT32", catOf(bo(4), f(4), f(8))},
		{"argmax to bool", "BOOL tensor", oneOp("aten.argmax.default", f(4), null, vkgraph.Value{Kind: schema.GraphTypesBool}, bo())},
		{"an int64 tensor", "INT64", oneOp("aten.abs.default", tensorValue(schema.VkDataTypeINT64, -1, 4), tensorValue(schema.VkDataTypeINT64, -1, 4))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			blob, err := tc.g.Encode()
			if err != nil {
				t.Fatal(err)
			}
			b, err := planBlob(blob)
			if err == nil {
				checkPlan(t, b)
				t.Fatal("planned; want a refusal")
			}
			if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want ErrUnsupported naming %q", err, tc.want)
			}
			t.Log(err)
		})
	}
}
