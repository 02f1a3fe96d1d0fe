package vkrt

import "github.com/etgo/etgo/backends/vulkan/schema"

// argReduceOp: argmax and argmin (self, dim?, keepdim, out) to int32 indices (the partitioner
// narrows torch's int64; the staging copy widens them again, stage.go), with torch's choice:
// the first extreme, a NaN being the extreme (shaders/argreduce.comp). Without a dim the
// input is reduced as one flat row.
func argReduceOp(isMin bool) opFunc {
	return func(b *builder, args []int32) error {
		if _, err := b.outDType(args, 3, schema.VkDataTypeINT32); err != nil {
			return err
		}
		id, err := b.dtypeOf(args, 0)
		if err != nil {
			return err
		}
		if id != schema.VkDataTypeFLOAT32 && id != schema.VkDataTypeINT32 {
			return errUnsupportedf("%s of a %s tensor", b.op, id)
		}
		r, dims, err := b.in(args, 0)
		if err != nil {
			return err
		}
		keep, err := b.boolArg(args, 2)
		if err != nil {
			return err
		}
		n := numel(dims)
		if n == 0 {
			return errUnsupportedf("%s of an empty tensor", b.op) // torch raises
		}
		var outer, size, inner int
		var out []int
		if b.isNull(args, 1) {
			outer, size, inner = 1, n, 1
			out = []int{}
			if keep {
				for range dims {
					out = append(out, 1)
				}
			}
		} else {
			d64, err := b.intArg(args, 1)
			if err != nil {
				return err
			}
			d, err := b.normDim(d64, len(dims))
			if err != nil {
				return err
			}
			if len(dims) == 0 {
				outer, size, inner = 1, 1, 1
				out = []int{}
			} else {
				outer, size, inner = numel(dims[:d]), dims[d], numel(dims[d+1:])
				if size == 0 {
					return errUnsupportedf("%s along an empty dim", b.op)
				}
				for i, s := range dims {
					if i != d {
						out = append(out, s)
					} else if keep {
						out = append(out, 1)
					}
				}
				if out == nil {
					out = []int{}
				}
			}
		}
		ro, err := b.out(args, 3, out)
		if err != nil {
			return err
		}
		mode := 0
		if isMin {
			mode = 1
		}
		isInt := 0
		if id == schema.VkDataTypeINT32 {
			isInt = 1
		}
		return b.prog.dispatch("argreduce", outer*inner, u32s(outer*inner, size, inner, 0, mode, isInt), r, ro)
	}
}
