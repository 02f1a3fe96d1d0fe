package xnnpack

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
)

// parseGraph builds an Edge graph from a small text form, one statement per line:
//
//	in x f32[1,3,8,8]           a user input (dims may be symbols: f32[s0,16])
//	param w f32[8,3,3,3]        a parameter
//	sym s0                      a symbolic int input
//	y = aten.relu.default(self=x) -> f32[1,3,8,8]
//	y, m, v = aten._native_batch_norm_legit_no_training.default(input=x, …) -> f32[…], f32[0], f32[0]
//	out y                       a graph output
//
// Argument values: a value name, [a, b] of value names, [1, 2] of ints (a $name inside is a
// symbolic int), an int, a float (with a dot), true/false, none, or mf:N (a memory format);
// names starting with "kw_" are keyword-only (the prefix is dropped).
func parseGraph(t *testing.T, src string) *ir.Graph {
	t.Helper()
	g := ir.NewGraph()
	val := func(name string) *ir.Value {
		v, ok := g.Value(name)
		if !ok {
			t.Fatalf("unknown value %q", name)
		}
		return v
	}
	meta := func(s string) *ir.TensorMeta {
		s = strings.TrimSpace(s)
		dt, dims, ok := strings.Cut(strings.TrimSuffix(s, "]"), "[")
		if !ok {
			t.Fatalf("bad tensor type %q", s)
		}
		m := &ir.TensorMeta{DType: map[string]ir.DType{"f32": ir.Float32, "f16": ir.Float16, "i64": ir.Int64, "bool": ir.Bool, "i8": ir.Int8}[dt]}
		for _, d := range strings.Split(dims, ",") {
			if d = strings.TrimSpace(d); d == "" {
				continue
			}
			if n, err := strconv.ParseInt(d, 10, 64); err == nil {
				m.Sizes = append(m.Sizes, ir.Dim{Size: n})
			} else {
				m.Sizes = append(m.Sizes, ir.Dim{Size: 4, Symbol: d})
			}
		}
		return m
	}
	for _, line := range strings.Split(strings.TrimSpace(src), "\n") {
		line = strings.TrimSpace(line)
		f := strings.Fields(line)
		switch f[0] {
		case "in", "param":
			v := &ir.Value{Name: f[1], Meta: meta(f[2])}
			g.AddValue(v)
			kind := ir.UserInput
			if f[0] == "param" {
				kind = ir.Parameter
			}
			g.Inputs = append(g.Inputs, ir.InputSpec{Kind: kind, Value: v, Target: f[1]})
			continue
		case "sym":
			v := &ir.Value{Name: f[1], Kind: ir.SymIntValue}
			g.AddValue(v)
			g.Inputs = append(g.Inputs, ir.InputSpec{Kind: ir.UserInput, Value: v})
			continue
		case "out":
			g.Outputs = append(g.Outputs, ir.OutputSpec{Value: val(f[1])})
			continue
		}
		lhs, rhs, _ := strings.Cut(line, " = ")
		call, types, _ := strings.Cut(rhs, " -> ")
		target, args, _ := strings.Cut(strings.TrimSuffix(call, ")"), "(")
		n := &ir.Node{Name: strings.TrimSpace(strings.Split(lhs, ",")[0]), Target: target}
		for _, a := range splitArgs(args) {
			name, v, _ := strings.Cut(a, "=")
			arg := ir.Arg{Name: strings.TrimPrefix(name, "kw_"), KwargOnly: strings.HasPrefix(name, "kw_")}
			switch {
			case v == "none":
				arg.Kind = ir.ArgNone
			case v == "true" || v == "false":
				arg.Kind, arg.Bool = ir.ArgBool, v == "true"
			case strings.HasPrefix(v, "mf:"):
				arg.Kind = ir.ArgMemoryFormat
				arg.Int, _ = strconv.ParseInt(v[3:], 10, 64)
			case strings.HasPrefix(v, "["):
				items := strings.Split(strings.Trim(v, "[]"), ",")
				arg.Kind = ir.ArgInts
				for _, it := range items {
					it = strings.TrimSpace(it)
					if n, err := strconv.ParseInt(it, 10, 64); err == nil {
						arg.Ints = append(arg.Ints, n)
						arg.Values = append(arg.Values, nil)
					} else if strings.HasPrefix(it, "$") {
						arg.Kind = ir.ArgSymInts
						arg.Ints = append(arg.Ints, 0)
						arg.Values = append(arg.Values, val(it[1:]))
					} else if it != "" {
						arg.Kind = ir.ArgTensors
						arg.Values = append(arg.Values, val(it))
					}
				}
				if arg.Kind == ir.ArgInts {
					arg.Values = nil
				}
			default:
				if n, err := strconv.ParseInt(v, 10, 64); err == nil {
					arg.Kind, arg.Int = ir.ArgInt, n
				} else if x, err := strconv.ParseFloat(v, 64); err == nil {
					arg.Kind, arg.Float = ir.ArgFloat, x
				} else {
					arg.Kind, arg.Values = ir.ArgTensor, []*ir.Value{val(v)}
				}
			}
			n.Args = append(n.Args, arg)
		}
		for i, name := range strings.Split(lhs, ",") {
			ts := strings.Split(types, ", ")
			v := &ir.Value{Name: strings.TrimSpace(name), Meta: meta(ts[i]), Producer: n}
			g.AddValue(v)
			n.Outputs = append(n.Outputs, v)
		}
		g.Nodes = append(g.Nodes, n)
	}
	return g
}

// splitArgs splits "a=x, b=[1, 2]" at top-level commas.
func splitArgs(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '[':
			depth++
		case ']':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if rest := strings.TrimSpace(s[start:]); rest != "" {
		out = append(out, rest)
	}
	return out
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
		{"an unsupported operator splits delegation into two regions", Partitioner{}, `
in x f32[2,16]
param w1 f32[16,16]
param w2 f32[16,16]
fc1 = aten.linear.default(input=x, weight=w1) -> f32[2,16]
cs = aten.cumsum.default(self=fc1, dim=1) -> f32[2,16]
fc2 = aten.linear.default(input=cs, weight=w2) -> f32[2,16]
out fc2`, "{fc1}[w1] {fc2}[w2] | cs=unsupported-operator"},
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
		{"precisions: a config that supports none of the enabled ones declines", Partitioner{Precisions: []Precision{StaticQuant}}, `
in x f32[4]
a = aten.abs.default(self=x) -> f32[4]
r = aten.relu.default(self=a) -> f32[4]
out r`, "{r} | a=precision-not-enabled"},
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
	if len(configs) != 52 || len(configByTarget) != 52 {
		t.Errorf("%d configs, %d distinct targets; want 52", len(configs), len(configByTarget))
	}
	for _, c := range configs {
		if len(c.precisions) == 0 || c.name == "" || strings.Count(c.target, ".") != 1 {
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
	for _, c := range configs {
		for i, args := range shapes {
			for _, outs := range [][]*ir.Value{nil, {nil}, {{Name: "y", Meta: x.Meta}}} {
				g := ir.NewGraph()
				g.Inputs = []ir.InputSpec{{Value: x}}
				n := &ir.Node{Name: "n", Target: "aten." + c.target, Args: args, Outputs: outs}
				for _, o := range outs {
					if o != nil {
						o.Producer = n
					}
				}
				g.Nodes = []*ir.Node{n}
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Errorf("%s, args %d, %d outputs: panic %v", c.name, i, len(outs), r)
						}
					}()
					if _, err := (&Partitioner{}).Partition(g); err != nil {
						t.Errorf("%s: %v", c.name, err)
					}
				}()
			}
		}
	}
}
