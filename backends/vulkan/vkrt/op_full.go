package vkrt

import (
	"encoding/binary"

	"github.com/etgo/etgo/backends/vulkan/schema"
)

// Tensors filled with one value: full(size, value, dtype?, layout?, device?, pin_memory?, out),
// full_like(self, value, dtype?, ..., memory_format?, out), ones and zeros(size, dtype?, ...,
// out) and their _like forms. Their elements depend on nothing the call passes (full_like's
// on its input's shape only, which a variant fixes), so etgo writes them into the buffer once
// when it compiles the variant, where the official runtime dispatches a fill shader per call;
// no dispatch writes the region afterwards (every value has its own).
func fullOp(like bool, value float64, hasValue bool) opFunc {
	return func(b *builder, args []int32) error {
		if len(args) < 2 {
			return b.errorf("%s without an output", b.op)
		}
		last := len(args) - 1
		od, err := b.outDType(args, last, schema.VkDataTypeFLOAT32, schema.VkDataTypeINT32, schema.VkDataTypeBOOL)
		if err != nil {
			return err
		}
		var dims []int
		if like {
			if _, dims, err = b.in(args, 0); err != nil {
				return err
			}
		} else {
			size, err := b.intListArg(args, 0)
			if err != nil {
				return err
			}
			dims = make([]int, len(size))
			for i, d := range size {
				if d < 0 || d > 1<<31-1 {
					return b.errorf("%s of size %v", b.op, size)
				}
				dims[i] = int(d)
			}
		}
		v := value
		if hasValue {
			x, ok, err := b.scalarArg(args, 1)
			if err != nil {
				return err
			}
			if !ok {
				return b.errorf("%s without a fill value", b.op)
			}
			v = x
		}
		w := wordOf(v, kindOf(od))
		return b.constOut(args, last, dims, func(i int) uint32 { return w })
	}
}

// constOut places output argument i with shape dims, its element k being word(k), written
// when the variant is compiled. The region is placed first: that bounds the element count
// (by the declared dims and the buffer) before any memory is made for it.
func (b *builder) constOut(args []int32, i int, dims []int, word func(k int) uint32) error {
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
