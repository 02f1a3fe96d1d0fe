package vkrt

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/x448/float16"

	"github.com/etgo/etgo/backends/vulkan/schema"
	"github.com/etgo/etgo/executor"
)

// The staging copies between a delegate call's tensors and the device buffer. The official
// runtime copies bytes when the ExecuTorch tensor's dtype is the graph value's staging dtype
// and otherwise casts, for exactly three pairs (ComputeGraph::maybe_cast_and_copy_into_staging
// and _from_staging): int64 tensors to and from int32 values (the partitioner narrows 64-bit
// ints), float64 and float16 to and from float32. etgo does the same, and widens bool bytes
// to its 32-bit words (elemType) on the way in and narrows them on the way out.

// stageable says whether a call's tensor of dtype st can stand for a graph value of dtype d.
func stageable(d schema.VkDataType, st executor.ScalarType) bool {
	switch d {
	case schema.VkDataTypeFLOAT32:
		return st == executor.Float32 || st == executor.Float64 || st == executor.Float16
	case schema.VkDataTypeINT32:
		return st == executor.Int32 || st == executor.Int64
	case schema.VkDataTypeBOOL:
		return st == executor.Bool
	}
	return false
}

// graphScalarType is the ExecuTorch dtype whose bytes a graph value's elements are copied as.
func graphScalarType(d schema.VkDataType) executor.ScalarType {
	switch d {
	case schema.VkDataTypeINT32:
		return executor.Int32
	case schema.VkDataTypeBOOL:
		return executor.Bool
	}
	return executor.Float32
}

// stageIn writes n elements of t's bytes src as words into dst.
func stageIn(dst, src []byte, st executor.ScalarType, n int) error {
	switch st {
	case executor.Float32, executor.Int32:
		copy(dst, src[:4*n])
	case executor.Int64:
		for i := 0; i < n; i++ {
			binary.LittleEndian.PutUint32(dst[4*i:], uint32(int32(int64(binary.LittleEndian.Uint64(src[8*i:])))))
		}
	case executor.Float64:
		for i := 0; i < n; i++ {
			binary.LittleEndian.PutUint32(dst[4*i:], math.Float32bits(float32(math.Float64frombits(binary.LittleEndian.Uint64(src[8*i:])))))
		}
	case executor.Float16:
		for i := 0; i < n; i++ {
			binary.LittleEndian.PutUint32(dst[4*i:], math.Float32bits(float16.Frombits(binary.LittleEndian.Uint16(src[2*i:])).Float32()))
		}
	case executor.Bool:
		for i := 0; i < n; i++ {
			w := uint32(0)
			if src[i] != 0 {
				w = 1
			}
			binary.LittleEndian.PutUint32(dst[4*i:], w)
		}
	default:
		return fmt.Errorf("%w: no staging copy from %s", ErrUnsupported, executor.DTypeName(st))
	}
	return nil
}

// stageOut writes n words of src into dst as elements of dtype st.
func stageOut(dst, src []byte, st executor.ScalarType, n int) error {
	word := func(i int) uint32 { return binary.LittleEndian.Uint32(src[4*i:]) }
	switch st {
	case executor.Float32, executor.Int32:
		copy(dst[:4*n], src)
	case executor.Int64:
		for i := 0; i < n; i++ {
			binary.LittleEndian.PutUint64(dst[8*i:], uint64(int64(int32(word(i)))))
		}
	case executor.Float64:
		for i := 0; i < n; i++ {
			binary.LittleEndian.PutUint64(dst[8*i:], math.Float64bits(float64(math.Float32frombits(word(i)))))
		}
	case executor.Float16:
		for i := 0; i < n; i++ {
			binary.LittleEndian.PutUint16(dst[2*i:], float16.Fromfloat32(math.Float32frombits(word(i))).Bits())
		}
	case executor.Bool:
		for i := 0; i < n; i++ {
			dst[i] = 0
			if word(i) != 0 {
				dst[i] = 1
			}
		}
	default:
		return fmt.Errorf("%w: no staging copy to %s", ErrUnsupported, executor.DTypeName(st))
	}
	return nil
}
