package portable

import (
	"fmt"
	"math"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::max_pool2d_with_indices.out", DTypes: realTypes, Fn: maxPool2dWithIndicesOut})
}

// aten::max_pool2d_with_indices.out(Tensor self, int[2] kernel_size, int[2] stride=[],
// int[2] padding=0, int[2] dilation=1, bool ceil_mode=False, *, Tensor(a!) out,
// Tensor(b!) indices), then the TensorList return slot [out, indices].
//
// Each window's maximum and its index h*W+w in the input plane; the first maximum wins ties.
// NaN as ExecuTorch's kernel, not PyTorch: a NaN at the window's first tap stays, a later NaN
// never wins. A window with no element inside the input (a dilated window stepping over it)
// gives 0 at index 0, as ExecuTorch's kernel does (PyTorch gives the dtype's lowest value,
// -Inf for floats).
func maxPool2dWithIndicesOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxMaxPool2dWithIndicesOut(args)
	if err != nil {
		return err
	}
	return maxPoolWithIndices(a, 2, false)
}

// maxPoolWithIndices is max_pool{n}d_with_indices.out (n = 2 or 3, whose arguments match), with
// PyTorch's NaN and empty-window rules when eager, ExecuTorch's otherwise (see maxPoolVolumes).
func maxPoolWithIndices(a maxPool2dWithIndicesOutArgs, n int, eager bool) error {
	op := fmt.Sprintf("max_pool%dd", n)
	in, out, indices := a.Self, a.Out, a.Indices
	w, err := poolWindowArgs(a.KernelSize, a.Stride, a.Padding, a.Dilation, a.CeilMode, 1, op, n)
	if err != nil {
		return err
	}
	if err := poolDtype(in, op+"_with_indices", realTypes); err != nil {
		return err
	}
	if err := poolSameDtype(in, out, "out"); err != nil {
		return err
	}
	if indices.ScalarType() != executor.Int64 {
		return unbox.ArgError(7, "indices", "want Int64, got %s", executor.DTypeName(indices.ScalarType()))
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
	return maxPoolRun(in, out, indices, w, sizes, eager)
}

// maxPoolRun pools in into out and indices (already sized) with the window w: 2-d as
// ExecuTorch's max_pool2d_with_indices (eager false), 3-d as PyTorch's max_pool3d_with_indices
// (eager true).
func maxPoolRun(in, out, indices *executor.Tensor, w poolWindow, sizes []int, eager bool) error {
	g := maxPoolGeom{w: w.as3d(), eager: eager}
	g.volumes, g.id, g.ih, g.iw = poolVolumes(in.Sizes(), w.n)
	_, g.od, g.oh, g.ow = poolVolumes(sizes, w.n)
	var idx []int64
	if indices.IsContiguous() {
		idx = executor.Data[int64](indices)
	} else {
		idx = make([]int64, indices.Numel())
		defer storeI64(indices, idx)
	}
	st := in.ScalarType()
	switch {
	case st == executor.Float32 && in.IsContiguous() && out.IsContiguous():
		maxPoolVolumes(&g, executor.Data[float32](in), executor.Data[float32](out), idx, float32(math.Inf(-1)))
	case isFloat(st):
		y := make([]float64, out.Numel())
		maxPoolVolumes(&g, loadF64(in), y, idx, math.Inf(-1))
		storeF64(out, y)
	default:
		_, lowest := poolLowest(st)
		y := make([]int64, out.Numel())
		maxPoolVolumes(&g, loadI64(in), y, idx, lowest)
		storeI64(out, y)
	}
	return nil
}

type maxPoolGeom struct {
	w                               poolWindow // 3-d
	volumes, id, ih, iw, od, oh, ow int
	eager                           bool // PyTorch's NaN and empty-window rules, not ExecuTorch's
}

// maxPoolVolumes max-pools contiguous volumes x into y and idx (indices into each volume).
//
// ExecuTorch's rules (eager false): the window's first tap starts the maximum and a later tap
// replaces it only when it compares greater, so a NaN first tap stays and a later NaN never
// wins (PyTorch eager: NaN whenever any tap is); a window with no tap inside the input gives 0
// at index 0. PyTorch's (eager true): the maximum starts at lowest and a NaN always replaces
// it (the last NaN of the window wins); an empty window gives lowest at the index of its first
// position clipped to the input's start, as PyTorch's CPU kernel.
func maxPoolVolumes[T float32 | float64 | int64](g *maxPoolGeom, x, y []T, idx []int64, lowest T) {
	kd, kh, kw, sd, sh, sw := g.w.k[0], g.w.k[1], g.w.k[2], g.w.s[0], g.w.s[1], g.w.s[2]
	pd, ph, pw, dd, dh, dw := g.w.p[0], g.w.p[1], g.w.p[2], g.w.d[0], g.w.d[1], g.w.d[2]
	hw := g.ih * g.iw
	e := 0
	for p := 0; p < g.volumes; p++ {
		vol := x[p*g.id*hw : (p+1)*g.id*hw]
		for od := 0; od < g.od; od++ {
			d0 := od*sd - pd
			d1 := min(d0+(kd-1)*dd+1, g.id)
			for d0 < 0 {
				d0 += dd
			}
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
					switch {
					case g.eager:
						bestAt = d0*hw + h0*g.iw + w0
					case d0 < d1 && h0 < h1 && w0 < w1:
						bestAt = d0*hw + h0*g.iw + w0
						best = vol[bestAt]
					}
					for d := d0; d < d1; d += dd {
						for h := h0; h < h1; h += dh {
							for c := w0; c < w1; c += dw {
								at := d*hw + h*g.iw + c
								if v := vol[at]; v > best || (g.eager && v != v) {
									best, bestAt = v, at
								}
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
}
