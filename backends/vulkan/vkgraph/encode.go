package vkgraph

import (
	"encoding/binary"
	"fmt"

	"github.com/etgo/etgo/backends/vulkan/schema"
)

// headerSize is the VH00 header padded to Alignment.
const headerSize = 32

// Encode serialises g as ExecuTorch's serialize_vulkan_graph does: the VH00 header padded to
// 16 bytes, the VkGraph flatbuffer padded to 16, then g.ConstantRegion padded to 16.
//
// The official serializer writes the graph as JSON and has flatc compile it; Encode lays the
// flatbuffer out as flatc does from that JSON (see builder), so that a graph equal to an
// official one encodes to the same bytes: a scalar equal to its schema default is left out,
// every string and vector is written (empty ones and the empty named_key too, as the writer's
// JSON has them all); a table's strings, vectors and sub-tables are written first, in field
// order, then the table; a union's member table is written before its VkValue. Constants carry
// their named_key only when HasKey (the official writer always sets it).
func (g *Graph) Encode() ([]byte, error) {
	if err := g.Validate(); err != nil {
		return nil, fmt.Errorf("vulkan: encode: %w", err)
	}
	b := &builder{minAlign: 1}
	version := b.createString(g.Version)
	chain := make([]int, len(g.Chain))
	for i := range g.Chain {
		chain[i] = encodeOpCall(b, &g.Chain[i])
	}
	chainVec := b.offsetVector(chain)
	values := make([]int, len(g.Values))
	for i := range g.Values {
		values[i] = encodeValue(b, &g.Values[i])
	}
	valueVec := b.offsetVector(values)
	inputs := u32Vector(b, g.InputIDs)
	outputs := u32Vector(b, g.OutputIDs)
	constVec := bytesVector(b, g.Constants)
	shaderVec := bytesVector(b, g.Shaders)
	root := b.table(off(0, version), off(1, chainVec), off(2, valueVec), off(3, inputs), off(4, outputs),
		off(5, constVec), off(6, shaderVec),
		u8(7, uint8(g.StorageTypeOverride), uint8(schema.VkStorageTypeDEFAULT_STORAGE)),
		u8(8, uint8(g.MemoryLayoutOverride), uint8(schema.VkMemoryLayoutDEFAULT_LAYOUT)))
	fb := b.finish(root, schema.VkGraphIdentifier)

	fbLen := alignUp(len(fb))
	out := make([]byte, headerSize+fbLen+alignUp(len(g.ConstantRegion)))
	copy(out[4:], headerMagic)
	le := binary.LittleEndian
	le.PutUint16(out[8:], HeaderLength)
	le.PutUint32(out[10:], headerSize)
	le.PutUint32(out[14:], uint32(len(fb)))
	le.PutUint32(out[18:], uint32(headerSize+fbLen))
	le.PutUint64(out[22:], uint64(len(g.ConstantRegion)))
	copy(out[headerSize:], fb)
	copy(out[headerSize+fbLen:], g.ConstantRegion)
	return out, nil
}

func alignUp(n int) int { return (n + Alignment - 1) / Alignment * Alignment }

func off(slot, at int) scalar { return scalar{slot: slot, size: 4, bits: uint64(at), isOff: true} }

func u8(slot int, v, def uint8) scalar {
	return scalar{slot: slot, size: 1, bits: uint64(v), def: uint64(def)}
}

func i32(slot int, v, def int32) scalar {
	return scalar{slot: slot, size: 4, bits: uint64(uint32(v)), def: uint64(uint32(def))}
}

func u64(slot int, v uint64) scalar { return scalar{slot: slot, size: 8, bits: v} }

func u32Vector(b *builder, xs []uint32) int {
	return b.vector(len(xs), 4, func(i int) uint64 { return uint64(xs[i]) })
}

func i32Vector(b *builder, xs []int32) int {
	return b.vector(len(xs), 4, func(i int) uint64 { return uint64(uint32(xs[i])) })
}

func bytesVector(b *builder, cs []Bytes) int {
	offs := make([]int, len(cs))
	for i, c := range cs {
		fs := []scalar{u64(0, c.Offset), u64(1, c.Length)}
		if c.HasKey {
			fs = append(fs, off(2, b.createString(c.NamedKey)))
		}
		offs[i] = b.table(fs...)
	}
	return b.offsetVector(offs)
}

func encodeOpCall(b *builder, c *OpCall) int {
	name := b.createString(c.Name)
	args := i32Vector(b, c.Args)
	return b.table(scalar{slot: 0, size: 4, bits: uint64(c.NodeID)}, off(1, name), off(2, args))
}

// encodeValue writes the member table, then the VkValue (its offset, then its type byte).
func encodeValue(b *builder, v *Value) int {
	var member int
	switch v.Kind {
	case schema.GraphTypesNull:
		member = b.table()
	case schema.GraphTypesInt:
		member = b.table(u64(0, uint64(v.Int)))
	case schema.GraphTypesDouble:
		member = b.table(u64(0, f64bits(v.Double)))
	case schema.GraphTypesBool:
		var x uint8
		if v.Bool {
			x = 1
		}
		member = b.table(u8(0, x, 0))
	case schema.GraphTypesString:
		member = b.table(off(0, b.createString(v.String)))
	case schema.GraphTypesSymInt:
		member = b.table(i32(0, v.SymInt, 0))
	case schema.GraphTypesIntList:
		member = b.table(off(0, b.vector(len(v.IntList), 8, func(i int) uint64 { return uint64(v.IntList[i]) })))
	case schema.GraphTypesDoubleList:
		member = b.table(off(0, b.vector(len(v.DoubleList), 8, func(i int) uint64 { return f64bits(v.DoubleList[i]) })))
	case schema.GraphTypesBoolList:
		member = b.table(off(0, b.vector(len(v.BoolList), 1, func(i int) uint64 {
			if v.BoolList[i] {
				return 1
			}
			return 0
		})))
	case schema.GraphTypesValueList:
		member = b.table(off(0, i32Vector(b, v.ValueList)))
	case schema.GraphTypesVkTensor:
		t := v.Tensor
		dims := u32Vector(b, t.Dims)
		member = b.table(u8(0, uint8(t.DType), 0), off(1, dims), i32(2, t.ConstantID, 0), i32(3, t.MemObjID, 0),
			u8(4, uint8(t.StorageType), uint8(schema.VkStorageTypeDEFAULT_STORAGE)),
			u8(5, uint8(t.MemoryLayout), uint8(schema.VkMemoryLayoutDEFAULT_LAYOUT)),
			u8(6, uint8(t.StagingDataType), uint8(schema.VkDataTypeUNSET)))
	}
	// The writer's JSON has "value" before "value_type".
	return b.table(off(1, member), u8(0, uint8(v.Kind), 0))
}
