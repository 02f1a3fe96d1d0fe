package xnngraph

import (
	"encoding/binary"
	"fmt"
	"math"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/etgo/etgo/backends/xnnpack/schema"
)

// headerSize is the XH00 header (30 bytes) padded to the constant alignment.
const (
	headerSize        = 32
	ConstantAlignment = 16
	// writerIdentifier is the flatbuffer identifier the AoT schema (schema.fbs) declares; the
	// runtime accepts it and XN00.
	writerIdentifier = "XN01"
)

// Encode serialises g as the official preprocess does: the XH00 header, the XNNGraph
// flatbuffer (identifier XN01) padded to 16 bytes, then g.ConstantRegion. Values and nodes are
// written in order; value ids must already be their positions. The result is deterministic.
// Encode is the inverse of ParseBlob for every field ParseBlob decodes; a quantized value
// needs its parameters (serialize_quant.go).
func (g *Graph) Encode() ([]byte, error) {
	for i := range g.Values {
		if v := &g.Values[i]; v.Quantized != (v.Quant != nil) {
			return nil, fmt.Errorf("xnnpack: encode: value %d is marked quantized %v but has parameters %v", v.ID, v.Quantized, v.Quant != nil)
		}
	}
	b := flatbuffers.NewBuilder(1024)
	nodes := make([]flatbuffers.UOffsetT, len(g.Nodes))
	for i := range g.Nodes {
		off, err := encodeNode(b, &g.Nodes[i])
		if err != nil {
			return nil, fmt.Errorf("xnnpack: encode: node %d: %w", i, err)
		}
		nodes[i] = off
	}
	values := make([]flatbuffers.UOffsetT, len(g.Values))
	for i := range g.Values {
		values[i] = encodeValue(b, &g.Values[i])
	}
	consts := make([]flatbuffers.UOffsetT, len(g.Constants))
	for i, c := range g.Constants {
		var key flatbuffers.UOffsetT
		if c.HasKey {
			key = b.CreateString(c.NamedKey)
		}
		schema.ConstantDataOffsetStart(b)
		b.PrependUint64(c.Offset) // written even when 0, as flatc does from the writer's JSON
		b.Slot(0)
		b.PrependUint64(c.Size)
		b.Slot(1)
		if c.HasKey {
			schema.ConstantDataOffsetAddNamedKey(b, key)
		}
		consts[i] = schema.ConstantDataOffsetEnd(b)
	}
	nodeVec := offsets(b, schema.XNNGraphStartXnodesVector, nodes)
	valueVec := offsets(b, schema.XNNGraphStartXvaluesVector, values)
	constVec := offsets(b, schema.XNNGraphStartConstantDataVector, consts)
	inputIDs := u32Vector(b, nil)
	outputIDs := u32Vector(b, nil)
	version := b.CreateString(g.Version)
	schema.XNNGraphStart(b)
	schema.XNNGraphAddVersion(b, version)
	schema.XNNGraphAddXnodes(b, nodeVec)
	schema.XNNGraphAddXvalues(b, valueVec)
	schema.XNNGraphAddNumExterns(b, g.NumExterns)
	schema.XNNGraphAddInputIds(b, inputIDs)
	schema.XNNGraphAddOutputIds(b, outputIDs)
	schema.XNNGraphAddConstantData(b, constVec)
	b.FinishWithFileIdentifier(schema.XNNGraphEnd(b), []byte(writerIdentifier))
	fb := b.FinishedBytes()

	fbPadded := alignUp(len(fb), ConstantAlignment)
	out := make([]byte, headerSize+fbPadded+len(g.ConstantRegion))
	copy(out[4:8], headerMagic)
	binary.LittleEndian.PutUint16(out[8:], headerMinSize)
	binary.LittleEndian.PutUint32(out[10:], headerSize)
	binary.LittleEndian.PutUint32(out[14:], uint32(len(fb)))
	binary.LittleEndian.PutUint32(out[18:], uint32(headerSize+fbPadded))
	binary.LittleEndian.PutUint64(out[22:], uint64(len(g.ConstantRegion)))
	copy(out[headerSize:], fb)
	copy(out[headerSize+fbPadded:], g.ConstantRegion)
	return out, nil
}

func alignUp(n, a int) int { return (n + a - 1) / a * a }

func offsets(b *flatbuffers.Builder, start func(*flatbuffers.Builder, int) flatbuffers.UOffsetT, offs []flatbuffers.UOffsetT) flatbuffers.UOffsetT {
	start(b, len(offs))
	for i := len(offs) - 1; i >= 0; i-- {
		b.PrependUOffsetT(offs[i])
	}
	return b.EndVector(len(offs))
}

func u32Vector(b *flatbuffers.Builder, v []uint32) flatbuffers.UOffsetT {
	b.StartVector(4, len(v), 4)
	for i := len(v) - 1; i >= 0; i-- {
		b.PrependUint32(v[i])
	}
	return b.EndVector(len(v))
}

func encodeValue(b *flatbuffers.Builder, v *Value) flatbuffers.UOffsetT {
	if v.Quant != nil {
		return encodeQuantValue(b, v)
	}
	tv := encodeTensorValue(b, v)
	schema.XValueStart(b)
	schema.XValueAddXvalueUnionType(b, schema.XValueUnionXNNTensorValue)
	schema.XValueAddXvalueUnion(b, tv)
	return schema.XValueEnd(b)
}

func encodeTensorValue(b *flatbuffers.Builder, v *Value) flatbuffers.UOffsetT {
	dims := u32Vector(b, v.Dims)
	schema.XNNTensorValueStart(b)
	schema.XNNTensorValueAddDatatype(b, v.DType)
	schema.XNNTensorValueAddNumDims(b, uint32(len(v.Dims)))
	schema.XNNTensorValueAddDims(b, dims)
	schema.XNNTensorValueAddConstantBufferIdx(b, v.ConstantIdx)
	schema.XNNTensorValueAddExternalId(b, v.ExternalID)
	schema.XNNTensorValueAddFlags(b, v.Flags)
	schema.XNNTensorValueAddIdOut(b, v.ID)
	return schema.XNNTensorValueEnd(b)
}

func encodeNode(b *flatbuffers.Builder, n *Node) (flatbuffers.UOffsetT, error) {
	t := lookup(n.Op)
	if t == nil {
		return 0, fmt.Errorf("unknown node type %d", n.Op)
	}
	body, err := t.encode(b, n)
	if err != nil {
		return 0, err
	}
	var minMax flatbuffers.UOffsetT
	fused := !math.IsInf(float64(n.OutputMin), -1) || !math.IsInf(float64(n.OutputMax), 1)
	if fused {
		schema.OutputMinMaxStart(b)
		b.PrependFloat32(n.OutputMin)
		b.Slot(0)
		b.PrependFloat32(n.OutputMax)
		b.Slot(1)
		minMax = schema.OutputMinMaxEnd(b)
	}
	schema.XNodeStart(b)
	schema.XNodeAddXnodeUnionType(b, n.Op)
	schema.XNodeAddXnodeUnion(b, body)
	schema.XNodeAddDebugHandle(b, n.DebugHandle)
	if fused {
		schema.XNodeAddOutputMinMax(b, minMax)
	}
	return schema.XNodeEnd(b), nil
}
