package configs_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/etgo/etgo/internal/irtext"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/partition/configs"
)

// render describes a result as "a b, c | d=reason": each region's nodes, then the declines.
func render(g *ir.Graph, res *partition.Result) string {
	regions := make([]string, len(res.Regions))
	for i, r := range res.Regions {
		names := make([]string, len(r.Nodes))
		for j, n := range r.Nodes {
			names[j] = n.Name
		}
		for _, c := range r.Constants {
			names = append(names, "const:"+c.Name)
		}
		regions[i] = strings.Join(names, " ")
	}
	declined := []string{}
	for _, n := range g.Nodes {
		if d, ok := res.Declined[n]; ok {
			declined = append(declined, n.Name+"="+string(d.Reason))
		}
	}
	return strings.Join(regions, ", ") + " | " + strings.Join(declined, " ")
}

const addRelu = `
in x f32[4]
in y f32[4]
a = aten.add.Tensor(self=x, other=y) -> f32[4]
r = aten.relu.default(self=a) -> f32[4]
out r`

var (
	fp32   = []configs.Precision{configs.FP32}
	static = []configs.Precision{configs.FP32, configs.StaticQuant}
)

// toy is a backend of a few configs exercising every part of a Config and of Options.
func toy(o configs.Options) *configs.Partitioner {
	return configs.New(partition.DelegationSpec{BackendID: "ToyBackend"}, []*configs.Config{
		{Name: "AddConfig", Target: "add.Tensor", Precisions: static, FusedActivations: []string{"relu.default"}},
		{Name: "ReLUConfig", Target: "relu.default", Precisions: static},
		{Name: "AbsConfig", Target: "abs.default", Precisions: []configs.Precision{configs.StaticQuant}},
		{Name: "LinearConfig", Target: "linear.default", Precisions: fp32, KeepWhole: "aten.linear.default",
			Check: func(q *configs.Query, n *ir.Node) *partition.Decline {
				if !q.IsParam(n.TensorArg("weight")) {
					return partition.Declinef(partition.NonConstantWeight, "weight is computed")
				}
				return nil
			},
			Claim: func(q *configs.Query, n *ir.Node) partition.Claim {
				return partition.Claim{Nodes: []*ir.Node{n}, Constants: []*ir.Value{n.TensorArg("weight")}}
			}},
		{Name: "NegConfig", Target: "neg.default", Precisions: fp32, SkipCommon: true},
		{Name: "SinConfig", Target: "sin.default", Precisions: fp32, KeepWhole: "aten.sin.default", Claim: configs.Nothing},
		{Name: "QuantizeConfig", Target: "quantize_per_tensor.default", Precisions: static, QuantOp: true, Claim: configs.NodeOnly},
		{Name: "DequantizeConfig", Target: "dequantize_per_tensor.default", Precisions: static, QuantOp: true, Claim: configs.NodeOnly},
	}, o)
}

// floatsOnly is a common constraint: float32 outputs, but for q/dq operators.
func floatsOnly(c *configs.Config, n *ir.Node) *partition.Decline {
	if v := n.FirstOutput(); !c.QuantOp && v != nil && v.Meta.DType != ir.Float32 {
		return partition.Declinef(partition.UnsupportedDType, "%s is %s", v.Name, v.Meta.DType)
	}
	return nil
}

func TestPartition(t *testing.T) {
	for _, tc := range []struct {
		name  string
		o     configs.Options
		graph string
		want  string
	}{
		{"configs claim, Check declines, a missing config declines", configs.Options{}, `
in x f32[2,4]
param w f32[3,4]
in v f32[3,4]
a = aten.linear.default(input=x, weight=w) -> f32[2,3]
b = aten.linear.default(input=x, weight=v) -> f32[2,3]
c = aten.cumsum.default(self=a, dim=0) -> f32[2,3]
out b
out c`, "a const:w | b=non-constant-weight c=unsupported-operator"},
		{"common constraints, unless the config skips them; limits always", configs.Options{Common: floatsOnly,
			Limits: func(n *ir.Node) *partition.Decline {
				if n.Name == "big" {
					return partition.Declinef(partition.Geometry, "too big")
				}
				return nil
			}}, `
in x i32[4]
a = aten.relu.default(self=x) -> i32[4]
b = aten.neg.default(self=x) -> i32[4]
big = aten.neg.default(self=x) -> i32[4]
out a
out b
out big`, "b | a=dtype big=geometry"},
		{"a config that claims nothing declines; one without an enabled precision too", configs.Options{Precisions: fp32}, `
in x f32[4]
s = aten.sin.default(self=x) -> f32[4]
a = aten.abs.default(self=s) -> f32[4]
out a`, " | s=unsupported-operator a=precision-not-enabled"},
		{"static quantisation: the q/dq island with the fused activation", configs.Options{Precisions: static, Common: floatsOnly}, `
in x i8[4]
in y i8[4]
dx = quantized_decomposed.dequantize_per_tensor.default(input=x, scale=0.1, zero_point=0) -> f32[4]
dy = quantized_decomposed.dequantize_per_tensor.default(input=y, scale=0.1, zero_point=0) -> f32[4]
a = aten.add.Tensor(self=dx, other=dy) -> f32[4]
r = aten.relu.default(self=a) -> f32[4]
q = quantized_decomposed.quantize_per_tensor.default(input=r, scale=0.1, zero_point=0) -> i8[4]
out q`, "dx dy a r q | "},
		{"fp32 only: the add alone, grouped with the relu", configs.Options{Precisions: fp32}, addRelu, "a r | "},
		{"per-op: a region per claim", configs.Options{PerOp: true}, addRelu, "r, a | "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := irtext.MustParse(tc.graph)
			res, err := toy(tc.o).Partition(g)
			if err != nil {
				t.Fatal(err)
			}
			if got := render(g, res); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestOpsToNotDecompose(t *testing.T) {
	ops, keep := toy(configs.Options{}).OpsToNotDecompose()
	if want := []string{"aten.linear.default", "aten.sin.default"}; !slices.Equal(ops, want) {
		t.Errorf("kept whole %v, want %v", ops, want)
	}
	g := irtext.MustParse(`
in x f32[2,4]
param w f32[3,4]
in v f32[3,4]
a = aten.linear.default(input=x, weight=w) -> f32[2,3]
b = aten.linear.default(input=x, weight=v) -> f32[2,3]
out a
out b`)
	if !keep(g, g.Nodes[0]) || keep(g, g.Nodes[1]) {
		t.Error("a linear is kept whole exactly when its config admits it")
	}
}

// TestDuplicateTargets: two configs for one operator are an error, returned by Partition.
func TestDuplicateTargets(t *testing.T) {
	p := configs.New(partition.DelegationSpec{BackendID: "B"}, []*configs.Config{
		{Name: "A", Target: "abs.default", Precisions: fp32}, {Name: "B", Target: "abs.default", Precisions: fp32},
	}, configs.Options{})
	if _, err := p.Partition(ir.NewGraph()); err == nil || !strings.Contains(err.Error(), "same target") {
		t.Errorf("error %v", err)
	}
}
