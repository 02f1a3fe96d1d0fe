package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(executor.Kernel{Name: "aten::avg_pool3d.out", DTypes: avgPool2dTypes, Fn: avgPool3dOut})
}

// aten::avg_pool3d.out(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0,
// bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None, *,
// Tensor(a!) out).
//
// Beyond the official runtime, which has no kernel for it (s3d, among torchvision's video
// models, needs it): self is [C, D, H, W] or [N, C, D, H, W], no smaller than the kernel in any
// dimension (as PyTorch checks, padding or not). As PyTorch's CPU kernel: each window's sum,
// taken depth by depth and row by row, is divided by divisor_override, or by the window's size
// clipped to the padded input (count_include_pad) or to the input. Float32 accumulates in
// float32, Float64 in float64, Int64 in int64 with truncating division; Float16 and BFloat16,
// which PyTorch's CPU kernel refuses, accumulate in float32 as avg_pool2d does.
func avgPool3dOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxAvgPool3dOut(args)
	if err != nil {
		return err
	}
	return avgPool(a, 3)
}
