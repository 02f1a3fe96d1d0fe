package portable

import (
	"math"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::_cdist_forward.out", DTypes: floatTypes, Fn: cdistForwardOut})
}

// aten::_cdist_forward.out(Tensor x1, Tensor x2, float p, int? compute_mode, *,
// Tensor(a!) out).
//
// The p-norm distance between every row of x1 [B...,P,M] and every row of x2 [B...,R,M]:
// out [B...,P,R] (batch dims broadcast) holds (Σ_k |x1[i,k]-x2[j,k]|^p)^(1/p); p = 0 counts
// the differing coordinates, p = ∞ takes the largest difference. p must be non-negative and
// compute_mode, when given, 0, 1 or 2 (it picks PyTorch's matrix-product shortcut for p = 2;
// like ExecuTorch, etgo always computes directly). Arithmetic is in the input's precision,
// rounding after every operation, as ExecuTorch's kernel does; p is first rounded to that
// precision. Its ∞ norm keeps the running maximum when a difference is NaN (C++ std::max).
func cdistForwardOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxCdistForwardOut(args)
	if err != nil {
		return err
	}
	x1, x2, p, mode, hasMode, out := u.X1, u.X2, u.P, u.ComputeMode.Val, u.ComputeMode.OK, u.Out
	dt := x1.ScalarType()
	if !isFloat(dt) {
		return unbox.ArgError(0, "x1", "cdist only supports floating-point dtypes, got %s", executor.DTypeName(dt))
	}
	if err := reduceSameDtype(x2, dt, 1, "x2"); err != nil {
		return err
	}
	if err := poolSameDtype(x1, out, "out"); err != nil {
		return err
	}
	if !(p >= 0) {
		return unbox.ArgError(2, "p", "cdist only supports non-negative p values, got %v", p)
	}
	if hasMode && (mode < 0 || mode > 2) {
		return unbox.ArgError(3, "compute_mode", "possible modes: 0, 1, 2, but was: %d", mode)
	}
	s1, s2 := x1.Sizes(), x2.Sizes()
	if len(s1) < 2 {
		return unbox.ArgError(0, "x1", "cdist only supports at least 2D tensors, got sizes %v", s1)
	}
	if len(s2) < 2 {
		return unbox.ArgError(1, "x2", "cdist only supports at least 2D tensors, got sizes %v", s2)
	}
	m := s1[len(s1)-1]
	if s2[len(s2)-1] != m {
		return unbox.ArgError(1, "x2", "X1 and X2 must have the same number of columns: X1 %d, X2 %d", m, s2[len(s2)-1])
	}
	b1, b2 := s1[:len(s1)-2], s2[:len(s2)-2]
	batch, err := broadcastShape(b1, b2)
	if err != nil {
		return unbox.ArgError(1, "x2", "batch dims %v do not broadcast with x1's %v", b2, b1)
	}
	pr, rr := s1[len(s1)-2], s2[len(s2)-2]
	if err := resize(out, append(append([]int(nil), batch...), pr, rr)); err != nil {
		return err
	}
	if out.Numel() == 0 {
		return nil
	}
	d := newDistance(dt, p)
	a, b := loadF64(x1), loadF64(x2)
	m1, m2 := broadcastIndex(b1, batch), broadcastIndex(b2, batch)
	y := make([]float64, out.Numel())
	e := 0
	for k := range shapeNumel(batch) {
		a0, b0 := k, k
		if m1 != nil {
			a0 = m1[k]
		}
		if m2 != nil {
			b0 = m2[k]
		}
		for i := 0; i < pr; i++ {
			row := a[(a0*pr+i)*m : (a0*pr+i+1)*m]
			for j := 0; j < rr; j++ {
				y[e] = d.of(row, b[(b0*rr+j)*m:(b0*rr+j+1)*m])
				e++
			}
		}
	}
	storeF64(out, y)
	return nil
}

// distance is the p-norm of row differences of ExecuTorch's cdist and pdist kernels,
// computed in the precision of a floating dtype (r rounds to it after every operation).
type distance struct {
	p, invP float64 // p rounded to the dtype; 1/p in float64, as C++'s 1.0/p
	r       func(float64) float64
}

func newDistance(dt executor.ScalarType, p float64) distance {
	r := func(v float64) float64 { return roundTo(dt, v) }
	pr := r(p)
	return distance{p: pr, invP: 1 / pr, r: r}
}

func (d distance) of(u, v []float64) float64 {
	r := d.r
	agg := 0.0
	for k := range u {
		diff := math.Abs(r(u[k] - v[k]))
		switch {
		case d.p == 0:
			if diff != 0 {
				agg = r(agg + 1)
			}
		case d.p == 1:
			agg = r(agg + diff)
		case d.p == 2:
			agg = r(agg + r(diff*diff))
		case math.IsInf(d.p, 1):
			if agg < diff {
				agg = diff
			}
		default:
			agg = r(agg + r(math.Pow(diff, d.p)))
		}
	}
	switch {
	case d.p == 2:
		return r(math.Sqrt(agg))
	case d.p == 0 || d.p == 1 || math.IsInf(d.p, 1):
		return agg
	}
	return r(math.Pow(agg, d.invP))
}
