package aot

import (
	"slices"
	"strings"
	"testing"

	"github.com/etgo/etgo/internal/irtext"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/partition/configs"
)

// parseGraph builds a graph from irtext's notation.
func parseGraph(t *testing.T, src string) *ir.Graph {
	t.Helper()
	g, err := irtext.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// render describes a proposal as "{a b}[w] {c} | d=reason e=reason".
func render(g *ir.Graph, res *partition.Result) string {
	var parts []string
	for _, r := range res.Regions {
		var ns, cs []string
		for _, n := range r.Nodes {
			ns = append(ns, n.Name)
		}
		for _, c := range r.Constants {
			cs = append(cs, c.Name)
		}
		s := "{" + strings.Join(ns, " ") + "}"
		if len(cs) > 0 {
			s += "[" + strings.Join(cs, " ") + "]"
		}
		parts = append(parts, s)
	}
	var ds []string
	for _, n := range g.Nodes {
		if d, ok := res.Declined[n]; ok {
			ds = append(ds, n.Name+"="+string(d.Reason))
		}
	}
	return strings.Join(parts, " ") + " | " + strings.Join(ds, " ")
}

const convRelu = `
in x f32[1,3,8,8]
param w f32[8,3,3,3]
param b f32[8]
conv = aten.convolution.default(input=x, weight=w, bias=b, stride=[1,1], padding=[1,1], dilation=[1,1], transposed=false, output_padding=[0,0], groups=1) -> f32[1,8,8,8]
relu = aten.relu.default(self=conv) -> f32[1,8,8,8]
out relu`

func TestPartition(t *testing.T) {
	for _, tc := range []struct {
		name  string
		p     Partitioner
		graph string
		want  string
	}{
		// Constants are listed bias first, in the order ExecuTorch's GEMM config collects them.
		{"conv takes its weight, bias and the relu it fuses", Partitioner{}, convRelu, "{conv relu}[b w] | "},
		{"per-op mode still keeps a fused activation with its conv", Partitioner{PerOp: true}, convRelu, "{conv relu}[b w] | "},
		{"a weight computed at run time is declined", Partitioner{}, `
in x f32[1,3,8,8]
in w f32[8,3,3,3]
conv = aten.convolution.default(input=x, weight=w, bias=none, stride=[1,1], padding=[0,0], dilation=[1,1], transposed=false, output_padding=[0,0], groups=1) -> f32[1,8,6,6]
relu = aten.relu.default(self=conv) -> f32[1,8,6,6]
out relu`, "{relu} | conv=non-constant-weight"},
		{"a non-parameter bias is declined too", Partitioner{}, `
in x f32[2,16]
param w f32[4,16]
in b f32[4]
fc = aten.linear.default(input=x, weight=w, bias=b) -> f32[2,4]
out fc`, " | fc=non-constant-weight"},
		{"forcing non-static fp32 linear weights leaves them as runtime inputs", Partitioner{ForceNonStaticWeightsForF32Linear: true}, `
in x f32[2,16]
in w f32[4,16]
param b f32[4]
fc = aten.linear.default(input=x, weight=w, bias=b) -> f32[2,4]
out fc`, "{fc} | "},
		{"conv3d is declined for its geometry", Partitioner{}, `
in x f32[1,3,4,8,8]
param w f32[8,3,3,3,3]
conv = aten.convolution.default(input=x, weight=w, bias=none, stride=[1,1,1], padding=[0,0,0], dilation=[1,1,1], transposed=false, output_padding=[0,0,0], groups=1) -> f32[1,8,2,6,6]
out conv`, " | conv=geometry"},
		{"a view to more than 6 dims stays outside (XNNPACK defines at most 6; ExecuTorch admits it)", Partitioner{}, `
in x f32[1,4,4,8]
a = aten.relu.default(self=x) -> f32[1,4,4,8]
v = aten.view_copy.default(self=a, size=[1,2,2,2,2,2,4]) -> f32[1,2,2,2,2,2,4]
p = aten.permute_copy.default(self=v, dims=[0,1,3,2,4,5,6]) -> f32[1,2,2,2,2,2,4]
w = aten.view_copy.default(self=p, size=[1,4,4,8]) -> f32[1,4,4,8]
r = aten.relu.default(self=w) -> f32[1,4,4,8]
out r`, "{r} {a} | v=geometry p=geometry w=geometry"},
		{"an unsupported operator splits delegation into two regions", Partitioner{}, `
in x f32[2,16]
param w1 f32[16,16]
param w2 f32[16,16]
fc1 = aten.linear.default(input=x, weight=w1) -> f32[2,16]
cs = aten.cumsum.default(self=fc1, dim=1) -> f32[2,16]
fc2 = aten.linear.default(input=cs, weight=w2) -> f32[2,16]
out fc2`, "{fc2}[w2] {fc1}[w1] | cs=unsupported-operator"}, // proposal order: from the end
		{"a weight shared by two linears is owned by the first claim", Partitioner{}, `
in x f32[2,16]
param w f32[16,16]
fc1 = aten.linear.default(input=x, weight=w) -> f32[2,16]
fc2 = aten.linear.default(input=fc1, weight=w) -> f32[2,16]
out fc2`, "{fc1 fc2}[w] | "},
		{"integer and mixed dtypes are declined", Partitioner{}, `
in a i64[4]
in b i64[4]
in c f32[4]
in d f16[4]
s = aten.add.Tensor(self=a, other=b) -> i64[4]
m = aten.mul.Tensor(self=c, other=d) -> f32[4]
out s
out m`, " | s=dtype m=dtype"},
		{"backed dynamic dims pass the common check; symbolic slices and reshapes do not", Partitioner{}, `
in x f32[s0,16]
param w f32[8,16]
sym s0
fc = aten.linear.default(input=x, weight=w) -> f32[s0,8]
sl = aten.slice_copy.Tensor(self=fc, dim=1, start=0, end=4) -> f32[s0,4]
v = aten.view_copy.default(self=fc, size=[$s0,2,4]) -> f32[s0,2,4]
out sl
out v`, "{fc}[w] | sl=dynamic-shape v=dynamic-shape"},
		{"unbacked dims are declined everywhere", Partitioner{}, `
in x f32[u0,16]
r = aten.relu.default(self=x) -> f32[u0,16]
out r`, " | r=dynamic-shape"},
		{"empty tensors are declined", Partitioner{}, `
in x f32[0,16]
r = aten.relu.default(self=x) -> f32[0,16]
out r`, " | r=empty-tensor"},
		{"geometry limits of individual configs", Partitioner{}, `
in x f32[1,4,8,8]
sm = aten._softmax.default(self=x, dim=1, half_to_float=false) -> f32[1,4,8,8]
mn = aten.mean.dim(self=x, dim=[-1,-2]) -> f32[1,4]
mk = aten.mean.dim(self=x, dim=[-1,-2], keepdim=true) -> f32[1,4,1,1]
mp = aten.max_pool2d.default(self=x, kernel_size=[2,2], stride=[3,3]) -> f32[1,4,3,3]
ap = aten.avg_pool2d.default(self=x, kernel_size=[2,2], stride=[2,2], padding=[1,1]) -> f32[1,4,5,5]
pw = aten.pow.Tensor_Scalar(self=x, exponent=3) -> f32[1,4,8,8]
sq = aten.pow.Tensor_Scalar(self=x, exponent=2) -> f32[1,4,8,8]
us = aten.unsqueeze_copy.default(self=x, dim=0) -> f32[1,1,4,8,8]
ut = aten.unsqueeze_copy.default(self=x, dim=4) -> f32[1,4,8,8,1]
ad = aten.add.Tensor(self=x, other=x, kw_alpha=2) -> f32[1,4,8,8]
pd = aten.constant_pad_nd.default(self=x, pad=[-1,0]) -> f32[1,4,8,7]
cl = aten.clone.default(self=x, kw_memory_format=mf:2) -> f32[1,4,8,8]
out sm
out mn
out mk
out mp
out ap
out pw
out sq
out us
out ut
out ad
out pd
out cl`, "{mk sq ut} | sm=geometry mn=geometry mp=geometry ap=geometry pw=geometry us=geometry ad=geometry pd=geometry cl=geometry"},
		{"batch norm after a conv is claimed with its statistics", Partitioner{}, `
in x f32[1,3,8,8]
param w f32[8,3,1,1]
param g f32[8]
param b f32[8]
param mu f32[8]
param var f32[8]
conv = aten.convolution.default(input=x, weight=w, bias=none, stride=[1,1], padding=[0,0], dilation=[1,1], transposed=false, output_padding=[0,0], groups=1) -> f32[1,8,8,8]
bn, sm, sv = aten._native_batch_norm_legit_no_training.default(input=conv, weight=g, bias=b, running_mean=mu, running_var=var, momentum=0.1, eps=0.00001) -> f32[1,8,8,8], f32[0], f32[0]
out bn`, "{conv bn}[w g b mu var] | "},
		{"batch norm whose statistics are computed at run time is declined", Partitioner{}, `
in x f32[1,8,8,8]
in mu f32[8]
param var f32[8]
bn, sm, sv = aten._native_batch_norm_legit_no_training.default(input=x, weight=none, bias=none, running_mean=mu, running_var=var, momentum=0.1, eps=0.00001) -> f32[1,8,8,8], f32[0], f32[0]
out bn`, " | bn=non-constant-weight"},
		// ExecuTorch's can_fuse checks only the two weights, claims this pair, and its fusion
		// then fails on the computed mean; etgo's one rule (batchnorm.go) declines it.
		{"batch norm after a conv, its mean computed at run time, is declined", Partitioner{}, `
in x f32[1,3,8,8]
in mu f32[8]
param w f32[8,3,1,1]
param g f32[8]
param b f32[8]
param var f32[8]
conv = aten.convolution.default(input=x, weight=w, bias=none, stride=[1,1], padding=[0,0], dilation=[1,1], transposed=false, output_padding=[0,0], groups=1) -> f32[1,8,8,8]
bn, sm, sv = aten._native_batch_norm_legit_no_training.default(input=conv, weight=g, bias=b, running_mean=mu, running_var=var, momentum=0.1, eps=0.00001) -> f32[1,8,8,8], f32[0], f32[0]
out bn`, "{conv}[w] | bn=non-constant-weight"},
		{"a batch norm whose eps is an integer literal is decomposed", Partitioner{}, `
in x f32[1,8,8,8]
param mu f32[8]
param var f32[8]
bn, sm, sv = aten._native_batch_norm_legit_no_training.default(input=x, weight=none, bias=none, running_mean=mu, running_var=var, momentum=0.1, eps=1) -> f32[1,8,8,8], f32[0], f32[0]
out bn`, "{bn}[mu var] | "},
		{"precisions: a config that supports none of the enabled ones declines", Partitioner{Precisions: []configs.Precision{configs.StaticQuant}}, `
in x f32[4]
a = aten.abs.default(self=x) -> f32[4]
r = aten.relu.default(self=a) -> f32[4]
out r`, "{r} | a=precision-not-enabled"},
		{"the affine quantisation configs keep their op whole but claim nothing", Partitioner{}, `
in x f32[4]
q = torchao.quantize_affine.default(input=x) -> i8[4]
out q`, " | q=unsupported-operator"},
		{"prelu owns its weight; a computed one is declined", Partitioner{}, `
in x f32[1,4,8,8]
param s f32[4]
in s2 f32[4]
p1 = aten.prelu.default(self=x, weight=s) -> f32[1,4,8,8]
p2 = aten.prelu.default(self=p1, weight=s2) -> f32[1,4,8,8]
out p2`, "{p1}[s] | p2=non-constant-weight"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := parseGraph(t, tc.graph)
			res, err := tc.p.Partition(g)
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
	p := &Partitioner{}
	ops, keep := p.OpsToNotDecompose()
	want := []string{"aten.hardswish.default", "aten.linear.default", "aten.max_pool2d.default", "aten.prelu.default",
		"aten.upsample_bilinear2d.vec", "torchao.choose_qparams_affine.default", "torchao.dequantize_affine.default", "torchao.quantize_affine.default"}
	slices.Sort(ops)
	if !slices.Equal(ops, want) {
		t.Errorf("kept whole %v, want %v", ops, want)
	}
	g := parseGraph(t, `
in x f32[2,16]
param w f32[4,16]
in w2 f32[4,16]
fc1 = aten.linear.default(input=x, weight=w) -> f32[2,4]
fc2 = aten.linear.default(input=x, weight=w2) -> f32[2,4]
out fc1
out fc2`)
	if !keep(g, g.Nodes[0]) || keep(g, g.Nodes[1]) {
		t.Errorf("keep(linear with a parameter weight) = %v, keep(linear with a runtime weight) = %v; want true, false",
			keep(g, g.Nodes[0]), keep(g, g.Nodes[1]))
	}
}

// TestConfigTable: 52 configs with distinct targets, as ExecuTorch's ALL_PARTITIONER_CONFIGS.
func TestConfigTable(t *testing.T) {
	p := (&Partitioner{}).configBased()
	cs := p.Configs()
	if _, err := p.Partition(ir.NewGraph()); len(cs) != 52 || err != nil {
		t.Errorf("%d configs (%v); want 52 with distinct targets", len(cs), err)
	}
	for _, c := range cs {
		if len(c.Precisions) == 0 || c.Name == "" || strings.Count(c.Target, ".") != 1 {
			t.Errorf("config %+v is incomplete", c)
		}
	}
}

// TestPartitionNeverPanics: every config on nodes with missing, mistyped or nil arguments
// declines or claims without panicking (graphs come from untrusted .pt2 files).
func TestPartitionNeverPanics(t *testing.T) {
	x := &ir.Value{Name: "x", Meta: &ir.TensorMeta{DType: ir.Float32, Sizes: []ir.Dim{{Size: 2}}}}
	shapes := [][]ir.Arg{
		nil,
		{{Name: "self", Kind: ir.ArgTensor, Values: []*ir.Value{x}}},
		{{Name: "input", Kind: ir.ArgTensor, Values: []*ir.Value{x}}, {Name: "weight", Kind: ir.ArgTensor, Values: []*ir.Value{x}}},
		{{Name: "weight", Kind: ir.ArgInts}, {Name: "dim", Kind: ir.ArgTensors, Values: []*ir.Value{nil}}},
		{{Name: "self", Kind: ir.ArgOptionalTensors, Values: []*ir.Value{nil, x}}, {Name: "kernel_size", Kind: ir.ArgInts}},
	}
	for _, c := range (&Partitioner{}).partitionerConfigs() {
		for i, args := range shapes {
			for _, outs := range [][]*ir.Value{nil, {nil}, {{Name: "y", Meta: x.Meta}}} {
				g := ir.NewGraph()
				g.Inputs = []ir.InputSpec{{Value: x}}
				n := &ir.Node{Name: "n", Target: "aten." + c.Target, Args: args, Outputs: outs}
				for _, o := range outs {
					if o != nil {
						o.Producer = n
					}
				}
				g.Nodes = []*ir.Node{n}
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Errorf("%s, args %d, %d outputs: panic %v", c.Name, i, len(outs), r)
						}
					}()
					if _, err := (&Partitioner{}).Partition(g); err != nil {
						t.Errorf("%s: %v", c.Name, err)
					}
				}()
			}
		}
	}
}
