package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::_adaptive_avg_pool2d.out", DTypes: avgPool2dTypes, Fn: adaptiveAvgPool2dOut})
}

// aten::_adaptive_avg_pool2d.out(Tensor self, SymInt[2] output_size, *, Tensor(a!) out).
//
// As PyTorch: output cell (i, j) averages input rows floor(i*H/OH) to ceil((i+1)*H/OH) and
// the columns likewise, dividing the sum by the window's height then its width. Float32,
// Float16 and BFloat16 accumulate in float32. Int64 (which ExecuTorch accepts and PyTorch
// does not) divides with truncation.
func adaptiveAvgPool2dOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxAdaptiveAvgPool2dOut(args)
	if err != nil {
		return err
	}
	in, size, out := u.Self, u.OutputSize, u.Out
	if len(size) != 2 {
		return unbox.ArgError(1, "output_size", "want 2 sizes, got %v", size)
	}
	if size[0] < 0 || size[1] < 0 {
		return unbox.ArgError(1, "output_size", "sizes must be non-negative, got %v", size)
	}
	s := in.Sizes()
	if len(s) != 3 && len(s) != 4 {
		return unbox.ArgError(0, "self", "expected a 3D or 4D tensor, got sizes %v", s)
	}
	for d := 1; d < len(s); d++ {
		if s[d] == 0 {
			return unbox.ArgError(0, "self", "expected non-zero sizes for non-batch dimensions, got sizes %v", s)
		}
	}
	if err := poolDtype(in, "_adaptive_avg_pool2d", avgPool2dTypes); err != nil {
		return err
	}
	if err := poolSameDtype(in, out, "out"); err != nil {
		return err
	}
	sizes := append([]int(nil), s...)
	sizes[len(s)-2], sizes[len(s)-1] = int(size[0]), int(size[1])
	if err := resize(out, sizes); err != nil {
		return err
	}
	var g poolAdaptiveGeom
	g.planes, g.ih, g.iw = poolPlanes(s)
	_, g.oh, g.ow = poolPlanes(sizes)
	switch in.ScalarType() {
	case executor.Float32:
		if in.IsContiguous() && out.IsContiguous() {
			poolAdaptiveAvgPlanes(&g, executor.Data[float32](in), executor.Data[float32](out))
			return nil
		}
		fallthrough
	case executor.Float16, executor.BFloat16:
		y := make([]float32, out.Numel())
		poolAdaptiveAvgPlanes(&g, poolF32(loadF64(in)), y)
		storeF64(out, poolF64(y))
	case executor.Float64:
		y := make([]float64, out.Numel())
		poolAdaptiveAvgPlanes(&g, loadF64(in), y)
		storeF64(out, y)
	default:
		y := make([]int64, out.Numel())
		poolAdaptiveAvgPlanes(&g, loadI64(in), y)
		storeI64(out, y)
	}
	return nil
}

type poolAdaptiveGeom struct{ planes, ih, iw, oh, ow int }

// poolAdaptiveStart and poolAdaptiveEnd bound output cell a of b over an input of size c (exact
// integer forms of floor(a*c/b) and ceil((a+1)*c/b)).
func poolAdaptiveStart(a, b, c int) int { return (a/b)*c + ((a%b)*c)/b }
func poolAdaptiveEnd(a, b, c int) int   { return 1 + ((a+1)*c-1)/b }

func poolAdaptiveAvgPlanes[T float32 | float64 | int64](g *poolAdaptiveGeom, x, y []T) {
	e := 0
	for p := 0; p < g.planes; p++ {
		plane := x[p*g.ih*g.iw : (p+1)*g.ih*g.iw]
		for oh := 0; oh < g.oh; oh++ {
			h0, h1 := poolAdaptiveStart(oh, g.oh, g.ih), poolAdaptiveEnd(oh, g.oh, g.ih)
			for ow := 0; ow < g.ow; ow++ {
				w0, w1 := poolAdaptiveStart(ow, g.ow, g.iw), poolAdaptiveEnd(ow, g.ow, g.iw)
				var sum T
				for h := h0; h < h1; h++ {
					for _, v := range plane[h*g.iw+w0 : h*g.iw+w1] {
						sum += v
					}
				}
				var z T
				if _, isInt := any(z).(int64); isInt {
					y[e] = sum / T((h1-h0)*(w1-w0))
				} else {
					y[e] = sum / T(h1-h0) / T(w1-w0)
				}
				e++
			}
		}
	}
}
