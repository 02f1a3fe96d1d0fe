package emit_test

import (
	"errors"
	"slices"
	"testing"

	xnnaot "github.com/etgo/etgo/backends/xnnpack/aot"
	"github.com/etgo/etgo/emit"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/frontend/pt2"
	"github.com/etgo/etgo/internal/zoo"
	"github.com/etgo/etgo/kernels/portable"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/passes"
)

func TestOutVariant(t *testing.T) {
	for _, tc := range []struct{ target, want string }{
		{"aten.add.Tensor", "aten::add.out"},
		{"aten.sum.dim_IntList", "aten::sum.IntList_out"},
		{"aten.mean.dim", "aten::mean.out"},
		{"aten.gt.Scalar", "aten::gt.Scalar_out"},
		{"aten.pow.Tensor_Scalar", "aten::pow.Tensor_Scalar_out"}, // to_out_variant cannot decide pow
		{"aten.permute_copy.default", "aten::permute_copy.out"},
		{"aten._native_batch_norm_legit_no_training.default", "aten::_native_batch_norm_legit_no_training.out"},
		{"dim_order_ops._to_dim_order_copy.default", "dim_order_ops::_to_dim_order_copy.out"},
	} {
		if got, err := emit.OutVariant(tc.target); err != nil || got != tc.want {
			t.Errorf("OutVariant(%s) = %q, %v; want %q", tc.target, got, err, tc.want)
		}
	}
	for _, target := range []string{"aten.sym_size.int", "aten.linear.default", "aten.permute.default", ""} {
		if _, err := emit.OutVariant(target); !errors.Is(err, emit.ErrNoOutVariant) {
			t.Errorf("OutVariant(%q): %v, want ErrNoOutVariant", target, err)
		}
	}
}

// TestZooFallbackKernels: for every zoo model, the kernels etgo's plan leaves to the portable
// path are exactly the operator table of the official xnnpack.pte, and etgo carries each one.
func TestZooFallbackKernels(t *testing.T) {
	reg := executor.NewRegistry()
	if err := portable.Register(reg); err != nil {
		t.Fatal(err)
	}
	zoo.Each(t, func(t *testing.T, m zoo.Model) {
		prog, err := pt2.Open(m.PT2)
		if err != nil {
			t.Fatal(err)
		}
		p := &xnnaot.Partitioner{}
		ops, keep := p.OpsToNotDecompose()
		if _, err := passes.ToEdge(prog.Graph, []passes.Preserve{{Ops: ops, Keep: keep}}); err != nil {
			t.Fatal(err)
		}
		recommended := xnnaot.Backend().TransformPasses()
		if _, err := passes.NewManager(recommended...).Run(prog.Graph); err != nil {
			t.Fatal(err)
		}
		plan, err := partition.Lower(prog.Graph, []partition.Partitioner{p})
		if err != nil {
			t.Fatal(err)
		}
		kernels, err := emit.FallbackKernels(plan)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, k := range kernels {
			got = append(got, k.Name)
			if _, ok := reg.Kernel(k.Name); !ok {
				t.Errorf("etgo has no portable kernel %s (needed by %v)", k.Name, k.Nodes)
			}
		}
		want := slices.Clone(m.Delegation.Operators[zoo.Xnnpack])
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("fallback kernels\n got %v\nwant %v (official xnnpack.pte operator table)", got, want)
		}
	})
}
