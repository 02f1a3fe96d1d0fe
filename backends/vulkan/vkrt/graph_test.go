package vkrt_test

import (
	"testing"

	"github.com/etgo/etgo/backends/vulkan/schema"
	"github.com/etgo/etgo/backends/vulkan/vkgraph"
	"github.com/etgo/etgo/backends/vulkan/vkrt"
	"github.com/etgo/etgo/executor"
)

// gb builds small VK00 graphs by hand, for the forms and datatypes the official partitioner's
// fixtures do not reach (testdata/vkrt holds those it does).
type gb struct{ g vkgraph.Graph }

func (b *gb) add(v vkgraph.Value) int32 {
	b.g.Values = append(b.g.Values, v)
	return int32(len(b.g.Values) - 1)
}

func (b *gb) tensor(dt schema.VkDataType, dims ...uint32) int32 {
	return b.add(vkgraph.Value{Kind: schema.GraphTypesVkTensor, Tensor: &vkgraph.Tensor{DType: dt, Dims: dims, ConstantID: -1, MemObjID: -1}})
}

func (b *gb) input(dt schema.VkDataType, dims ...uint32) int32 {
	id := b.tensor(dt, dims...)
	b.g.InputIDs = append(b.g.InputIDs, uint32(id))
	return id
}

func (b *gb) output(dt schema.VkDataType, dims ...uint32) int32 {
	id := b.tensor(dt, dims...)
	b.g.OutputIDs = append(b.g.OutputIDs, uint32(id))
	return id
}

func (b *gb) null() int32       { return b.add(vkgraph.Value{Kind: schema.GraphTypesNull}) }
func (b *gb) int(v int64) int32 { return b.add(vkgraph.Value{Kind: schema.GraphTypesInt, Int: v}) }
func (b *gb) double(v float64) int32 {
	return b.add(vkgraph.Value{Kind: schema.GraphTypesDouble, Double: v})
}
func (b *gb) bool(v bool) int32 { return b.add(vkgraph.Value{Kind: schema.GraphTypesBool, Bool: v}) }
func (b *gb) ints(v ...int64) int32 {
	return b.add(vkgraph.Value{Kind: schema.GraphTypesIntList, IntList: v})
}

func (b *gb) op(name string, args ...int32) {
	b.g.Chain = append(b.g.Chain, vkgraph.OpCall{Name: name, Args: args})
}

func (b *gb) blob(t *testing.T) []byte {
	t.Helper()
	raw, err := b.g.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// runGraph initialises the graph on the device and runs it once on ins; outs are the call's
// output tensors (their dtypes are the ExecuTorch side of the staging copies).
func runGraph(t *testing.T, b *gb, ins, outs []*executor.Tensor) {
	t.Helper()
	var be vkrt.Backend
	h, err := be.Init(nil, b.blob(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer be.Destroy(h)
	var args []*executor.EValue
	for _, x := range append(append([]*executor.Tensor{}, ins...), outs...) {
		args = append(args, &executor.EValue{Tag: executor.TagTensor, Tensor: x})
	}
	if err := be.Execute(nil, h, args); err != nil {
		t.Fatal(err)
	}
}

// tensorOf is a tensor of sizes holding vals, of T's scalar type.
func tensorOf[T executor.Element](t *testing.T, sizes []int, vals ...T) *executor.Tensor {
	t.Helper()
	x, err := executor.NewTensor(executor.ScalarTypeOf[T](), sizes...)
	if err != nil {
		t.Fatal(err)
	}
	copy(executor.Data[T](x), vals)
	return x
}
