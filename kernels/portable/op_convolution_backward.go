package portable

import (
	"slices"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::convolution_backward.out", DTypes: floatTypes, Fn: convolutionBackwardOut})
}

// aten::convolution_backward.out(Tensor grad_output, Tensor input, Tensor weight,
// SymInt[]? bias_sizes, SymInt[] stride, SymInt[] padding, SymInt[] dilation, bool transposed,
// SymInt[] output_padding, SymInt groups, bool[3] output_mask, *, Tensor(a!) out0,
// Tensor(b!) out1, Tensor(c!) out2); the call ends with the TensorList return slot.
//
// The gradients of a 2-D convolution (input [N,C,H,W], weight [OC,C/groups,KH,KW], stride,
// padding, dilation and groups as convolution.out) given grad_output [N,OC,OH,OW]: out0 =
// grad_input (input's sizes), out1 = grad_weight (weight's sizes), out2 = grad_bias ([OC],
// bias_sizes when given, which must be [OC]), each computed only when its output_mask entry
// is true (the others are left untouched). As ExecuTorch's portable kernel, which etgo
// follows: transposed and 1-D convolutions are refused, the dtypes are floating and shared
// by every tensor, and the sums run directly over (batch, group, output row, output column,
// output channel, input channel, kernel row, kernel column) in the dtype's precision,
// rounding each product and sum, so results can differ from PyTorch's in the last bits.
func convolutionBackwardOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxConvolutionBackwardOut(args)
	if err != nil {
		return err
	}
	gradOut, in, w, biasSizes, hasBiasSizes := a.GradOutput, a.Input, a.Weight, a.BiasSizes.Val, a.BiasSizes.OK
	lists := [4][]int64{a.Stride, a.Padding, a.Dilation, a.OutputPadding}
	transposed, groups, mask := a.Transposed, a.Groups, a.OutputMask
	outs := [3]*executor.Tensor{a.Out0, a.Out1, a.Out2}
	if len(mask) != 3 {
		return unbox.ArgError(10, "output_mask", "want 3 values, got %d", len(mask))
	}
	if transposed {
		return unbox.ArgError(7, "transposed", "transposed convolution backward is not supported (as in ExecuTorch)")
	}
	if w.Dim() != 4 {
		return unbox.ArgError(2, "weight", "only 2-D convolution backward is supported (a 4-D weight), got sizes %v", w.Sizes())
	}
	dt := in.ScalarType()
	if !isFloat(dt) {
		return unbox.ArgError(1, "input", "convolution_backward supports floating dtypes, got %s", executor.DTypeName(dt))
	}
	if err := reduceSameDtype(w, dt, 2, "weight"); err != nil {
		return err
	}
	if err := reduceSameDtype(gradOut, dt, 0, "grad_output"); err != nil {
		return err
	}
	for k := range outs {
		if mask[k] {
			if err := reduceSameDtype(outs[k], dt, 11+k, []string{"out0", "out1", "out2"}[k]); err != nil {
				return err
			}
		}
	}
	g, err := convolutionGeometry(in, w, nil, lists[0], lists[1], lists[2], false, lists[3], groups, 1)
	if err != nil {
		return err
	}
	if want := []int{g.n, g.oc, g.oh, g.ow}; !slices.Equal(gradOut.Sizes(), want) {
		return unbox.ArgError(0, "grad_output", "sizes %v, want the convolution's output sizes %v", gradOut.Sizes(), want)
	}
	biasShape := []int{g.oc}
	if hasBiasSizes {
		if len(biasSizes) != 1 || biasSizes[0] != int64(g.oc) {
			return unbox.ArgError(3, "bias_sizes", "%v, want [%d] (the output channels)", biasSizes, g.oc)
		}
	}
	for k, sizes := range [][]int{in.Sizes(), w.Sizes(), biasShape} {
		if mask[k] {
			if err := reduceResizeNamed(outs[k], sizes, []string{"out0", "out1", "out2"}[k]); err != nil {
				return err
			}
		}
	}
	r := func(v float64) float64 { return roundTo(dt, v) }
	x, wt, gy := loadF64(in), loadF64(w), loadF64(gradOut)
	var gx, gw, gb []float64
	if mask[0] {
		gx = make([]float64, len(x))
	}
	if mask[1] {
		gw = make([]float64, len(wt))
	}
	if mask[2] {
		gb = make([]float64, g.oc)
	}
	icg, ocg := g.c/g.groups, g.oc/g.groups
	for b := 0; b < g.n; b++ {
		for gr := 0; gr < g.groups; gr++ {
			for h := 0; h < g.oh; h++ {
				for wo := 0; wo < g.ow; wo++ {
					for oc := gr * ocg; oc < (gr+1)*ocg; oc++ {
						gv := gy[((b*g.oc+oc)*g.oh+h)*g.ow+wo]
						if gb != nil {
							gb[oc] = r(gb[oc] + gv)
						}
						for ic := 0; ic < icg; ic++ {
							icGlobal := gr*icg + ic
							for kh := 0; kh < g.kh; kh++ {
								ih := h*g.sh - g.ph + kh*g.dh
								if ih < 0 || ih >= g.h {
									continue
								}
								for kw := 0; kw < g.kw; kw++ {
									iw := wo*g.sw - g.pw + kw*g.dw
									if iw < 0 || iw >= g.w {
										continue
									}
									xi := ((b*g.c+icGlobal)*g.h+ih)*g.w + iw
									wi := ((oc*icg+ic)*g.kh+kh)*g.kw + kw
									if gx != nil {
										gx[xi] = r(gx[xi] + r(gv*wt[wi]))
									}
									if gw != nil {
										gw[wi] = r(gw[wi] + r(gv*x[xi]))
									}
								}
							}
						}
					}
				}
			}
		}
	}
	for k, v := range [][]float64{gx, gw, gb} {
		if v != nil {
			storeF64(outs[k], v)
		}
	}
	return nil
}
