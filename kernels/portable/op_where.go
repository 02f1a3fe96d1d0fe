package portable

import (
	"fmt"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::where.self_out", DTypes: []executor.ScalarType{executor.Bool, executor.Uint8}, Fn: whereOut})
}

// aten::where.self_out(Tensor condition, Tensor self, Tensor other, *, Tensor(a!) out): self
// where condition (Bool or Uint8) is true, else other, all three broadcast; out has the result
// type of self and other.
func whereOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxWhereSelfOut(args)
	if err != nil {
		return err
	}
	cond, a, b, out := u.Condition, u.Self, u.Other, u.Out
	if ct := cond.ScalarType(); ct != executor.Bool && ct != executor.Uint8 {
		return unbox.ArgError(0, "condition", "want a bool or uint8 tensor, got %s", executor.DTypeName(ct))
	}
	common := new(typeState).tensor(a).tensor(b).result()
	if out.ScalarType() != common {
		return fmt.Errorf("%w: out is %s, want the result type %s of self and other", executor.ErrInvalidArgument,
			executor.DTypeName(out.ScalarType()), executor.DTypeName(common))
	}
	ab, err := broadcastShape(a.Sizes(), b.Sizes())
	if err != nil {
		return err
	}
	shape, err := broadcastShape(ab, cond.Sizes())
	if err != nil {
		return err
	}
	if err := resize(out, shape); err != nil {
		return err
	}
	c := compareTruth(cond)
	n := out.Numel()
	if common == executor.Float32 && a.ScalarType() == common && b.ScalarType() == common &&
		a.IsContiguous() && b.IsContiguous() && out.IsContiguous() && len(shape) > 0 && n > 0 {
		// Row by row: each operand's last dim is the output's or broadcast, and the rows map
		// through an index of the leading dims only (attention's NaN guard selects with a
		// [B, H, L, 1] condition over [B, H, L, S] scores on every step).
		x, y, r := executor.Data[float32](a), executor.Data[float32](b), executor.Data[float32](out)
		cr, xr, yr := rowsOf(cond.Sizes(), shape), rowsOf(a.Sizes(), shape), rowsOf(b.Sizes(), shape)
		last := shape[len(shape)-1]
		for row := 0; row < n/last; row++ {
			co, xo, yo := cr.at(row), xr.at(row), yr.at(row)
			dst := r[row*last : (row+1)*last]
			for j := range dst {
				if c[co+j*cr.step] {
					dst[j] = x[xo+j*xr.step]
				} else {
					dst[j] = y[yo+j*yr.step]
				}
			}
		}
		return nil
	}
	mc, ma, mb := broadcastIndex(cond.Sizes(), shape), broadcastIndex(a.Sizes(), shape), broadcastIndex(b.Sizes(), shape)
	if common == executor.Float32 && a.ScalarType() == common && b.ScalarType() == common &&
		a.IsContiguous() && b.IsContiguous() && out.IsContiguous() {
		// float32 in memory order, broadcast through the index maps: no float64 round trip
		// (a 0-d output, which has no rows).
		x, y, r := executor.Data[float32](a), executor.Data[float32](b), executor.Data[float32](out)
		for e := range n {
			if at(c, mc, e) {
				r[e] = at(x, ma, e)
			} else {
				r[e] = at(y, mb, e)
			}
		}
		return nil
	}
	if isFloat(common) {
		x, y := loadCastF64(a, common), loadCastF64(b, common)
		r := make([]float64, n)
		for e := range r {
			if at(c, mc, e) {
				r[e] = at(x, ma, e)
			} else {
				r[e] = at(y, mb, e)
			}
		}
		storeF64(out, r)
		return nil
	}
	x, y := loadCastI64(a, common), loadCastI64(b, common)
	r := make([]int64, n)
	for e := range r {
		if at(c, mc, e) {
			r[e] = at(x, ma, e)
		} else {
			r[e] = at(y, mb, e)
		}
	}
	storeI64(out, r)
	return nil
}
