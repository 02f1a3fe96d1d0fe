package portable

import (
	"fmt"
	"math"

	"github.com/etgo/etgo/runtime"
)

func init() {
	register(runtime.Kernel{Name: "aten::max_pool2d_with_indices.out", DTypes: realTypes, Fn: maxPool2dWithIndicesOut})
}

// aten::max_pool2d_with_indices.out(Tensor self, int[2] kernel_size, int[2] stride=[],
// int[2] padding=0, int[2] dilation=1, bool ceil_mode=False, *, Tensor(a!) out,
// Tensor(b!) indices), then the TensorList return slot [out, indices].
//
// Each window's maximum and its index h*W+w in the input plane; the first maximum wins ties and
// a NaN wins over numbers (the last NaN of the window), as in PyTorch. A window with no element
// inside the input (a dilated window stepping over it) gives 0 at index 0, as ExecuTorch's
// kernel does (PyTorch gives the dtype's lowest value, -Inf for floats).
func maxPool2dWithIndicesOut(ctx *runtime.KernelContext, args []*runtime.EValue) error {
	if err := wantArgs(args, 9); err != nil {
		return err
	}
	in, err := tensorArg(args, 0, "self")
	if err != nil {
		return err
	}
	w, err := poolWindowArgs(args, 1, "max_pool2d")
	if err != nil {
		return err
	}
	out, err := tensorArg(args, 6, "out")
	if err != nil {
		return err
	}
	indices, err := tensorArg(args, 7, "indices")
	if err != nil {
		return err
	}
	if err := poolDtype(in, "max_pool2d_with_indices", realTypes); err != nil {
		return err
	}
	if err := poolSameDtype(in, out, "out"); err != nil {
		return err
	}
	if indices.ScalarType() != runtime.Int64 {
		return argErr(7, "indices", "want Int64, got %s", runtime.DTypeName(indices.ScalarType()))
	}
	sizes, err := poolShape(in, &w)
	if err != nil {
		return err
	}
	if err := resize(out, sizes); err != nil {
		return err
	}
	if err := indices.Resize(sizes); err != nil {
		return fmt.Errorf("indices: %w", err)
	}
	g := maxPoolGeom{w: w}
	g.planes, g.ih, g.iw = poolPlanes(in.Sizes())
	_, g.oh, g.ow = poolPlanes(sizes)
	var idx []int64
	if indices.IsContiguous() {
		idx = runtime.Data[int64](indices)
	} else {
		idx = make([]int64, indices.Numel())
		defer storeI64(indices, idx)
	}
	st := in.ScalarType()
	switch {
	case st == runtime.Float32 && in.IsContiguous() && out.IsContiguous():
		maxPoolPlanes(&g, runtime.Data[float32](in), runtime.Data[float32](out), idx, float32(math.Inf(-1)))
	case isFloat(st):
		y := make([]float64, out.Numel())
		maxPoolPlanes(&g, loadF64(in), y, idx, math.Inf(-1))
		storeF64(out, y)
	default:
		_, lowest := poolLowest(st)
		y := make([]int64, out.Numel())
		maxPoolPlanes(&g, loadI64(in), y, idx, lowest)
		storeI64(out, y)
	}
	return nil
}

type maxPoolGeom struct {
	w                      poolWindow
	planes, ih, iw, oh, ow int
}

// maxPoolPlanes max-pools contiguous planes x into y and idx.
func maxPoolPlanes[T float32 | float64 | int64](g *maxPoolGeom, x, y []T, idx []int64, lowest T) {
	kh, kw, sh, sw := g.w.k[0], g.w.k[1], g.w.s[0], g.w.s[1]
	ph, pw, dh, dw := g.w.p[0], g.w.p[1], g.w.d[0], g.w.d[1]
	e := 0
	for p := 0; p < g.planes; p++ {
		plane := x[p*g.ih*g.iw : (p+1)*g.ih*g.iw]
		for oh := 0; oh < g.oh; oh++ {
			h0 := oh*sh - ph
			h1 := min(h0+(kh-1)*dh+1, g.ih)
			for h0 < 0 {
				h0 += dh
			}
			for ow := 0; ow < g.ow; ow++ {
				w0 := ow*sw - pw
				w1 := min(w0+(kw-1)*dw+1, g.iw)
				for w0 < 0 {
					w0 += dw
				}
				best, bestAt := lowest, -1
				if h0 < h1 && w0 < w1 {
					// The official kernel starts from the window's first tap and takes a later
					// one only when it compares greater: a NaN first tap stays, a later NaN
					// never wins (PyTorch eager: NaN whenever any tap is).
					bestAt = h0*g.iw + w0
					best = plane[bestAt]
				}
				for h := h0; h < h1; h += dh {
					for c := w0; c < w1; c += dw {
						at := h*g.iw + c
						if v := plane[at]; v > best {
							best, bestAt = v, at
						}
					}
				}
				if bestAt < 0 {
					best, bestAt = 0, 0
				}
				y[e], idx[e] = best, int64(bestAt)
				e++
			}
		}
	}
}
