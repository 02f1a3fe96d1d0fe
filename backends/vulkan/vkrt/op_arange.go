package vkrt

import (
	"encoding/binary"
	"math"

	"github.com/etgo/etgo/backends/vulkan/schema"
)

// arangeOp: arange.start_step(start, end, step, dtype?, layout?, device?, pin_memory?, out).
// Its elements depend on no input, so they are written when the variant is compiled (at most
// maxConstElems): start + i*step for i below ceil((end-start)/step), computed in double and then
// rounded to float32 or truncated to int32 (torch's CPU kernel computes in double for float32
// and in int64 for ints, the same values for integral arguments below 2^53).
func arangeOp(b *builder, args []int32) error {
	od, err := b.outDType(args, 7, schema.VkDataTypeFLOAT32, schema.VkDataTypeINT32)
	if err != nil {
		return err
	}
	var v [3]float64
	for i := range v {
		x, ok, err := b.scalarArg(args, i)
		if err != nil {
			return errUnsupportedf("%s: argument %d is not a constant number", b.op, i)
		}
		if !ok {
			return b.errorf("%s: argument %d is None", b.op, i)
		}
		v[i] = x
	}
	start, end, step := v[0], v[1], v[2]
	if step == 0 || math.IsNaN(start+end+step) || math.IsInf(start+end+step, 0) || (end-start)/step < 0 {
		return b.errorf("%s(%g, %g, %g) is not a valid range", b.op, start, end, step)
	}
	cnt := math.Ceil((end - start) / step)
	if cnt > math.MaxInt32 {
		return errUnsupportedf("%s of %g elements", b.op, cnt)
	}
	return b.constOut(args, 7, []int{int(cnt)}, func(i int) uint32 {
		if od == schema.VkDataTypeINT32 {
			return uint32(int32(int64(start + float64(i)*step)))
		}
		return math.Float32bits(float32(start + float64(i)*step))
	})
}

// maxConstElems bounds a tensor etgo computes on the host when it compiles a variant (an
// arange): a blob's dims are untrusted and this memory is the process's, not the device's.
const maxConstElems = 1 << 24

// constOut places output argument i with shape dims, its element k being word(k), written
// when the variant is compiled.
func (b *builder) constOut(args []int32, i int, dims []int, word func(k int) uint32) error {
	if n := numel(dims); n > maxConstElems {
		return errUnsupportedf("%s of %d elements (etgo computes at most %d on the host)", b.op, n, maxConstElems)
	}
	r, err := b.out(args, i, dims)
	if err != nil {
		return err
	}
	n := numel(dims)
	data := make([]byte, 4*n)
	for k := 0; k < n; k++ {
		binary.LittleEndian.PutUint32(data[4*k:], word(k))
	}
	b.prog.bufs[r].init = data
	return nil
}
