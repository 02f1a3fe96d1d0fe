package vkrt

import (
	"errors"
	"testing"

	"github.com/etgo/etgo/backends/vulkan/schema"
	"github.com/etgo/etgo/backends/vulkan/vkgraph"
)

func tensorValue(dt schema.VkDataType, constant int32, dims ...uint32) vkgraph.Value {
	return vkgraph.Value{Kind: schema.GraphTypesVkTensor, Tensor: &vkgraph.Tensor{DType: dt, Dims: dims, ConstantID: constant, MemObjID: -1}}
}

// reluOf is out = relu(c + x) for a constant c of dims cdims and an input x of dims xdims.
func reluOf(cdims, xdims []uint32, region []byte) *vkgraph.Graph {
	return &vkgraph.Graph{
		Values: []vkgraph.Value{
			tensorValue(schema.VkDataTypeFLOAT32, 0, cdims...),
			tensorValue(schema.VkDataTypeFLOAT32, -1, xdims...),
			{Kind: schema.GraphTypesNull},
			tensorValue(schema.VkDataTypeFLOAT32, -1, xdims...),
			tensorValue(schema.VkDataTypeFLOAT32, -1, xdims...),
		},
		Chain: []vkgraph.OpCall{
			{Name: "aten.add.Tensor", Args: []int32{0, 1, 2, 3}},
			{Name: "aten.relu.default", Args: []int32{3, 4}},
		},
		InputIDs:       []uint32{1},
		OutputIDs:      []uint32{4},
		Constants:      []vkgraph.Bytes{{Offset: 0, Length: uint64(len(region))}},
		ConstantRegion: region,
	}
}

// TestPlanRefuses: blobs whose dims overflow or exceed what their data and the buffer hold
// are refused while planning, with an error, not a panic or a plan the device would overrun.
func TestPlanRefuses(t *testing.T) {
	const big = 1 << 31
	for _, tc := range []struct {
		name string
		g    *vkgraph.Graph
		is   error
	}{
		// (dims whose element count overflows are vkgraph's to refuse: Validate does.)
		{"input over 2^31 elements", reluOf([]uint32{1}, []uint32{big, 2}, make([]byte, 4)), ErrUnsupported},
		{"broadcast of mismatched dims", reluOf([]uint32{3}, []uint32{4}, make([]byte, 12)), ErrInvalidBlob},
		{"output larger than declared", withDims(reluOf([]uint32{2, 1}, []uint32{1, 3}, make([]byte, 8)), 4, 3), ErrInvalidBlob},
		{"an operator etgo lacks", renamed(reluOf([]uint32{1}, []uint32{4}, make([]byte, 4)), 1, "aten.frobnicate.default"), ErrUnsupported},
		{"a value read before written", reverse(reluOf([]uint32{1}, []uint32{4}, make([]byte, 4))), ErrInvalidBlob},
		{"a value written twice", twice(reluOf([]uint32{1}, []uint32{4}, make([]byte, 4))), ErrInvalidBlob},
		{"named constant without named data", named(reluOf([]uint32{1}, []uint32{4}, nil), "missing"), ErrInvalidBlob},
		{"named constant shorter than its dims", named(reluOf([]uint32{1 << 20}, []uint32{4}, nil), "short"), ErrInvalidBlob},
	} {
		t.Run(tc.name, func(t *testing.T) {
			blob, err := tc.g.Encode()
			if err != nil {
				t.Fatal(err)
			}
			b, err := planBlob(blob)
			if err == nil {
				checkPlan(t, b)
				t.Fatalf("planned; want an error wrapping %v", tc.is)
			}
			if !errors.Is(err, tc.is) {
				t.Fatalf("error %v, want one wrapping %v", err, tc.is)
			}
			t.Log(err)
		})
	}
}

// withDims declares value id with dims.
func withDims(g *vkgraph.Graph, id int, dims ...uint32) *vkgraph.Graph {
	g.Values[id].Tensor.Dims = dims
	return g
}

func renamed(g *vkgraph.Graph, op int, name string) *vkgraph.Graph {
	g.Chain[op].Name = name
	return g
}

func reverse(g *vkgraph.Graph) *vkgraph.Graph {
	g.Chain[0], g.Chain[1] = g.Chain[1], g.Chain[0]
	return g
}

func twice(g *vkgraph.Graph) *vkgraph.Graph {
	g.Chain = append(g.Chain, g.Chain[1])
	return g
}

// named makes constant 0 the named data key (fuzzNamed answers every key but "missing").
func named(g *vkgraph.Graph, key string) *vkgraph.Graph {
	g.Constants[0] = vkgraph.Bytes{Offset: vkgraph.NamedData, NamedKey: key, HasKey: true}
	return g
}
