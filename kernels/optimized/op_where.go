package optimized

import "github.com/etgo/etgo/executor"

func init() {
	register("aten::where.self_out", []executor.ScalarType{executor.Bool, executor.Uint8}, whereOut)
}

// aten::where.self_out(Tensor condition, Tensor self, Tensor other, *, Tensor(a!) out): the
// fast path is a Bool condition and float32 self, other and out, all contiguous and broadcasting
// (attention masks): a select, so bitwise the portable result, threaded by rows of the last dim
// and reading the condition in place (the portable kernel first copies it into a []bool).
// Everything else is the portable kernel's.
func whereOut(ctx *executor.KernelContext, args []*executor.EValue, threads int) error {
	a, err := unboxWhereSelfOut(args)
	if err != nil {
		return err
	}
	if !whereF32(threads, a.Condition, a.Self, a.Other, a.Out) {
		return fallback("aten::where.self_out")(ctx, args)
	}
	return nil
}

func whereF32(threads int, cond, a, b, out *executor.Tensor) bool {
	if (cond.ScalarType() != executor.Bool && cond.ScalarType() != executor.Uint8) || a.ScalarType() != executor.Float32 || b.ScalarType() != executor.Float32 ||
		out.ScalarType() != executor.Float32 || !cond.IsContiguous() || !a.IsContiguous() || !b.IsContiguous() {
		return false
	}
	ab, ok := broadcast(a.Sizes(), b.Sizes())
	if !ok {
		return false
	}
	shape, ok := broadcast(ab, cond.Sizes())
	if !ok || len(shape) == 0 || out.Resize(shape) != nil || !out.IsContiguous() {
		return false
	}
	// The condition is read as bytes, non-zero true: a Bool tensor's bytes come from the program
	// and need not be 0 or 1, and a Uint8 condition means the same.
	c, x, y, z := executor.Data[uint8](cond), executor.Data[float32](a), executor.Data[float32](b), executor.Data[float32](out)
	if badAlias(z, x) || badAlias(z, y) {
		return false
	}
	n := len(z)
	if n == 0 {
		return true
	}
	rank := len(shape)
	last := shape[rank-1]
	sc, sa, sb := bstrides(cond.Sizes(), shape), bstrides(a.Sizes(), shape), bstrides(b.Sizes(), shape)
	cs, xs, ys := sc[rank-1], sa[rank-1], sb[rank-1]
	parallelFor(threads, n/last, n, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			oc, oa, ob, rem := 0, 0, 0, r
			for d := rank - 2; d >= 0; d-- {
				i := rem % shape[d]
				rem /= shape[d]
				oc += i * sc[d]
				oa += i * sa[d]
				ob += i * sb[d]
			}
			dst := z[r*last : (r+1)*last]
			if cs == 0 { // one condition for the whole row: a copy or a fill
				src, step := y[ob:], ys
				if c[oc] != 0 {
					src, step = x[oa:], xs
				}
				if step == 1 {
					copy(dst, src[:last])
				} else {
					for j := range dst {
						dst[j] = src[0]
					}
				}
				continue
			}
			// Both values are loaded and one kept without a branch: masks are random enough
			// that a branch per element mispredicts often.
			cr := c[oc : oc+last]
			if xs == 1 && ys == 1 {
				// Both rows contiguous (where(h > 0, h, 0.1h)): sliced once, no index
				// arithmetic or bounds checks per element.
				xr, yr := x[oa:oa+last], y[ob:ob+last]
				for j, cv := range cr {
					v := yr[j]
					if cv != 0 {
						v = xr[j]
					}
					dst[j] = v
				}
				continue
			}
			for j, cv := range cr {
				v := y[ob+j*ys]
				if cv != 0 {
					v = x[oa+j*xs]
				}
				dst[j] = v
			}
		}
	})
	return true
}
