package vkrt_test

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/etgo/etgo/backends/vulkan/schema"
	"github.com/etgo/etgo/backends/vulkan/vkgraph"
	"github.com/etgo/etgo/backends/vulkan/vkrt"
	"github.com/etgo/etgo/executor"
)

// castGraph is out = x + float32(c) for an int32 constant c, the form the official partitioner
// gives `x * 2` (its scalar becomes an int32 constant and a _to_dim_order_copy to float).
func castGraph(c []int32) *vkgraph.Graph {
	n := uint32(len(c))
	region := make([]byte, 4*len(c))
	for i, v := range c {
		binary.LittleEndian.PutUint32(region[4*i:], uint32(v))
	}
	tensor := func(dt schema.VkDataType, constant int32) vkgraph.Value {
		return vkgraph.Value{Kind: schema.GraphTypesVkTensor, Tensor: &vkgraph.Tensor{DType: dt, Dims: []uint32{n}, ConstantID: constant, MemObjID: -1}}
	}
	null := vkgraph.Value{Kind: schema.GraphTypesNull}
	return &vkgraph.Graph{
		Values: []vkgraph.Value{
			tensor(schema.VkDataTypeINT32, 0),    // 0: c
			null,                                 // 1
			tensor(schema.VkDataTypeFLOAT32, -1), // 2: float(c)
			tensor(schema.VkDataTypeFLOAT32, -1), // 3: x
			tensor(schema.VkDataTypeFLOAT32, -1), // 4: out
		},
		Chain: []vkgraph.OpCall{
			{Name: "dim_order_ops._to_dim_order_copy.default", Args: []int32{0, 1, 1, 1, 1, 1, 1, 2}},
			{Name: "aten.add.Tensor", Args: []int32{3, 2, 1, 4}},
		},
		InputIDs:       []uint32{3},
		OutputIDs:      []uint32{4},
		Constants:      []vkgraph.Bytes{{Offset: 0, Length: uint64(len(region))}},
		ConstantRegion: region,
	}
}

// TestCastInt32 checks that ints whose bits are a float NaN or infinity (-1, 0x7f800000) arrive
// intact. Every value is exact in float32: Vulkan leaves the rounding of an inexact int to
// float conversion to the device.
func TestCastInt32(t *testing.T) {
	requireDevice(t)
	c := []int32{0, 1, -1, 2, -7, 1 << 24, math.MinInt32, -8388608, 0x7f800000, -0x7f800000, 123456784}
	blob, err := castGraph(c).Encode()
	if err != nil {
		t.Fatal(err)
	}
	var be vkrt.Backend
	h, err := be.Init(nil, blob, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer be.Destroy(h)
	x, _ := executor.NewTensor(executor.Float32, len(c))
	xs := executor.Data[float32](x)
	for i := range xs {
		xs[i] = float32(i) * 0.5
	}
	out, _ := executor.NewTensor(executor.Float32, len(c))
	args := []*executor.EValue{{Tag: executor.TagTensor, Tensor: x}, {Tag: executor.TagTensor, Tensor: out}}
	if err := be.Execute(nil, h, args); err != nil {
		t.Fatal(err)
	}
	for i, v := range executor.Data[float32](out) {
		if want := xs[i] + float32(c[i]); math.Float32bits(v) != math.Float32bits(want) {
			t.Errorf("element %d: %d -> %g, want %g", i, c[i], v, want)
		}
	}
}
