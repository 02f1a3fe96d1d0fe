package vkrt

import (
	"encoding/binary"

	"github.com/etgo/etgo/backends/vulkan/schema"
	"github.com/etgo/etgo/backends/vulkan/vkgraph"
)

// Datatypes. Every tensor element is one 32-bit word (elemType); the shaders that read or
// write ints and bools bind their buffers as uint and convert per element, so no bit pattern
// passes through a float register (a device may canonicalise NaNs).

// Element kinds the shaders tell apart (their type-flag parameters).
const (
	kindFloat = 0
	kindInt   = 1
	kindBool  = 2
)

func kindOf(d schema.VkDataType) int {
	switch d {
	case schema.VkDataTypeINT32:
		return kindInt
	case schema.VkDataTypeBOOL:
		return kindBool
	}
	return kindFloat
}

// elemSize is the bytes per element of a constant as the blob stores it.
func elemSize(d schema.VkDataType) int {
	if d == schema.VkDataTypeBOOL {
		return 1
	}
	return 4
}

// toWords widens constant bytes to etgo's 32-bit words (a bool byte to 0 or 1); 32-bit
// elements are returned as they are.
func toWords(d schema.VkDataType, data []byte) []byte {
	if d != schema.VkDataTypeBOOL {
		return data
	}
	out := make([]byte, 4*len(data))
	for i, v := range data {
		if v != 0 {
			binary.LittleEndian.PutUint32(out[4*i:], 1)
		}
	}
	return out
}

// typed are the operators that check their tensors' datatypes themselves (they run on ints or
// bools, or cast); shapeOps move words whatever they hold, so their tensors need only agree.
// Every other operator computes in float32 and takes float32 tensors only: checkDTypes refuses
// the rest before a float shader could read an int's bits.
var (
	typed = map[string]bool{
		"aten.add.Tensor": true, "aten.sub.Tensor": true, "aten.mul.Tensor": true,
		"dim_order_ops._to_dim_order_copy.default": true,
		"aten.max_pool2d_with_indices.default":     true,
		"aten.eq.Tensor":                           true, "aten.lt.Tensor": true, "aten.le.Tensor": true, "aten.gt.Tensor": true, "aten.ge.Tensor": true,
		"aten.eq.Scalar": true, "aten.ne.Scalar": true, "aten.lt.Scalar": true, "aten.le.Scalar": true, "aten.gt.Scalar": true, "aten.ge.Scalar": true,
		"aten.bitwise_and.Tensor": true, "aten.bitwise_or.Tensor": true, "aten.bitwise_not.default": true,
		"aten.logical_and.default": true, "aten.logical_or.default": true, "aten.logical_not.default": true,
		"aten.where.self":   true,
		"aten.full.default": true, "aten.full_like.default": true,
		"aten.ones.default": true, "aten.ones_like.default": true,
		"aten.zeros.default": true, "aten.zeros_like.default": true,
		"aten.arange.start_step": true,
		"aten.argmax.default":    true, "aten.argmin.default": true,
	}
	shapeOps = map[string]bool{
		"aten.view_copy.default": true, "aten.clone.default": true, "et_vk.prepack.default": true,
		"aten.squeeze_copy.dims": true, "aten.unsqueeze_copy.default": true, "aten.permute_copy.default": true,
		"aten.slice_copy.Tensor": true, "aten.cat.default": true, "aten.split_with_sizes_copy.default": true,
	}
)

// tensorArgs are the tensor values among an operator's arguments, list items included.
func (b *builder) tensorArgs(args []int32) []*vkgraph.Tensor {
	var ts []*vkgraph.Tensor
	for _, id := range args {
		v := b.value(id)
		switch {
		case v == nil:
		case v.Kind == schema.GraphTypesVkTensor:
			ts = append(ts, v.Tensor)
		case v.Kind == schema.GraphTypesValueList:
			for _, item := range v.ValueList {
				if e := b.value(item); e != nil && e.Kind == schema.GraphTypesVkTensor {
					ts = append(ts, e.Tensor)
				}
			}
		}
	}
	return ts
}

// checkDTypes refuses an operator whose tensors' datatypes it does not compute (see typed).
func (b *builder) checkDTypes(args []int32) error {
	if typed[b.op] {
		return nil
	}
	ts := b.tensorArgs(args)
	for _, t := range ts {
		if err := elemType(t.DType); err != nil {
			return err
		}
		switch {
		case shapeOps[b.op]:
			if t.DType != ts[0].DType {
				return errUnsupportedf("%s of %s and %s tensors", b.op, ts[0].DType, t.DType)
			}
		case t.DType != schema.VkDataTypeFLOAT32:
			return errUnsupportedf("%s on a %s tensor (etgo runs it on float32)", b.op, t.DType)
		}
	}
	return nil
}

// dtypeOf is a tensor argument's datatype.
func (b *builder) dtypeOf(args []int32, i int) (schema.VkDataType, error) {
	id, err := b.arg(args, i)
	if err != nil {
		return 0, err
	}
	t, err := b.tensorValue(id)
	if err != nil {
		return 0, err
	}
	return t.DType, nil
}

// constantWord places a one-element constant holding v as an element of kind k.
func (b *builder) constantWord(v float64, k int) (int, error) {
	var raw [4]byte
	binary.LittleEndian.PutUint32(raw[:], wordOf(v, k))
	return b.prog.alloc(4, raw[:])
}

// wordOf is v as one element of kind k: float bits, a two's-complement int (truncated
// toward zero, as torch casts), or 0/1.
func wordOf(v float64, k int) uint32 {
	switch k {
	case kindInt:
		return uint32(int32(int64(v)))
	case kindBool:
		if v != 0 {
			return 1
		}
		return 0
	}
	return f32bits(v)
}
