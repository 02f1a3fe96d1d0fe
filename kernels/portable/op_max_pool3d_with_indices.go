package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(executor.Kernel{Name: "aten::max_pool3d_with_indices.out", DTypes: realTypes, Fn: maxPool3dWithIndicesOut})
}

// aten::max_pool3d_with_indices.out(Tensor self, int[3] kernel_size, int[3] stride=[],
// int[3] padding=0, int[3] dilation=1, bool ceil_mode=False, *, Tensor(a!) out,
// Tensor(b!) indices), then the TensorList return slot [out, indices].
//
// Beyond the official runtime, which has no kernel for it (s3d and mvit, among torchvision's
// video models, need it): self is [C, D, H, W] or [N, C, D, H, W], and each window's maximum
// and its index (d*H + h)*W + w in the input volume are PyTorch's CPU kernel's: the first
// maximum wins ties, a NaN wins over numbers (the last NaN of the window), and a window with no
// element inside the input gives the dtype's lowest value (-Inf for floats) at the index of its
// first position, clipped to the input's start.
func maxPool3dWithIndicesOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxMaxPool3dWithIndicesOut(args)
	if err != nil {
		return err
	}
	return maxPoolWithIndices(a, 3, true)
}
