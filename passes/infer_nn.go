package passes

import (
	"fmt"
	"slices"

	"github.com/etgo/etgo/ir"
)

// Meta rules of the operators the nn-layer decompositions emit.

func init() {
	registerInfer(inferUpsampleDefault, "aten._upsample_bilinear2d_aa.default")
	registerInfer(inferAdaptivePool, "aten.adaptive_avg_pool2d.default", "aten.adaptive_avg_pool3d.default")
	registerInfer(sameAs("self"), "aten._prelu_kernel.default")
	registerInfer(inferGridSampler, "aten.grid_sampler_2d.default")
	registerInfer(inferLinear, "aten.linear.default")
	registerInfer(inferPadding("pad"), "aten.pad.default")     // every mode pads the last dims alike
	registerInfer(func(n *ir.Node) ([]*ir.TensorMeta, error) { // native_dropout: the output and its keep mask
		m, err := argMeta(n, "input")
		if err != nil {
			return nil, err
		}
		return []*ir.TensorMeta{metaOf(m.DType, slices.Clone(m.Sizes)), metaOf(ir.Bool, slices.Clone(m.Sizes))}, nil
	}, "aten.native_dropout.default")
	registerInfer(inferBatchNormStats, "aten._native_batch_norm_legit.no_stats", "aten._native_batch_norm_legit.default",
		"aten._native_batch_norm_legit_functional.default", "aten.native_batch_norm.default")
}

// inferUpsampleDefault: an upsampling .default overload (self, output_size, scales…) keeps N
// and C and takes the output size.
func inferUpsampleDefault(n *ir.Node) ([]*ir.TensorMeta, error) {
	m, err := argMeta(n, "self")
	if err != nil {
		return nil, err
	}
	size := n.IntsArg("output_size", nil)
	if len(size) != len(m.Sizes)-2 {
		return nil, fmt.Errorf("%s: output size %v for a %d-d input", n.Target, size, len(m.Sizes))
	}
	out := slices.Clone(m.Sizes[:2])
	for _, s := range size {
		out = append(out, ir.Dim{Size: s})
	}
	return one(metaOf(m.DType, out)), nil
}

// inferBatchNormStats: batch norm computing its statistics returns the output and the saved
// mean and inverse std, one per channel (dim 1).
func inferBatchNormStats(n *ir.Node) ([]*ir.TensorMeta, error) {
	m, err := argMeta(n, "input")
	if err != nil {
		return nil, err
	}
	if len(m.Sizes) < 2 {
		return nil, fmt.Errorf("%s of a %d-d input", n.Target, len(m.Sizes))
	}
	c := m.Sizes[1]
	outs := []*ir.TensorMeta{metaOf(m.DType, slices.Clone(m.Sizes)), metaOf(m.DType, []ir.Dim{c}), metaOf(m.DType, []ir.Dim{c})}
	if n.Target == "aten._native_batch_norm_legit_functional.default" {
		for _, name := range []string{"running_mean", "running_var"} {
			r, err := argMeta(n, name)
			if err != nil {
				return nil, err
			}
			outs = append(outs, metaOf(r.DType, slices.Clone(r.Sizes)))
		}
	}
	return outs, nil
}

// inferGridSampler: grid_sampler_2d samples every channel of input [N, C, H, W] at the points
// of grid [N, Ho, Wo, 2]: [N, C, Ho, Wo].
func inferGridSampler(n *ir.Node) ([]*ir.TensorMeta, error) {
	x, err := argMeta(n, "input")
	if err != nil {
		return nil, err
	}
	g, err := argMeta(n, "grid")
	if err != nil {
		return nil, err
	}
	if len(x.Sizes) != 4 || len(g.Sizes) != 4 {
		return nil, fmt.Errorf("%s of %s by a %s grid", n.Target, x, g)
	}
	return one(metaOf(x.DType, []ir.Dim{x.Sizes[0], x.Sizes[1], g.Sizes[1], g.Sizes[2]})), nil
}

// inferLinear: linear(x [..., in], w [out, in]) is [..., out] (a 1-d weight drops the dim).
func inferLinear(n *ir.Node) ([]*ir.TensorMeta, error) {
	x, err := argMeta(n, "input")
	if err != nil {
		return nil, err
	}
	w, err := argMeta(n, "weight")
	if err != nil {
		return nil, err
	}
	if len(x.Sizes) == 0 || len(w.Sizes) == 0 || len(w.Sizes) > 2 {
		return nil, fmt.Errorf("%s of %s by %s", n.Target, x, w)
	}
	out := slices.Clone(x.Sizes[:len(x.Sizes)-1])
	if len(w.Sizes) == 2 {
		out = append(out, w.Sizes[0])
	}
	return one(metaOf(ir.PromoteTypes(x.DType, w.DType), out)), nil
}
