package passes

import (
	"fmt"
	"math"

	"github.com/etgo/etgo/ir"
)

// Loss functions and distances, as torch's decomposition table (torch/_decomp, torch/_refs/nn)
// or, for the composite ones it leaves to ATen (l1_loss, kl_div, poisson_nll_loss,
// margin_ranking_loss, cross_entropy_loss, nll_loss_nd, pairwise_distance, triplet_margin_loss,
// cosine_similarity), their C++ code writes them. Reductions are ints: 0 none, 1 mean, 2 sum.

func init() {
	registerRule(mseLoss, "aten.mse_loss.default")
	registerRule(l1Loss, "aten.l1_loss.default")
	registerRule(smoothL1Loss, "aten.smooth_l1_loss.default")
	registerRule(huberLoss, "aten.huber_loss.default")
	registerRule(softMarginLoss, "aten.soft_margin_loss.default")
	registerRule(marginRankingLoss, "aten.margin_ranking_loss.default")
	registerRule(klDiv, "aten.kl_div.default")
	registerRule(poissonNLLLoss, "aten.poisson_nll_loss.default")
	registerRule(binaryCrossEntropy, "aten.binary_cross_entropy.default")
	registerRule(bceWithLogits, "aten.binary_cross_entropy_with_logits.default")
	registerRule(multiMarginLoss, "aten.multi_margin_loss.default")
	registerRule(multilabelMarginLoss, "aten.multilabel_margin_loss.default")
	registerRule(nllLossForward, "aten.nll_loss_forward.default", "aten.nll_loss2d_forward.default")
	registerRule(nllLoss, "aten.nll_loss.default", "aten.nll_loss2d.default")
	registerRule(nllLossND, "aten.nll_loss_nd.default")
	registerRule(crossEntropyLoss, "aten.cross_entropy_loss.default")
	registerRule(pairwiseDistance, "aten.pairwise_distance.default")
	registerRule(tripletMarginLoss, "aten.triplet_margin_loss.default")
	registerRule(cosineSimilarity, "aten.cosine_similarity.default")
	registerRule(pdist, "aten.pdist.default")
	registerRule(cdist, "aten.cdist.default")
}

const (
	reductionNone = 0
	reductionMean = 1
	reductionSum  = 2
)

// reduceLoss is apply_loss_reduction: mean, the sum over every dim, or the loss itself.
func reduceLoss(b *Builder, loss *ir.Value, reduction int64) *ir.Value {
	switch reduction {
	case reductionMean:
		return b.Call("aten.mean.default", T("self", loss))
	case reductionSum:
		return sumAll(b, loss)
	}
	return loss
}

// sumAll is x.sum(), which decomposes to sum.dim_IntList over dim=[].
func sumAll(b *Builder, x *ir.Value) *ir.Value {
	return b.Call("aten.sum.dim_IntList", T("self", x), Is("dim"))
}

// reductionOf is the node's reduction (mean by default), or an error for an unknown one.
func reductionOf(n *ir.Node) (int64, error) {
	r := n.IntArg("reduction", reductionMean)
	if r < reductionNone || r > reductionSum {
		return 0, fmt.Errorf("%s: reduction %d", n.Target, r)
	}
	return r, nil
}

// opmathCast is pw_cast_for_opmath: every tensor converted to the computation type of their
// promoted type, the result converted back to that type.
func opmathCast(b *Builder, vs ...*ir.Value) ([]*ir.Value, ir.DType) {
	var args []ir.Arg
	for _, v := range vs {
		if v != nil {
			args = append(args, T("", v))
		}
	}
	compute, result := elementwiseTypes(promoteDefault, args...)
	return promoteOperandsTo(b, compute, vs...), result
}

// mse_loss = reduce((x - y)²).
func mseLoss(b *Builder, n *ir.Node) error {
	red, err := reductionOf(n)
	if err != nil {
		return err
	}
	vs, result := opmathCast(b, self(b, n), tensorArg(b, n, "target"))
	loss := b.Call("aten.pow.Tensor_Scalar", T("self", b.Call("aten.sub.Tensor", T("self", vs[0]), T("other", vs[1]))), I("exponent", 2))
	return b.Replace(convert(b, reduceLoss(b, loss, red), result))
}

// l1_loss (ATen) = reduce(|x - y|).
func l1Loss(b *Builder, n *ir.Node) error {
	red, err := reductionOf(n)
	if err != nil {
		return err
	}
	x, y := self(b, n), tensorArg(b, n, "target")
	loss := b.Call("aten.abs.default", T("self", b.Call("aten.sub.Tensor", T("self", x), T("other", y))))
	return b.Replace(reduceLoss(b, loss, red))
}

// smooth_l1_loss = reduce(where(|x-y| < β, 0.5 |x-y|² / β, |x-y| - 0.5 β)).
func smoothL1Loss(b *Builder, n *ir.Node) error {
	red, err := reductionOf(n)
	if err != nil {
		return err
	}
	beta := n.ScalarArg("beta", 1)
	vs, result := opmathCast(b, self(b, n), tensorArg(b, n, "target"))
	z := b.Call("aten.abs.default", T("self", b.Call("aten.sub.Tensor", T("self", vs[0]), T("other", vs[1]))))
	small := b.Call("aten.lt.Scalar", T("self", z), F("other", beta))
	sq := b.Call("aten.mul.Tensor", T("self", b.Call("aten.pow.Tensor_Scalar", T("self", z), I("exponent", 2))), F("other", 0.5))
	sq = b.Call("aten.div.Tensor", T("self", sq), F("other", beta))
	lin := b.Call("aten.sub.Tensor", T("self", z), F("other", 0.5*beta))
	loss := b.Call("aten.where.self", T("condition", small), T("self", sq), T("other", lin))
	return b.Replace(convert(b, reduceLoss(b, loss, red), result))
}

// huber_loss = reduce(where(|x-y| < δ, 0.5 |x-y| |x-y|, δ (|x-y| - 0.5 δ))).
func huberLoss(b *Builder, n *ir.Node) error {
	red, err := reductionOf(n)
	if err != nil {
		return err
	}
	delta := n.ScalarArg("delta", 1)
	x, y := self(b, n), tensorArg(b, n, "target")
	if b.Err() != nil {
		return b.Err()
	}
	compute, result := elementwiseTypes(promoteDefault, T("a", x), T("b", y))
	x, y = convert(b, x, compute), convert(b, y, compute)
	z := b.Call("aten.abs.default", T("self", b.Call("aten.sub.Tensor", T("self", x), T("other", y))))
	small := b.Call("aten.lt.Scalar", T("self", z), F("other", delta))
	sq := b.Call("aten.mul.Tensor", T("self", b.Call("aten.mul.Tensor", T("self", z), F("other", 0.5))), T("other", z))
	lin := b.Call("aten.mul.Tensor", T("self", b.Call("aten.sub.Tensor", T("self", z), F("other", 0.5*delta))), F("other", delta))
	loss := b.Call("aten.where.self", T("condition", small), T("self", sq), T("other", lin))
	return b.Replace(convert(b, reduceLoss(b, loss, red), result))
}

// soft_margin_loss = reduce(log1p(exp(-x · y))).
func softMarginLoss(b *Builder, n *ir.Node) error {
	red, err := reductionOf(n)
	if err != nil {
		return err
	}
	vs, result := opmathCast(b, self(b, n), tensorArg(b, n, "target"))
	z := b.Call("aten.mul.Tensor", T("self", b.Call("aten.neg.default", T("self", vs[0]))), T("other", vs[1]))
	loss := b.Call("aten.log1p.default", T("self", b.Call("aten.exp.default", T("self", z))))
	return b.Replace(convert(b, reduceLoss(b, loss, red), result))
}

// margin_ranking_loss (ATen) = reduce(clamp_min(-y · (x1 - x2) + margin, 0)).
func marginRankingLoss(b *Builder, n *ir.Node) error {
	red, err := reductionOf(n)
	if err != nil {
		return err
	}
	x1, x2, y := tensorArg(b, n, "input1"), tensorArg(b, n, "input2"), tensorArg(b, n, "target")
	d := b.Call("aten.sub.Tensor", T("self", x1), T("other", x2))
	z := b.Call("aten.mul.Tensor", T("self", b.Call("aten.neg.default", T("self", y))), T("other", d))
	z = b.Call("aten.add.Scalar", T("self", z), F("other", n.ScalarArg("margin", 0)))
	z = b.Call("aten.clamp.default", T("self", z), I("min", 0))
	return b.Replace(reduceLoss(b, z, red))
}

// kl_div (ATen) = reduce(exp(y) · (y - x)) for a log target, else reduce(xlogy(y, y) - y · x).
func klDiv(b *Builder, n *ir.Node) error {
	red, err := reductionOf(n)
	if err != nil {
		return err
	}
	x, y := self(b, n), tensorArg(b, n, "target")
	var loss *ir.Value
	if n.BoolArg("log_target", false) {
		d := b.Call("aten.sub.Tensor", T("self", y), T("other", x))
		loss = b.Call("aten.mul.Tensor", T("self", b.Call("aten.exp.default", T("self", y))), T("other", d))
	} else {
		yx := b.Call("aten.mul.Tensor", T("self", y), T("other", x))
		loss = b.Call("aten.sub.Tensor", T("self", b.Call("aten.xlogy.Tensor", T("self", y), T("other", y))), T("other", yx))
	}
	return b.Replace(reduceLoss(b, loss, red))
}

// poisson_nll_loss (ATen): exp(x) - y·x (log input) or x - y·log(x + eps), plus Stirling's
// term y log y - y + ½ log(2πy) where y > 1 when full.
func poissonNLLLoss(b *Builder, n *ir.Node) error {
	red, err := reductionOf(n)
	if err != nil {
		return err
	}
	x, y := tensorArg(b, n, "input"), tensorArg(b, n, "target")
	var loss *ir.Value
	if n.BoolArg("log_input", true) {
		yx := b.Call("aten.mul.Tensor", T("self", y), T("other", x))
		loss = b.Call("aten.sub.Tensor", T("self", b.Call("aten.exp.default", T("self", x))), T("other", yx))
	} else {
		l := b.Call("aten.log.default", T("self", b.Call("aten.add.Scalar", T("self", x), F("other", n.ScalarArg("eps", 1e-8)))))
		loss = b.Call("aten.sub.Tensor", T("self", x), T("other", b.Call("aten.mul.Tensor", T("self", y), T("other", l))))
	}
	if n.BoolArg("full", false) {
		half := b.Call("aten.log.default", T("self", b.Call("aten.mul.Scalar", T("self", y), F("other", 2*math.Pi))))
		half = b.Call("aten.mul.Scalar", T("self", half), F("other", 0.5))
		ylogy := b.Call("aten.mul.Tensor", T("self", y), T("other", b.Call("aten.log.default", T("self", y))))
		st := b.Call("aten.add.Tensor", T("self", b.Call("aten.sub.Tensor", T("self", ylogy), T("other", y))), T("other", half))
		le := b.Call("aten.le.Scalar", T("self", y), I("other", 1))
		st = b.Call("aten.where.self", T("condition", le), T("self", scalarTensor(b, pyNumber(I("", 0), st.Meta.DType), st)), T("other", st))
		loss = b.Call("aten.add.Tensor", T("self", loss), T("other", st))
	}
	return b.Replace(reduceLoss(b, loss, red))
}

// newFull is x.new_full((), v): a 0-d tensor of x's type.
func newFull(b *Builder, x *ir.Value, v ir.Arg) *ir.Value {
	v.Name = "fill_value"
	return b.Call("aten.full.default", Is("size"), v, Dt("dtype", x.Meta.DType), layoutStrided(), deviceCPU(),
		ir.Arg{Name: "pin_memory", Kind: ir.ArgBool, KwargOnly: true})
}

// binary_cross_entropy = reduce((y - 1) · max(log1p(-x), -100) - y · max(log x, -100)), times
// the weight when given.
func binaryCrossEntropy(b *Builder, n *ir.Node) error {
	red, err := reductionOf(n)
	if err != nil {
		return err
	}
	vs, result := opmathCast(b, self(b, n), tensorArg(b, n, "target"), n.TensorArg("weight"))
	x, y, w := vs[0], vs[1], vs[2]
	if b.Err() != nil {
		return b.Err()
	}
	a := b.Call("aten.sub.Tensor", T("self", y), I("other", 1))
	l1 := b.Call("aten.log1p.default", T("self", b.Call("aten.neg.default", T("self", x))))
	a = b.Call("aten.mul.Tensor", T("self", a), T("other", b.Call("aten.maximum.default", T("self", l1), T("other", newFull(b, x, I("", -100))))))
	l2 := b.Call("aten.log.default", T("self", x))
	c := b.Call("aten.mul.Tensor", T("self", y), T("other", b.Call("aten.maximum.default", T("self", l2), T("other", newFull(b, x, I("", -100))))))
	loss := b.Call("aten.sub.Tensor", T("self", a), T("other", c))
	if w != nil {
		loss = b.Call("aten.mul.Tensor", T("self", loss), T("other", w))
	}
	return b.Replace(convert(b, reduceLoss(b, loss, red), result))
}

// binary_cross_entropy_with_logits = reduce((1 - y) · x - log_weight · logsigmoid(x)), log_weight
// (pos_weight - 1) · y + 1 when a pos_weight is given, times the weight when given.
func bceWithLogits(b *Builder, n *ir.Node) error {
	red, err := reductionOf(n)
	if err != nil {
		return err
	}
	x, y := self(b, n), tensorArg(b, n, "target")
	if b.Err() != nil {
		return b.Err()
	}
	var loss *ir.Value
	if pw := n.TensorArg("pos_weight"); pw != nil {
		lw := b.Call("aten.mul.Tensor", T("self", b.Call("aten.sub.Tensor", T("self", pw), I("other", 1))), T("other", y))
		lw = b.Call("aten.add.Tensor", T("self", lw), I("other", 1))
		a := b.Call("aten.mul.Tensor", T("self", b.Call("aten.sub.Tensor", I("self", 1), T("other", y))), T("other", x))
		ls := b.Call("aten.log_sigmoid.default", T("self", x))
		loss = b.Call("aten.sub.Tensor", T("self", a), T("other", b.Call("aten.mul.Tensor", T("self", lw), T("other", ls))))
	} else {
		a := b.Call("aten.mul.Tensor", T("self", b.Call("aten.sub.Tensor", I("self", 1), T("other", y))), T("other", x))
		loss = b.Call("aten.sub.Tensor", T("self", a), T("other", b.Call("aten.log_sigmoid.default", T("self", x))))
	}
	if w := n.TensorArg("weight"); w != nil {
		loss = b.Call("aten.mul.Tensor", T("self", loss), T("other", w))
	}
	loss = convert(b, loss, y.Meta.DType)
	return b.Replace(reduceLoss(b, loss, red))
}

// atLeast is ATen's atleast_1d/atleast_2d: a 0-d tensor reshaped to [1] or [1, 1], a vector
// unsqueezed in front for 2-d.
func atLeast(b *Builder, x *ir.Value, rank int) *ir.Value {
	if x == nil {
		return nil
	}
	switch r := len(x.Meta.Sizes); {
	case r == 0:
		return b.Call("aten.view.default", T("self", x), Is("size", repeat(1, rank)...))
	case r == 1 && rank == 2:
		return b.Call("aten.unsqueeze.default", T("self", x), I("dim", 0))
	}
	return x
}

// arangeOf is torch.arange(end) on the CPU.
func arangeOf(b *Builder, end int64) *ir.Value {
	return b.Call("aten.arange.start_step", I("start", 0), I("end", end), I("step", 1), layoutStrided(), deviceCPU(),
		ir.Arg{Name: "pin_memory", Kind: ir.ArgBool, KwargOnly: true})
}

// multi_margin_loss: z = clamp_min(margin - x[target] + x, 0) (squared for p 2), weighted,
// zero at the target class, averaged.
func multiMarginLoss(b *Builder, n *ir.Node) error {
	red, err := reductionOf(n)
	if err != nil {
		return err
	}
	x, t := atLeast(b, self(b, n), 2), atLeast(b, tensorArg(b, n, "target"), 1)
	if b.Err() != nil {
		return b.Err()
	}
	p := n.ScalarArg("p", 1)
	if p != 1 && p != 2 {
		return fmt.Errorf("multi_margin_loss with p %v", p)
	}
	if len(x.Meta.Sizes) != 2 || !x.Meta.Sizes[1].IsStatic() {
		return fmt.Errorf("multi_margin_loss of %s", x.Meta)
	}
	dim := x.Meta.Sizes[1].Size
	var w *ir.Value
	if wt := n.TensorArg("weight"); wt != nil {
		w = atLeast(b, wt, 1)
	}
	t1 := t
	t = b.Call("aten.unsqueeze.default", T("self", t), I("dim", 1))
	u := b.Call("aten.gather.default", T("self", x), I("dim", 1), T("index", t))
	z := b.Call("aten.sub.Tensor", numberArg(n, "margin", "self", I("", 1)), T("other", u))
	z = b.Call("aten.add.Tensor", T("self", z), T("other", x))
	z = b.Call("aten.clamp.default", T("self", z), I("min", 0))
	if p == 2 {
		z = b.Call("aten.mul.Tensor", T("self", z), T("other", z))
	}
	if w != nil {
		wi := b.Call("aten.index.Tensor", T("self", w), OptTs("indices", t1))
		z = b.Call("aten.mul.Tensor", T("self", z), T("other", b.Call("aten.unsqueeze.default", T("self", wi), I("dim", 1))))
	}
	idx := arangeOf(b, dim)
	z = where(b, b.Call("aten.ne.Tensor", T("self", idx), T("other", t)), T("", z), I("", 0))
	switch red {
	case reductionMean:
		return b.Replace(b.Call("aten.mean.default", T("self", z)))
	case reductionSum:
		return b.Replace(b.Call("aten.div.Tensor", T("self", sumAll(b, z)), I("other", z.Meta.Sizes[1].Size)))
	}
	return b.Replace(b.Call("aten.mean.dim", T("self", z), Is("dim", 1)))
}

// multilabel_margin_loss = multilabel_margin_loss_forward(...)[0], torch's decomposition of it.
func multilabelMarginLoss(b *Builder, n *ir.Node) error {
	red, err := reductionOf(n)
	if err != nil {
		return err
	}
	x0, t0 := self(b, n), tensorArg(b, n, "target")
	if b.Err() != nil {
		return b.Err()
	}
	x, t := atLeast(b, x0, 2), atLeast(b, t0, 2)
	if len(x0.Meta.Sizes) > 2 || !x.Meta.Sizes[1].IsStatic() {
		return fmt.Errorf("multilabel_margin_loss of %s", x0.Meta)
	}
	dim := x.Meta.Sizes[1].Size
	idx := arangeOf(b, dim)
	isEnd := b.Call("aten.eq.Scalar", T("self", t), I("other", -1))
	end := b.Call("aten.amin.default", T("self", where(b, isEnd, T("", idx), I("", dim))), Is("dim", -1), Bo("keepdim", true))
	mask := b.Call("aten.lt.Tensor", T("self", idx), T("other", end))
	tidx0 := where(b, mask, T("", t), I("", 0))
	u := b.Call("aten.gather.default", T("self", x), I("dim", -1), T("index", tidx0))
	tidx1 := where(b, mask, T("", t), I("", -1))
	isTarget := b.Call("aten.eq.Tensor", T("self", idx), T("other", b.Call("aten.unsqueeze.default", T("self", tidx1), I("dim", -1))))
	isTarget = b.Call("aten.any.dim", T("self", isTarget), I("dim", 1))
	ut := b.Call("aten.unsqueeze.default", T("self", b.Call("aten.permute.default", T("self", u), Is("dims", 1, 0))), I("dim", -1))
	z := b.Call("aten.sub.Tensor", F("self", 1), T("other", ut))
	z = b.Call("aten.add.Tensor", T("self", z), T("other", x))
	z = b.Call("aten.clamp.default", T("self", z), I("min", 0))
	z = b.Call("aten.div.Tensor", T("self", z), I("other", dim))
	z = where(b, isTarget, I("", 0), T("", z))
	mt := b.Call("aten.unsqueeze.default", T("self", b.Call("aten.permute.default", T("self", mask), Is("dims", 1, 0))), I("dim", -1))
	z = where(b, mt, T("", z), I("", 0))
	switch red {
	case reductionMean:
		z = b.Call("aten.mean.default", T("self", b.Call("aten.sum.dim_IntList", T("self", z), Is("dim", 0, -1))))
	case reductionSum:
		z = sumAll(b, z)
	default:
		z = b.Call("aten.sum.dim_IntList", T("self", z), Is("dim", 0, -1))
	}
	return b.Replace(z)
}

// nllLossCore is torch's _nll_loss_forward: -input gathered at the (non-ignored) targets along
// the class dim, weighted, reduced; it returns the result and the total weight (nil when
// reduction is none, where torch's is unused).
func nllLossCore(b *Builder, x, t, weight *ir.Value, red, ignore int64) (*ir.Value, *ir.Value) {
	if b.Err() != nil {
		return nil, nil
	}
	rank := len(x.Meta.Sizes)
	channel := int64(1)
	if rank < 2 {
		channel = 0
	}
	var w *ir.Value
	if weight != nil {
		if err := staticSizes(weight); err != nil {
			b.Fail("nll_loss weight: %w", err)
			return nil, nil
		}
		w = weight
		if rank > 1 {
			shape := repeat(1, rank)
			shape[channel] = weight.Meta.Sizes[0].Size
			w = b.Call("aten.view.default", T("self", weight), Is("size", shape...))
		}
		x = b.Call("aten.mul.Tensor", T("self", x), T("other", w))
	}
	keep := func() *ir.Value { return b.Call("aten.ne.Scalar", T("self", t), I("other", ignore)) }
	safe := where(b, keep(), T("", t), I("", 0))
	safe = b.Call("aten.unsqueeze.default", T("self", safe), I("dim", channel))
	res := b.Call("aten.gather.default", T("self", x), I("dim", channel), T("index", safe))
	res = b.Call("aten.neg.default", T("self", b.Call("aten.squeeze.dims", T("self", res), Is("dim", channel))))
	res = where(b, keep(), T("", res), I("", 0))
	if red == reductionNone && rank > 1 {
		return res, nil
	}
	var total *ir.Value
	if w != nil {
		if !x.Meta.IsStatic() {
			b.Fail("nll_loss with a weight of a symbolic shape")
			return nil, nil
		}
		ws := b.Call("aten.expand.default", T("self", w), staticSizeArg(b, "size", x.Meta.Sizes))
		ws = b.Call("aten.gather.default", T("self", ws), I("dim", channel), T("index", safe))
		ws = b.Call("aten.squeeze.dims", T("self", ws), Is("dim", channel))
		ws = where(b, keep(), T("", ws), I("", 0))
		total = sumAll(b, ws)
	} else {
		total = sumAll(b, keep())
		if total != nil && total.Meta.DType != x.Meta.DType {
			total = b.Call("aten._to_copy.default", T("self", total), Dt("dtype", x.Meta.DType), deviceCPU())
		}
	}
	switch red {
	case reductionSum:
		res = sumAll(b, res)
	case reductionMean:
		res = b.Call("aten.div.Tensor", T("self", sumAll(b, res)), T("other", total))
	}
	return res, total
}

func nllArgs(b *Builder, n *ir.Node) (x, t, w *ir.Value, red, ignore int64, err error) {
	red, err = reductionOf(n)
	if err != nil {
		return
	}
	x, t, w = self(b, n), tensorArg(b, n, "target"), n.TensorArg("weight")
	ignore = n.IntArg("ignore_index", -100)
	err = b.Err()
	return
}

// nll_loss_forward / nll_loss2d_forward: (output, total_weight).
func nllLossForward(b *Builder, n *ir.Node) error {
	x, t, w, red, ignore, err := nllArgs(b, n)
	if err != nil {
		return err
	}
	res, total := nllLossCore(b, x, t, w, red, ignore)
	if total == nil && b.Err() == nil && len(n.Outputs) > 1 && n.Outputs[1] != nil && used(b.g, n.Outputs[1]) {
		total = newFull(b, x, F("", 0))
	}
	return b.Replace(res, total)
}

// nll_loss / nll_loss2d (ATen) = nll_loss_forward(...)[0].
func nllLoss(b *Builder, n *ir.Node) error {
	x, t, w, red, ignore, err := nllArgs(b, n)
	if err != nil {
		return err
	}
	res, _ := nllLossCore(b, x, t, w, red, ignore)
	return b.Replace(res)
}

// nll_loss_nd (ATen): 1-d and 2-d inputs are nll_loss, 4-d nll_loss2d; 3-d and beyond view the
// input as [N, C, 1, -1] and the target as [N, 1, -1] for nll_loss2d, the unreduced result
// viewed back to [N, target dims…].
func nllLossND(b *Builder, n *ir.Node) error {
	x, t, w, red, ignore, err := nllArgs(b, n)
	if err != nil {
		return err
	}
	r, err := nllND(b, x, t, w, red, ignore)
	if err != nil {
		return err
	}
	return b.Replace(r)
}

func nllND(b *Builder, x, t, w *ir.Value, red, ignore int64) (*ir.Value, error) {
	rank := len(x.Meta.Sizes)
	if rank < 1 {
		return nil, fmt.Errorf("nll_loss of a 0-d input")
	}
	if rank <= 2 || rank == 4 {
		res, _ := nllLossCore(b, x, t, w, red, ignore)
		return res, b.Err()
	}
	if !x.Meta.IsStatic() || !t.Meta.IsStatic() {
		return nil, fmt.Errorf("nll_loss of symbolic shapes")
	}
	if total, _ := numel(t.Meta.Sizes); total == 0 {
		return nil, fmt.Errorf("nll_loss of an empty target is not decomposed yet")
	}
	if !surelyContiguous(x) || !surelyContiguous(t) {
		return nil, fmt.Errorf("nll_loss of a %d-d input that may not be contiguous is not decomposed yet", rank)
	}
	s, ts := sizesOf(x.Meta), sizesOf(t.Meta)
	outSize := append([]int64{s[0]}, ts[1:]...)
	xv := b.Call("aten.view.default", T("self", x), Is("size", s[0], s[1], 1, -1))
	tv := b.Call("aten.view.default", T("self", t), Is("size", s[0], 1, -1))
	res, _ := nllLossCore(b, xv, tv, w, red, ignore)
	if red == reductionNone {
		res = b.Call("aten.view.default", T("self", res), Is("size", outSize...))
	}
	return res, b.Err()
}

// cross_entropy_loss (ATen): class-index targets are nll_loss_nd of log_softmax over the class
// dim; probability targets (the input's shape) are -Σ log_softmax · target, reduced.
func crossEntropyLoss(b *Builder, n *ir.Node) error {
	x, t, w, red, ignore, err := nllArgs(b, n)
	if err != nil {
		return err
	}
	smoothing := n.ScalarArg("label_smoothing", 0)
	classDim := int64(1)
	if len(x.Meta.Sizes) == 1 {
		classDim = 0
	}
	// log_softmax(x, class_dim, x's own dtype): no conversion, _log_softmax.
	logp := func() *ir.Value {
		return b.Call("aten._log_softmax.default", T("self", x), I("dim", classDim), Bo("half_to_float", false))
	}
	if !sameDims(x.Meta.Sizes, t.Meta.Sizes) {
		if smoothing > 0 {
			return fmt.Errorf("cross_entropy with class-index targets and label smoothing is not decomposed yet")
		}
		r, err := nllND(b, logp(), t, w, red, ignore)
		if err != nil {
			return err
		}
		return b.Replace(r)
	}
	if !x.Meta.IsStatic() {
		return fmt.Errorf("cross_entropy of symbolic shapes")
	}
	classes := x.Meta.Sizes[classDim].Size
	lp := logp()
	if smoothing > 0 {
		t = b.Call("aten.mul.Scalar", T("self", t), F("other", 1-smoothing))
		t = b.Call("aten.add.Scalar", T("self", t), F("other", smoothing/float64(classes)))
	}
	// The weight is viewed to broadcast over the class dim before the products.
	if w != nil && len(x.Meta.Sizes) > 1 {
		if err := staticSizes(w); err != nil {
			return fmt.Errorf("cross_entropy weight: %w", err)
		}
		shape := repeat(1, len(x.Meta.Sizes))
		shape[classDim] = w.Meta.Sizes[0].Size
		w = b.Call("aten.view.default", T("self", w), Is("size", shape...))
	}
	prod := b.Call("aten.mul.Tensor", T("self", lp), T("other", t))
	if w != nil {
		prod = b.Call("aten.mul.Tensor", T("self", prod), T("other", w))
	}
	switch red {
	case reductionNone:
		return b.Replace(b.Call("aten.neg.default", T("self", b.Call("aten.sum.dim_IntList", T("self", prod), Is("dim", classDim)))))
	case reductionSum:
		return b.Replace(b.Call("aten.neg.default", T("self", sumAll(b, prod))))
	}
	total, _ := numel(x.Meta.Sizes)
	if total == 0 {
		return fmt.Errorf("cross_entropy of an empty input is not decomposed yet")
	}
	neg := b.Call("aten.neg.default", T("self", sumAll(b, prod)))
	return b.Replace(b.Call("aten.div.Scalar", T("self", neg), I("other", total/classes)))
}

// pairwise_distance (ATen) = vector norm of x1 - x2 + eps over the last dim.
func pairwiseDistance(b *Builder, n *ir.Node) error {
	x1, x2 := tensorArg(b, n, "x1"), tensorArg(b, n, "x2")
	if b.Err() != nil {
		return b.Err()
	}
	r, err := pairwiseOf(b, x1, x2, n.ScalarArg("p", 2), n.ScalarArg("eps", 1e-6), n.BoolArg("keepdim", false))
	if err != nil {
		return err
	}
	return b.Replace(r)
}

func pairwiseOf(b *Builder, x1, x2 *ir.Value, p, eps float64, keepdim bool) (*ir.Value, error) {
	last := int64(max(len(x1.Meta.Sizes), len(x2.Meta.Sizes)) - 1)
	d := b.Call("aten.add.Scalar", T("self", b.Call("aten.sub.Tensor", T("self", x1), T("other", x2))), F("other", eps))
	if b.Err() != nil {
		return nil, b.Err()
	}
	return vectorNormOf(b, d, F("ord", p), p, Is("dim", last), keepdim, nil)
}

// triplet_margin_loss (ATen) = reduce(clamp_min(margin + d(a, p) - d(a, n), 0)), d(a, n) the
// smaller of d(a, n) and d(p, n) with swap.
func tripletMarginLoss(b *Builder, n *ir.Node) error {
	red, err := reductionOf(n)
	if err != nil {
		return err
	}
	a, pos, neg := tensorArg(b, n, "anchor"), tensorArg(b, n, "positive"), tensorArg(b, n, "negative")
	if b.Err() != nil {
		return b.Err()
	}
	p, eps := n.ScalarArg("p", 2), n.ScalarArg("eps", 1e-6)
	dPos, err := pairwiseOf(b, a, pos, p, eps, false)
	if err != nil {
		return err
	}
	dNeg, err := pairwiseOf(b, a, neg, p, eps, false)
	if err != nil {
		return err
	}
	if n.BoolArg("swap", false) {
		dSwap, err := pairwiseOf(b, pos, neg, p, eps, false)
		if err != nil {
			return err
		}
		dNeg = b.Call("aten.minimum.default", T("self", dNeg), T("other", dSwap))
	}
	z := b.Call("aten.add.Scalar", T("self", dPos), F("other", n.ScalarArg("margin", 1)))
	z = b.Call("aten.sub.Tensor", T("self", z), T("other", dNeg))
	z = b.Call("aten.clamp.default", T("self", z), I("min", 0))
	return b.Replace(reduceLoss(b, z, red))
}

// cosine_similarity (ATen) = Σ (x1 / max(‖x1‖, eps)) · (x2 / max(‖x2‖, eps)) over dim, the norms
// kept as dims and cloned, integers converted to the common type first.
func cosineSimilarity(b *Builder, n *ir.Node) error {
	x1, x2 := tensorArg(b, n, "x1"), tensorArg(b, n, "x2")
	if b.Err() != nil {
		return b.Err()
	}
	common := ir.ResultType(ir.TensorOperand(x1.Meta), ir.TensorOperand(x2.Meta))
	if !x1.Meta.DType.IsFloat() {
		x1 = convert(b, x1, common)
	}
	if !x2.Meta.DType.IsFloat() {
		x2 = convert(b, x2, common)
	}
	if !sameDims(x1.Meta.Sizes, x2.Meta.Sizes) {
		shape, err := broadcastShapes(x1, x2)
		if err != nil {
			return err
		}
		// expand_outplace's results are built right to left.
		x2 = b.Call("aten.expand.default", T("self", x2), staticSizeArg(b, "size", shape))
		x1 = b.Call("aten.expand.default", T("self", x1), staticSizeArg(b, "size", shape))
	}
	dim := n.IntArg("dim", 1)
	norm := func(x *ir.Value) (*ir.Value, error) {
		v, err := vectorNormOf(b, x, I("ord", 2), 2, Is("dim", dim), true, nil)
		if err != nil {
			return nil, err
		}
		return b.Call("aten.clone.default", T("self", v)), nil
	}
	n1, err := norm(x1)
	if err != nil {
		return err
	}
	n2, err := norm(x2)
	if err != nil {
		return err
	}
	eps := b.Call("aten.scalar_tensor.default", F("s", n.ScalarArg("eps", 1e-8)), Dt("dtype", n1.Meta.DType), deviceCPU())
	n1 = b.Call("aten.clamp.Tensor", T("self", n1), T("min", eps))
	n2 = b.Call("aten.clamp.Tensor", T("self", n2), T("min", eps))
	q2 := b.Call("aten.div.Tensor", T("self", x2), T("other", n2))
	q1 := b.Call("aten.div.Tensor", T("self", x1), T("other", n1))
	return b.Replace(b.Call("aten.sum.dim_IntList", T("self", b.Call("aten.mul.Tensor", T("self", q1), T("other", q2))), Is("dim", dim)))
}

// pdist (ATen) = _pdist_forward(x, p).
func pdist(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	if !hasLayout(b.st, x, memoryFormatContiguous) {
		return fmt.Errorf("pdist of a non-contiguous input is not decomposed yet")
	}
	return b.Replace(b.Call("aten._pdist_forward.default", T("self", x), F("p", n.ScalarArg("p", 2))))
}

// cdist (ATen) = _cdist_forward(x1, x2, p, compute_mode), except the Euclidean distance computed
// by matrix products (p 2 with mm mode, or large inputs), which is not decomposed.
func cdist(b *Builder, n *ir.Node) error {
	x1, x2 := tensorArg(b, n, "x1"), tensorArg(b, n, "x2")
	if b.Err() != nil {
		return b.Err()
	}
	p := n.ScalarArg("p", 2)
	mode := int64(0)
	modeArg := None("compute_mode")
	if a := n.Arg("compute_mode"); a != nil && a.Kind == ir.ArgInt {
		mode, modeArg = a.Int, *a
	}
	r1, r2 := x1.Meta.Sizes[len(x1.Meta.Sizes)-2], x2.Meta.Sizes[len(x2.Meta.Sizes)-2]
	n1, ok1 := numel(x1.Meta.Sizes)
	n2, ok2 := numel(x2.Meta.Sizes)
	if !ok1 || !ok2 || !r1.IsStatic() || !r2.IsStatic() {
		return fmt.Errorf("cdist of symbolic shapes")
	}
	if n1 != 0 && n2 != 0 && p == 2 && (mode == 1 || (mode == 0 && (r1.Size > 25 || r2.Size > 25))) {
		if len(x1.Meta.Sizes) != 2 || len(x2.Meta.Sizes) != 2 {
			return fmt.Errorf("batched cdist by matrix products (p=2, compute_mode %d) is not decomposed yet", mode)
		}
		d := euclideanDist(b, x1, x2)
		return b.Replace(b.Call("aten.view.default", T("self", d), staticSizeArg(b, "size", []ir.Dim{r1, r2})))
	}
	return b.Replace(b.Call("aten._cdist_forward.default", T("x1", x1), T("x2", x2), F("p", p), modeArg))
}

// _euclidean_dist(x1, x2) (torch's decomposition, 2-d inputs) = sqrt(clamp_min([-2·x1, |x1|², 1] ·
// [x2, 1, |x2|²]ᵀ, 0)).
func euclideanDist(b *Builder, x1, x2 *ir.Value) *ir.Value {
	ones := func(v *ir.Value) *ir.Value {
		return b.Call("aten.full_like.default", T("self", v), I("fill_value", 1), ir.Arg{Name: "pin_memory", Kind: ir.ArgBool, KwargOnly: true},
			ir.Arg{Name: "memory_format", Kind: ir.ArgMemoryFormat, Int: memoryFormatContiguous, KwargOnly: true})
	}
	sq := func(v *ir.Value) *ir.Value {
		return b.Call("aten.sum.dim_IntList", T("self", b.Call("aten.pow.Tensor_Scalar", T("self", v), I("exponent", 2))), Is("dim", -1), Bo("keepdim", true))
	}
	n1 := sq(x1)
	p1 := ones(n1)
	n2 := sq(x2)
	p2 := ones(n2)
	a := b.Call("aten.cat.default", Ts("tensors", b.Call("aten.mul.Tensor", T("self", x1), I("other", -2)), n1, p1), I("dim", -1))
	c := b.Call("aten.cat.default", Ts("tensors", x2, p2, n2), I("dim", -1))
	r := b.Call("aten.mm.default", T("self", a), T("mat2", b.Call("aten.permute.default", T("self", c), Is("dims", 1, 0))))
	return b.Call("aten.sqrt.default", T("self", b.Call("aten.clamp.default", T("self", r), I("min", 0))))
}
