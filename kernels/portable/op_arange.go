package portable

import (
	"fmt"
	"math"

	"github.com/etgo/etgo/executor"
)

func init() {
	register(
		executor.Kernel{Name: "aten::arange.out", DTypes: realTypes, Fn: arangeOut},
		executor.Kernel{Name: "aten::arange.start_out", DTypes: realTypes, Fn: arangeStartOut},
	)
}

// aten::arange.out(Scalar end, *, Tensor(a!) out): 0, 1, ..., up to end (exclusive).
func arangeOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxArangeOut(args)
	if err != nil {
		return err
	}
	end, out := u.End, u.Out
	return shapeArange(scalar{}, end, scalar{F: 1, I: 1}, out)
}

// aten::arange.start_out(Scalar start, Scalar end, Scalar step=1, *, Tensor(a!) out): start,
// start+step, ... while before end; the length is ceil((end-start)/step).
func arangeStartOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxArangeStartOut(args)
	if err != nil {
		return err
	}
	start, end, step, out := u.Start, u.End, u.Step, u.Out
	return shapeArange(start, end, step, out)
}

// shapeArange fills a 1-d out with the range. Values are start + i*step computed in float64
// and cast (as ExecuTorch does), or exactly in int64 when every bound is an integer and out is
// integral.
func shapeArange(start, end, step scalar, out *executor.Tensor) error {
	for _, b := range []struct {
		name string
		v    scalar
	}{{"start", start}, {"end", end}, {"step", step}} {
		if b.v.IsBool {
			// ExecuTorch's extract_scalar takes only integral (not bool) or floating scalars.
			return fmt.Errorf("%w: arange %s is a Bool; it takes an Int or a Double", executor.ErrInvalidArgument, b.name)
		}
	}
	s, e, d := start.F, end.F, step.F
	for _, v := range []float64{s, e, d} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: arange bounds and step must be finite, got start %v, end %v, step %v", executor.ErrInvalidArgument, s, e, d)
		}
	}
	if !(d > 0 && e >= s) && !(d < 0 && e <= s) {
		return fmt.Errorf("%w: arange: upper bound and lower bound inconsistent with step sign: start %v, end %v, step %v", executor.ErrInvalidArgument, s, e, d)
	}
	nf := math.Ceil((e - s) / d)
	ints := !start.IsFloat && !end.IsFloat && !step.IsFloat
	if ints { // exact for integer bounds, beyond 2^53 too
		diff := end.I - start.I
		if (diff > 0) != (end.I > start.I) || (diff < 0) != (end.I < start.I) {
			return fmt.Errorf("%w: arange from %d to %d is too large", executor.ErrInvalidArgument, start.I, end.I)
		}
		if !(step.I > 0 && diff >= 0) && !(step.I < 0 && diff <= 0) {
			return fmt.Errorf("%w: arange: upper bound and lower bound inconsistent with step sign: start %d, end %d, step %d", executor.ErrInvalidArgument, start.I, end.I, step.I)
		}
		q := diff / step.I
		if q*step.I != diff {
			q++ // same signs (checked above), so the quotient is positive and rounds up
		}
		nf = float64(q)
	}
	if nf > 1<<40 {
		return fmt.Errorf("%w: arange of %v elements is too large", executor.ErrInvalidArgument, nf)
	}
	n := int(nf)
	if out.Dim() != 1 {
		return fmt.Errorf("%w: out: arange needs a 1-d out, got %d dimensions", executor.ErrInvalidArgument, out.Dim())
	}
	if err := resize(out, []int{n}); err != nil {
		return err
	}
	if isIntegral(out.ScalarType()) && ints {
		v := make([]int64, n)
		for i := range v {
			v[i] = start.I + int64(i)*step.I
		}
		storeI64(out, v)
		return nil
	}
	v := make([]float64, n)
	for i := range v {
		v[i] = s + float64(i)*d
	}
	storeF64(out, v)
	return nil
}
