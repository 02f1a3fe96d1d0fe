package passes

import (
	"fmt"

	"github.com/etgo/etgo/ir"
)

// Batch normalisation and dropout front ends: batch_norm as ATen's composite dispatches it
// under export, native_batch_norm, and the dropouts (ATen's _dropout_impl, torch's dropout
// decomposition), which are the identity outside training and draw random numbers inside it.

func init() {
	registerRule(batchNorm, "aten.batch_norm.default")
	registerRule(nativeBatchNorm, "aten.native_batch_norm.default")
	registerRule(dropout, "aten.dropout.default")
	registerRule(dropoutImpl(false, false), "aten.feature_dropout.default")
	registerRule(dropoutImpl(false, true), "aten.alpha_dropout.default")
	registerRule(dropoutImpl(true, true), "aten.feature_alpha_dropout.default")
}

// optTensor is the named optional tensor argument (nil for None or absent).
func optTensor(n *ir.Node, name string) *ir.Value {
	if v := n.TensorArg(name); v != nil && v.Meta != nil {
		return v
	}
	return nil
}

func optArg(name string, v *ir.Value) ir.Arg {
	if v == nil {
		return None(name)
	}
	return T(name, v)
}

// normInput is the input of a batch norm or dropout node ("input"; functionalised in-place
// forms name it "self").
func normInput(n *ir.Node) (*ir.Value, error) {
	if v := optTensor(n, "input"); v != nil {
		return v, nil
	}
	if v := optTensor(n, "self"); v != nil {
		return v, nil
	}
	return nil, fmt.Errorf("%s: no input tensor", n.Target)
}

// batchNormStats emits batch norm of x: in inference with running statistics
// _native_batch_norm_legit_no_training (its saved statistics empty), in training without them
// _native_batch_norm_legit.no_stats. Training with running statistics updates them in place,
// which functionalises to _native_batch_norm_legit_functional: not in the Edge dialect (the
// official conversion refuses it too).
func batchNormStats(b *Builder, n *ir.Node, x, w, bias, mean, variance *ir.Value, training bool) []*ir.Value {
	momentum, eps := F("momentum", n.ScalarArg("momentum", 0.1)), F("eps", n.ScalarArg("eps", 1e-5))
	switch {
	case !training && mean != nil && variance != nil:
		return b.CallN("aten._native_batch_norm_legit_no_training.default", T("input", x), optArg("weight", w), optArg("bias", bias),
			T("running_mean", mean), T("running_var", variance), momentum, eps)
	case training && mean == nil && variance == nil:
		return b.CallN("aten._native_batch_norm_legit.no_stats", T("input", x), optArg("weight", w), optArg("bias", bias),
			Bo("training", true), momentum, eps)
	case training:
		b.Fail("training-mode batch norm updating running statistics (_native_batch_norm_legit_functional is not in the Edge dialect); export the model in eval mode")
	default:
		b.Fail("batch norm in inference without running statistics")
	}
	return nil
}

// batch_norm(x, w, b, mean, var, training, momentum, eps, cudnn): an empty x is cloned (scaled
// by w[0] and shifted by b[0] when given); otherwise batch norm proper.
func batchNorm(b *Builder, n *ir.Node) error {
	x, err := normInput(n)
	if err != nil {
		return err
	}
	w, bias := optTensor(n, "weight"), optTensor(n, "bias")
	if total, ok := numel(x.Meta.Sizes); ok && total == 0 {
		out := b.Call("aten.clone.default", T("self", x))
		if w != nil {
			out = b.Call("aten.mul.Tensor", T("self", out), T("other", b.Call("aten.select.int", T("self", w), I("dim", 0), I("index", 0))))
		}
		if bias != nil {
			out = b.Call("aten.add.Tensor", T("self", out), T("other", b.Call("aten.select.int", T("self", bias), I("dim", 0), I("index", 0))))
		}
		return b.Replace(out)
	}
	outs := batchNormStats(b, n, x, w, bias, optTensor(n, "running_mean"), optTensor(n, "running_var"), n.BoolArg("training", false))
	if b.Err() != nil {
		return b.Err()
	}
	return b.Replace(outs[0])
}

// native_batch_norm returns all three results of the batch norm proper.
func nativeBatchNorm(b *Builder, n *ir.Node) error {
	x, err := normInput(n)
	if err != nil {
		return err
	}
	outs := batchNormStats(b, n, x, optTensor(n, "weight"), optTensor(n, "bias"), optTensor(n, "running_mean"),
		optTensor(n, "running_var"), n.BoolArg("training", false))
	if b.Err() != nil {
		return b.Err()
	}
	return b.Replace(outs...)
}

// dropout(x, p, train) is native_dropout(x, p, train)[0] in training with p ≠ 0, else x.
func dropout(b *Builder, n *ir.Node) error {
	x, err := normInput(n)
	if err != nil {
		return err
	}
	p := n.ScalarArg("p", 0.5)
	if !n.BoolArg("train", true) || p == 0 {
		return b.Replace(x)
	}
	outs := b.CallN("aten.native_dropout.default", T("input", x), F("p", p), Bo("train", true))
	if b.Err() != nil {
		return b.Err()
	}
	return b.Replace(outs[0])
}

// dropoutImpl is ATen's _dropout_impl for feature and alpha dropout: the identity when p is 0,
// outside training or for an empty input; x times a 0-d zero when p is 1; otherwise a bernoulli
// draw, which no Edge operator makes.
func dropoutImpl(_, alpha bool) rule {
	return func(b *Builder, n *ir.Node) error {
		x, err := normInput(n)
		if err != nil {
			return err
		}
		p := n.ScalarArg("p", 0.5)
		total, ok := numel(x.Meta.Sizes)
		if p == 0 || !n.BoolArg("train", true) || (ok && total == 0) {
			return b.Replace(x)
		}
		if p == 1 {
			zero := b.Call("aten.full.default", append([]ir.Arg{Is("size"), I("fill_value", 0)}, creationKwargs(&ir.Node{}, x.Meta.DType)...)...)
			return b.Replace(b.Call("aten.mul.Tensor", T("self", x), T("other", zero)))
		}
		kind := "feature dropout"
		if alpha {
			kind = "alpha dropout"
		}
		return fmt.Errorf("training-mode %s with p=%g draws a bernoulli mask, which the Edge dialect has no operator for; export the model in eval mode", kind, p)
	}
}
