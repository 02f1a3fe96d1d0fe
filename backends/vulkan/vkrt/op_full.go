package vkrt

import "github.com/etgo/etgo/backends/vulkan/schema"

// Tensors filled with one value: full(size, value, dtype?, layout?, device?, pin_memory?, out),
// full_like(self, value, dtype?, ..., memory_format?, out), ones and zeros(size, dtype?, ...,
// out) and their _like forms (shaders/fill.comp: the value as one word of the output's kind,
// as the official fill shader writes it on every call).
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
		ro, err := b.out(args, last, dims)
		if err != nil {
			return err
		}
		return b.prog.dispatch("fill", numel(dims), u32s(numel(dims), int(wordOf(v, kindOf(od)))), ro)
	}
}
