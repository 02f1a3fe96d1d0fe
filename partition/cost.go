package partition

import (
	"strings"

	"github.com/etgo/etgo/ir"
)

// FLOPs estimates the floating-point operations a node performs once, from its shapes (symbolic
// dims at their trace-time sizes): 2·M·N·K for products, 2 per multiply-accumulate for
// convolutions, a window's worth per output for pooling, a few per element for normalisations,
// and one per output element for the rest. Views and shape changes cost nothing; copies cost one
// per element. It is the weight delegation coverage is measured with: what matters is the share
// of the work a backend takes, not the share of nodes.
func FLOPs(n *ir.Node) int64 {
	out := outNumel(n)
	in := func(name string) *ir.TensorMeta {
		if v := n.TensorArg(name); v != nil {
			return v.Meta
		}
		return nil
	}
	switch n.Target {
	case "aten.convolution.default":
		w := in("weight")
		if w == nil || len(w.Sizes) < 2 {
			return out
		}
		macs := int64(1) // per output element: input channels per group × kernel window
		for _, d := range w.Sizes[1:] {
			macs *= d.Size
		}
		return 2 * out * macs
	case "aten.addmm.default", "aten.mm.default", "aten.linear.default", "aten.bmm.default":
		a := in("mat1")
		if a == nil {
			a = in("self")
		}
		if a == nil {
			a = in("input")
		}
		if a == nil || len(a.Sizes) == 0 {
			return out
		}
		return 2 * out * a.Sizes[len(a.Sizes)-1].Size // every output element sums K products
	case "aten.max_pool2d_with_indices.default", "aten.avg_pool2d.default", "aten.max_pool2d.default":
		k := n.IntsArg("kernel_size", nil)
		win := int64(1)
		for _, x := range k {
			win *= x
		}
		if len(k) == 1 {
			win *= k[0]
		}
		return out * win
	case "aten._native_batch_norm_legit_no_training.default":
		return 2 * out
	case "aten.native_layer_norm.default", "aten._softmax.default", "aten._log_softmax.default":
		return 5 * out
	case "aten.mean.dim", "aten.sum.dim_IntList", "aten.amax.default", "aten.amin.default",
		"aten.max.dim", "aten.min.dim", "aten._adaptive_avg_pool2d.default", "aten.var.correction":
		if m := in("self"); m != nil {
			return numel(m)
		}
		if m := in("input"); m != nil {
			return numel(m)
		}
		return out
	}
	if isShapeOnly(n.Target) {
		return 0
	}
	return out
}

// isShapeOnly reports operators that only describe a tensor differently (ExecuTorch runs static
// views without a kernel) or compute on sizes, not tensors.
func isShapeOnly(target string) bool {
	for _, p := range []string{"aten.view_copy.", "aten.view.", "aten.squeeze_copy.", "aten.unsqueeze_copy.",
		"aten.squeeze.", "aten.unsqueeze.", "aten.alias_copy.", "aten.sym_size.", "aten.scalar_tensor.",
		"_operator.", "math.", "builtins.", "torch.sym_"} {
		if strings.HasPrefix(target, p) {
			return true
		}
	}
	return false
}

func outNumel(n *ir.Node) int64 {
	var total int64
	for _, v := range n.Outputs {
		if v != nil && v.Kind == ir.TensorValue && v.Meta != nil {
			total += numel(v.Meta)
		}
	}
	return total
}

func numel(m *ir.TensorMeta) int64 {
	p := int64(1)
	for _, d := range m.Sizes {
		p *= d.Size
	}
	return p
}
