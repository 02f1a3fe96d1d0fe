package portable

import (
	"slices"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::max_pool2d_with_indices_backward.grad_input", DTypes: floatTypes, Fn: maxPool2dWithIndicesBackward})
}

// aten::max_pool2d_with_indices_backward.grad_input(Tensor grad_output, Tensor self,
// int[2] kernel_size, int[2] stride, int[2] padding, int[2] dilation, bool ceil_mode,
// Tensor indices, *, Tensor(a!) grad_input).
//
// The gradient of max_pool2d_with_indices: grad_input has self's sizes and, in each plane,
// grad_input[indices[o]] accumulates grad_output[o] over the pooled positions o (in order,
// rounding each sum to the dtype); an index of -1 contributes nothing. The window arguments
// only validate the shapes: grad_output and indices (Int64) must have the pooled sizes of
// self. Floating dtypes, as ExecuTorch. Every index is checked against the plane (ExecuTorch
// does not), and grad_input is zeroed first, as PyTorch does (ExecuTorch's kernel adds to the
// tensor's previous contents).
func maxPool2dWithIndicesBackward(ctx *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxMaxPool2dWithIndicesBackwardGradInput(args)
	if err != nil {
		return err
	}
	gradOut, in, indices, gradIn := a.GradOutput, a.Self, a.Indices, a.GradInput
	w, err := poolWindowArgs(a.KernelSize, a.Stride, a.Padding, a.Dilation, a.CeilMode, 2, "max_pool2d", 2)
	if err != nil {
		return err
	}
	dt := in.ScalarType()
	if !isFloat(dt) {
		return unbox.ArgError(1, "self", "max_pool2d_with_indices_backward supports floating dtypes, got %s", executor.DTypeName(dt))
	}
	if err := reduceSameDtype(gradOut, dt, 0, "grad_output"); err != nil {
		return err
	}
	if err := reduceSameDtype(gradIn, dt, 8, "grad_input"); err != nil {
		return err
	}
	if indices.ScalarType() != executor.Int64 {
		return unbox.ArgError(7, "indices", "want Int64, got %s", executor.DTypeName(indices.ScalarType()))
	}
	sizes, err := poolShape(in, &w)
	if err != nil {
		return err
	}
	if !slices.Equal(gradOut.Sizes(), sizes) {
		return unbox.ArgError(0, "grad_output", "sizes %v, want the pooled sizes %v", gradOut.Sizes(), sizes)
	}
	if !slices.Equal(indices.Sizes(), sizes) {
		return unbox.ArgError(7, "indices", "sizes %v, want the pooled sizes %v", indices.Sizes(), sizes)
	}
	if err := reduceResizeNamed(gradIn, in.Sizes(), "grad_input"); err != nil {
		return err
	}
	planes, ih, iw := poolPlanes(in.Sizes())
	_, oh, ow := poolPlanes(sizes)
	idx, g := loadI64(indices), loadF64(gradOut)
	for i, v := range idx {
		if v != -1 && (v < 0 || v >= int64(ih*iw)) {
			return unbox.ArgError(7, "indices", "index %d at element %d is outside the %dx%d plane", v, i, ih, iw)
		}
	}
	y := make([]float64, gradIn.Numel())
	for p := 0; p < planes; p++ {
		base, obase := p*ih*iw, p*oh*ow
		for o := obase; o < obase+oh*ow; o++ {
			if idx[o] >= 0 {
				k := base + int(idx[o])
				y[k] = roundTo(dt, y[k]+g[o])
			}
		}
	}
	storeF64(gradIn, y)
	return nil
}
