package aot_test

import (
	"testing"

	"github.com/etgo/etgo/backends/xnnpack/aot"
	"github.com/etgo/etgo/internal/irtext"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/passes"
)

// FuzzToEdgeAndPartition: whatever graph a .pt2 decodes to — here, any graph irtext can
// state, with arbitrary targets, argument kinds and metadata — the Edge lowering and the XNNPACK
// plan return errors, never panic, and a plan leaves a graph in topological order.
func FuzzToEdgeAndPartition(f *testing.F) {
	for _, seed := range []string{
		"in x f32[1,3,8,8]\nparam w f32[8,3,3,3]\nc = aten.conv2d.default(input=x, weight=w, padding=[1,1]) -> f32[1,8,8,8]\nr = aten.relu_.default(self=c) -> f32[1,8,8,8]\nout r",
		"in x f32[2,10]\nparam w f32[10]\nn = aten.layer_norm.default(input=x, normalized_shape=[10], weight=w, bias=none, eps=0.001) -> f32[2,10]\na, b, c = aten.chunk.default(self=n, chunks=3, dim=-1) -> f32[2,4], f32[2,4], f32[2,2]\nt = aten.transpose.int(self=a, dim0=0, dim1=-1) -> f32[4,2]\nout t",
		"in q f32[1,2,4,8]\no = aten.scaled_dot_product_attention.default(query=q, key=q, value=q) -> f32[1,2,4,8]\nout o",
		"in x f32[2,8,10]\ns = aten.slice.Tensor(self=x, dim=1, start=2, end=6) -> f32[2,4,10]\nr = aten.reshape.default(self=s, shape=[8,10]) -> f32[8,10]\nout r",
		"in x f32[1,8,4,4]\nparam m f32[8]\nparam v f32[8]\nbn = aten.batch_norm.default(input=x, weight=none, bias=none, running_mean=m, running_var=v, training=false, momentum=0.1, eps=0.00001) -> f32[1,8,4,4]\np = aten.adaptive_avg_pool2d.default(self=bn, output_size=[1,1]) -> f32[1,8,1,1]\nf = aten.flatten.using_ints(self=p, start_dim=1) -> f32[1,8]\nout f",
		"in x f32[4]\nh = aten.hardsigmoid.default(self=x) -> f32[4]\nout h",
		"in x f32[4]\na = aten.argwhere.default(self=x) -> i64[u0,1]\nout a",
		"in x f32[s0,16]\nsym s0\nparam w f32[8,16]\nl = aten.linear.default(input=x, weight=w) -> f32[s0,8]\nv = aten.view.default(self=l, size=[$s0,2,4]) -> f32[s0,2,4]\nout v",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		g, err := irtext.Parse(src)
		if err != nil {
			return
		}
		p := &aot.Partitioner{}
		ops, keep := p.OpsToNotDecompose()
		if _, err := passes.ToEdge(g, []passes.Preserve{{Ops: ops, Keep: keep}}); err != nil {
			return
		}
		plan, err := partition.Lower(g, []partition.Partitioner{p})
		if err != nil {
			return
		}
		seen := map[any]bool{}
		for _, in := range plan.Graph.Inputs {
			seen[in.Value] = true
		}
		for _, n := range plan.Graph.Nodes {
			for _, a := range n.Args {
				for _, v := range a.Values {
					if v != nil && v.Producer != nil && !seen[v] {
						t.Fatalf("%s reads %s before it is produced", n.Name, v.Name)
					}
				}
			}
			for _, v := range n.Outputs {
				seen[v] = true
			}
		}
	})
}
