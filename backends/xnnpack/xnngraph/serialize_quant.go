package xnngraph

import (
	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/etgo/etgo/backends/xnnpack/schema"
)

// encodeQuantValue writes a quantized value as XNNQuantizedTensorValue: its tensor value and
// the quantization parameters of its kind, as ExecuTorch's serializer writes them (per-channel
// and blockwise scales by buffer index when ScaleBufferIdx is set, inline otherwise).
func encodeQuantValue(b *flatbuffers.Builder, v *Value) flatbuffers.UOffsetT {
	q := v.Quant
	var params flatbuffers.UOffsetT
	switch q.Kind {
	case schema.XNNQuantParamsPerTensorQuant:
		schema.PerTensorQuantStart(b)
		schema.PerTensorQuantAddScale(b, q.Scale)
		schema.PerTensorQuantAddZeroPoint(b, q.ZeroPoint)
		params = schema.PerTensorQuantEnd(b)
	case schema.XNNQuantParamsPerChannelQuant:
		scales := f32Vector(b, q.Scales)
		schema.PerChannelQuantStart(b)
		schema.PerChannelQuantAddScale(b, scales)
		schema.PerChannelQuantAddChannelDim(b, int32(q.ChannelDim))
		schema.PerChannelQuantAddScaleBufferIdx(b, q.ScaleBufferIdx)
		schema.PerChannelQuantAddNumScales(b, q.NumScales)
		params = schema.PerChannelQuantEnd(b)
	case schema.XNNQuantParamsPerTokenDynamicQuant:
		schema.PerTokenDynamicQuantStart(b)
		schema.PerTokenDynamicQuantAddNumNonbatchDims(b, q.NumNonbatchDims)
		params = schema.PerTokenDynamicQuantEnd(b)
	case schema.XNNQuantParamsPerChannelGroupQuant:
		scales := f32Vector(b, q.Scales)
		schema.PerChannelGroupQuantStart(b)
		schema.PerChannelGroupQuantAddScale(b, scales)
		schema.PerChannelGroupQuantAddChannelDim(b, int32(q.ChannelDim))
		schema.PerChannelGroupQuantAddGroupSize(b, q.GroupSize)
		schema.PerChannelGroupQuantAddScaleBufferIdx(b, q.ScaleBufferIdx)
		schema.PerChannelGroupQuantAddNumScales(b, q.NumScales)
		params = schema.PerChannelGroupQuantEnd(b)
	}
	tv := encodeTensorValue(b, v)
	schema.XNNQuantizedTensorValueStart(b)
	schema.XNNQuantizedTensorValueAddTensorValue(b, tv)
	schema.XNNQuantizedTensorValueAddQuantParamsType(b, q.Kind)
	schema.XNNQuantizedTensorValueAddQuantParams(b, params)
	qv := schema.XNNQuantizedTensorValueEnd(b)
	schema.XValueStart(b)
	schema.XValueAddXvalueUnionType(b, schema.XValueUnionXNNQuantizedTensorValue)
	schema.XValueAddXvalueUnion(b, qv)
	return schema.XValueEnd(b)
}

func f32Vector(b *flatbuffers.Builder, v []float32) flatbuffers.UOffsetT {
	b.StartVector(4, len(v), 4)
	for i := len(v) - 1; i >= 0; i-- {
		b.PrependFloat32(v[i])
	}
	return b.EndVector(len(v))
}
