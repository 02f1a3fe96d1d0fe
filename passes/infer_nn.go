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
