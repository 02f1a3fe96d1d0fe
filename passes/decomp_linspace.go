package passes

import (
	"fmt"

	"github.com/etgo/etgo/ir"
)

// linspaceNumbers is torch._refs.linspace between two Python numbers, steps ≥ 2: an int64
// arange(0, steps), and each point computed from the nearer end so that out[0] == start and
// out[-1] == end exactly — where(rg < steps/2, start + step·rg, end − step·(steps−1−rg)), step =
// (end − start)/(steps − 1) as a Python float — in the computation type (float32 for the
// half types, int64 for integral and bool dtypes, else the dtype itself), then converted to dtype.
// The numbers stay numbers: the Edge conversion lifts them to buffers and its mixed-type pass
// converts the int64 ones, as it does for torch's graph.
func linspaceNumbers(b *Builder, start, end ir.Arg, steps int64, dtype ir.DType) (*ir.Value, error) {
	s, ok1 := pyNumberValue(start)
	e, ok2 := pyNumberValue(end)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("linspace between bounds that are not numbers (kinds %d and %d) is not decomposed yet", start.Kind, end.Kind)
	}
	step := (e - s) / float64(steps-1)
	rg := b.Call("aten.arange.start_step", I("start", 0), I("end", steps), I("step", 1), layoutStrided(), deviceCPU(), pinMemoryFalse())
	compute := dtype
	switch {
	case dtype == ir.Bool || !dtype.IsFloat():
		compute = ir.Int64
	case dtype == ir.Float16 || dtype == ir.BFloat16:
		compute = ir.Float32
	}
	cond := b.Call("aten.lt.Scalar", T("self", rg), F("other", float64(steps)/2))
	lo := b.Call("aten.mul.Tensor", T("self", convert(b, rg, compute)), F("other", step))
	lo = b.Call("aten.add.Tensor", T("self", lo), Renamed(start, "other"))
	back := b.Call("aten.sub.Tensor", I("self", steps-1), T("other", rg))
	hi := b.Call("aten.mul.Tensor", T("self", convert(b, back, compute)), F("other", step))
	hi = b.Call("aten.sub.Tensor", Renamed(end, "self"), T("other", hi))
	out := b.Call("aten.where.self", T("condition", cond), T("self", lo), T("other", hi))
	return convert(b, out, dtype), nil
}

// pyNumberValue is an int or float argument's value.
func pyNumberValue(a ir.Arg) (float64, bool) {
	switch a.Kind {
	case ir.ArgInt:
		return float64(a.Int), true
	case ir.ArgFloat:
		return a.Float, true
	}
	return 0, false
}
