package passes

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/etgo/etgo/internal/irtext"
	"github.com/etgo/etgo/ir"
)

// show renders a graph as "name: target(args) | outputs", with tensor arguments by value name
// and other arguments by value, so a test can state the whole expected graph.
func show(g *ir.Graph) string {
	var lines []string
	for _, n := range g.Nodes {
		var args []string
		for _, a := range n.Args {
			var v string
			switch a.Kind {
			case ir.ArgTensor, ir.ArgTensors:
				var names []string
				for _, x := range a.Values {
					names = append(names, x.Name)
				}
				v = strings.Join(names, ",")
			case ir.ArgInts:
				v = fmt.Sprint(a.Ints)
			case ir.ArgSymInts:
				items := make([]string, len(a.Ints))
				for i, x := range a.Ints {
					items[i] = fmt.Sprint(x)
					if a.Values[i] != nil {
						items[i] = "$" + a.Values[i].Name
					}
				}
				v = "[" + strings.Join(items, " ") + "]"
			case ir.ArgSymInt:
				v = "$" + a.Values[0].Name
			case ir.ArgInt, ir.ArgScalarType:
				v = fmt.Sprint(a.Int)
			case ir.ArgFloat:
				v = fmt.Sprint(a.Float)
			case ir.ArgBool:
				v = fmt.Sprint(a.Bool)
			case ir.ArgNone:
				v = "none"
			}
			args = append(args, a.Name+"="+v)
		}
		lines = append(lines, fmt.Sprintf("%s: %s(%s)", n.Name, n.Target, strings.Join(args, " ")))
	}
	var outs []string
	for _, o := range g.Outputs {
		outs = append(outs, o.Value.Name)
	}
	return strings.Join(lines, "\n") + "\n| " + strings.Join(outs, " ")
}

// anonymous renames the values a rendered graph defines ("name: target(…)") to v0, v1, … in
// order, so that two graphs compare equal when they differ only in the names etgo gives new
// nodes (the official graphs' names differ from both anyway).
func anonymous(rendered string) string {
	lines := strings.Split(rendered, "\n")
	names := map[string]string{}
	for _, l := range lines {
		if name, _, ok := strings.Cut(l, ": "); ok && !strings.ContainsAny(name, " =") {
			names[name] = fmt.Sprintf("v%d", len(names))
		}
	}
	rename := func(w string) string {
		if v, ok := names[w]; ok {
			return v
		}
		return w
	}
	value := regexp.MustCompile(`=([^ )]+)`)
	for i, l := range lines {
		if outs, ok := strings.CutPrefix(l, "| "); ok {
			fields := strings.Fields(outs)
			for j, f := range fields {
				fields[j] = rename(f)
			}
			lines[i] = "| " + strings.Join(fields, " ")
			continue
		}
		name, rest, ok := strings.Cut(l, ": ")
		if !ok {
			continue
		}
		rest = value.ReplaceAllStringFunc(rest, func(m string) string {
			items := strings.Split(m[1:], ",")
			for j, it := range items {
				items[j] = rename(it)
			}
			return "=" + strings.Join(items, ",")
		})
		lines[i] = rename(name) + ": " + rest
	}
	return strings.Join(lines, "\n")
}

func TestToEdge(t *testing.T) {
	for _, tc := range []struct {
		name  string
		keep  []Preserve
		graph string
		want  string
		err   string
	}{
		{
			name: "conv2d gets convolution's full argument list, defaults filled in",
			graph: `
in x f32[1,3,8,8]
param w f32[8,3,3,3]
c = aten.conv2d.default(input=x, weight=w, padding=[1,1]) -> f32[1,8,8,8]
out c`,
			want: "c: aten.convolution.default(input=x weight=w bias=none stride=[1 1] padding=[1 1] dilation=[1 1] transposed=false output_padding=[0 0] groups=1)\n| c",
		},
		{
			name: "conv1d has one spatial dim",
			graph: `
in x f32[1,3,8]
param w f32[8,3,3]
param b f32[8]
c = aten.conv1d.default(input=x, weight=w, bias=b, stride=[2], groups=1) -> f32[1,8,3]
out c`,
			want: "c: aten.convolution.default(input=x weight=w bias=b stride=[2] padding=[0] dilation=[1] transposed=false output_padding=[0] groups=1)\n| c",
		},
		{
			name: "in-place ops become functional and later readers read their result",
			graph: `
in x f32[4]
param w f32[4]
a = aten.mul.Tensor(self=x, other=w) -> f32[4]
r = aten.relu_.default(self=a) -> f32[4]
s = aten.add_.Tensor(self=a, other=x) -> f32[4]
out a`,
			want: "a: aten.mul.Tensor(self=x other=w)\nr: aten.relu.default(self=a)\ns: aten.add.Tensor(self=r other=x)\n| s",
		},
		{
			name: "in-place op on a graph input is refused",
			graph: `
in x f32[4]
r = aten.relu_.default(self=x) -> f32[4]
out r`,
			err: "mutates the graph input x",
		},
		{
			name: "batch norm in eval mode, dropout gone, 1x1 adaptive pool is a mean, flatten a view",
			graph: `
in x f32[1,8,4,4]
param g f32[8]
param b f32[8]
param m f32[8]
param v f32[8]
bn = aten.batch_norm.default(input=x, weight=g, bias=b, running_mean=m, running_var=v, training=false, momentum=0.1, eps=0.00001, cudnn_enabled=false) -> f32[1,8,4,4]
p = aten.adaptive_avg_pool2d.default(self=bn, output_size=[1,1]) -> f32[1,8,1,1]
f = aten.flatten.using_ints(self=p, start_dim=1) -> f32[1,8]
d = aten.dropout.default(input=f, p=0.2, train=false) -> f32[1,8]
out d`,
			want: "_native_batch_norm_legit_no_training: aten._native_batch_norm_legit_no_training.default(input=x weight=g bias=b running_mean=m running_var=v momentum=0.1 eps=1e-05)\n" +
				"p: aten.mean.dim(self=_native_batch_norm_legit_no_training dim=[-1 -2] keepdim=true)\nf: aten.view_copy.default(self=p size=[1 8])\n| f",
		},
		{
			name: "resize_ within the storage is a contiguous as_strided view",
			graph: `
in x f32[2,3]
c = aten.clone.default(self=x) -> f32[2,3]
r = aten.resize_.default(self=c, size=[5]) -> f32[5]
out r`,
			want: "c: dim_order_ops._clone_dim_order.default(self=x dim_order=[0 1])\nr: aten.as_strided_copy.default(self=c size=[5] stride=[1])\n| r",
		},
		{
			name: "resize_ growing the storage is refused",
			graph: `
in x f32[2,3]
c = aten.clone.default(self=x) -> f32[2,3]
r = aten.resize_.default(self=c, size=[7]) -> f32[7]
out r`,
			err: "grows the storage",
		},
		{
			name: "mH of a complex tensor needs a conjugate view and is refused",
			graph: `
in x c64[2,3]
h = aten.mH.default(self=x) -> c64[3,2]
out h`,
			err: "aten._conj.default",
		},
		{
			name: "mH of a real tensor is a transpose; atleast_3d of a matrix unsqueezes behind",
			graph: `
in x f32[2,3]
h = aten.mH.default(self=x) -> f32[3,2]
a = aten.atleast_3d.default(self=h) -> f32[3,2,1]
out a`,
			want: "h: aten.permute_copy.default(self=x dims=[1 0])\na: aten.unsqueeze_copy.default(self=h dim=-1)\n| a",
		},
		{
			name: "training-mode batch norm is refused",
			graph: `
in x f32[1,8,4,4]
param m f32[8]
param v f32[8]
bn = aten.batch_norm.default(input=x, weight=none, bias=none, running_mean=m, running_var=v, training=true, momentum=0.1, eps=0.00001, cudnn_enabled=false) -> f32[1,8,4,4]
out bn`,
			err: "training-mode batch norm",
		},
		{
			name: "reshape is a view when the strides allow one (b keeps the sliced dims adjacent), else a copy then a view",
			graph: `
in x f32[2,8,10]
a = aten.reshape.default(self=x, shape=[16,10]) -> f32[16,10]
s = aten.slice.Tensor(self=x, dim=1, start=2, end=6) -> f32[2,4,10]
b = aten.reshape.default(self=s, shape=[2,40]) -> f32[2,40]
c = aten.reshape.default(self=s, shape=[8,10]) -> f32[8,10]
out a
out b
out c`,
			want: "a: aten.view_copy.default(self=x size=[16 10])\ns: aten.slice_copy.Tensor(self=x dim=1 start=2 end=6)\n" +
				"b: aten.view_copy.default(self=s size=[2 40])\n" +
				"c_clone: dim_order_ops._clone_dim_order.default(self=s dim_order=[0 1 2])\nc: aten.view_copy.default(self=c_clone size=[8 10])\n| a b c",
		},
		{
			name: "a reshape with symbolic sizes of a contiguous tensor is a view with reshape's own size list",
			graph: `
sym s0
in x f32[s0,4,5]
v = aten.view.default(self=x, size=[$s0,-1]) -> f32[s0,20]
r = aten.reshape.default(self=v, shape=[$s0,2,-1]) -> f32[s0,2,10]
out r`,
			want: "v: aten.view_copy.default(self=x size=[$s0 -1])\nr: aten.view_copy.default(self=v size=[$s0 2 -1])\n| r",
		},
		{
			name: "a reshape with symbolic sizes of a permuted tensor is refused",
			graph: `
sym s0
in x f32[s0,4,5]
p = aten.permute.default(self=x, dims=[1,0,2]) -> f32[4,s0,5]
r = aten.reshape.default(self=p, shape=[-1]) -> f32[20*s0]
out r`,
			err: "may not be contiguous",
		},
		{
			name: "reshape after a permute that keeps merged dims together is still a view",
			graph: `
in x f32[2,3,4]
p = aten.permute.default(self=x, dims=[1,0,2]) -> f32[3,2,4]
r = aten.reshape.default(self=p, shape=[3,2,2,2]) -> f32[3,2,2,2]
out r`,
			want: "p: aten.permute_copy.default(self=x dims=[1 0 2])\nr: aten.view_copy.default(self=p size=[3 2 2 2])\n| r",
		},
		{
			name: "to(dtype) converts through _to_dim_order_copy, or is nothing when the dtype matches",
			graph: `
in x f32[4]
a = aten.to.dtype(self=x, dtype=dt:4) -> i64[4]
b = aten.to.dtype(self=x, dtype=dt:6) -> f32[4]
t = aten._assert_tensor_metadata.default(a=x, dtype=dt:6) -> f32[0]
c = aten.__and__.Tensor(self=a, other=a) -> i64[4]
out b
out c`,
			want: "a: dim_order_ops._to_dim_order_copy.default(self=x dtype=4 dim_order=[0])\nc: aten.bitwise_and.Tensor(self=a other=a)\n| x c",
		},
		{
			name: "a node the keeping partitioner's filter declines is not kept",
			keep: []Preserve{{Ops: []string{"aten.prelu.default"}, Keep: func(_ *ir.Graph, n *ir.Node) bool { return n.Name == "a" }}},
			graph: `
in x f32[2,4]
param w f32[4]
a = aten.prelu.default(self=x, weight=w) -> f32[2,4]
b = aten.prelu.default(self=x, weight=w) -> f32[2,4]
out a
out b`,
			want: "a: aten.prelu.default(self=x weight=w)\nview: aten.view_copy.default(self=w size=[1 4])\ngt: aten.gt.Scalar(self=x other=0)\n" +
				"mul: aten.mul.Tensor(self=view other=x)\nwhere: aten.where.self(condition=gt self=x other=mul)\n| a where",
		},
		{
			name: "linear of a contiguous 3-D input with a bias: flattened, addmm of the permuted weight, viewed back",
			graph: `
in x f32[2,5,4]
param w f32[3,4]
param b f32[3]
y = aten.linear.default(input=x, weight=w, bias=b) -> f32[2,5,3]
out y`,
			// ATen's _flatten_nd_linear reshapes the input before it transposes the weight.
			want: "y_reshape: aten.view_copy.default(self=x size=[10 4])\n" +
				"y_permute: aten.permute_copy.default(self=w dims=[1 0])\n" +
				"y_addmm: aten.addmm.default(self=b mat1=y_reshape mat2=y_permute)\n" +
				"y: aten.view_copy.default(self=y_addmm size=[2 5 3])\n| y",
		},
		{
			name: "max_pool2d is max_pool2d_with_indices with the indices unused; hardswish is x*clamp(x+3)/6",
			graph: `
in x f32[1,2,4,4]
p = aten.max_pool2d.default(self=x, kernel_size=[2,2]) -> f32[1,2,2,2]
h = aten.hardswish.default(self=p) -> f32[1,2,2,2]
out h`,
			want: "p: aten.max_pool2d_with_indices.default(self=x kernel_size=[2 2])\n" +
				"_lifted_tensor_constant0_to: dim_order_ops._to_dim_order_copy.default(self=_lifted_tensor_constant0 dtype=6 dim_order=[])\n" +
				"h_add: aten.add.Tensor(self=p other=_lifted_tensor_constant0_to)\n" +
				"h_clamp: aten.clamp.default(self=h_add min=0)\n" +
				"h_clamp_1: aten.clamp.default(self=h_clamp min=none max=6)\n" +
				"h_mul: aten.mul.Tensor(self=p other=h_clamp_1)\n" +
				"_lifted_tensor_constant1_to: dim_order_ops._to_dim_order_copy.default(self=_lifted_tensor_constant1 dtype=6 dim_order=[])\n" +
				"h: aten.div.Tensor(self=h_mul other=_lifted_tensor_constant1_to)\n| h",
		},
		{
			name: "a later partitioner that does not keep an operator undoes an earlier one's keeping",
			keep: []Preserve{{Ops: []string{"aten.conv2d.default"}}, {Ops: nil}},
			graph: `
in x f32[1,3,8,8]
param w f32[8,3,3,3]
c = aten.conv2d.default(input=x, weight=w) -> f32[1,8,6,6]
out c`,
			want: "c: aten.convolution.default(input=x weight=w bias=none stride=[1 1] padding=[0 0] dilation=[1 1] transposed=false output_padding=[0 0] groups=1)\n| c",
		},
		{
			name: "an operator every partitioner keeps stays",
			keep: []Preserve{{Ops: []string{"aten.conv2d.default"}}, {Ops: []string{"aten.conv2d.default"}}},
			graph: `
in x f32[1,3,8,8]
param w f32[8,3,3,3]
c = aten.conv2d.default(input=x, weight=w) -> f32[1,8,6,6]
out c`,
			want: "c: aten.conv2d.default(input=x weight=w)\n| c",
		},
		{
			name: "operators on ExecuTorch's blocklist are never kept",
			keep: []Preserve{{Ops: []string{"aten.item.default"}}},
			graph: `
in x f32[1]
m = aten.item.default(self=x) -> f32[]
out m`,
			err: "node 0 (m) calls aten.item.default, which is not core ATen",
		},
		{
			name: "hardsigmoid is add, two clamps and a div, its scalars lifted int64 constants converted to float",
			graph: `
in x f32[4]
h = aten.hardsigmoid.default(self=x) -> f32[4]
out h`,
			want: "_lifted_tensor_constant0_to: dim_order_ops._to_dim_order_copy.default(self=_lifted_tensor_constant0 dtype=6 dim_order=[])\n" +
				"h_add: aten.add.Tensor(self=x other=_lifted_tensor_constant0_to)\nh_clamp: aten.clamp.default(self=h_add min=0)\n" +
				"h_clamp_1: aten.clamp.default(self=h_clamp min=none max=6)\n" +
				"_lifted_tensor_constant1_to: dim_order_ops._to_dim_order_copy.default(self=_lifted_tensor_constant1 dtype=6 dim_order=[])\n" +
				"h: aten.div.Tensor(self=h_clamp_1 other=_lifted_tensor_constant1_to)\n| h",
		},
		{
			name: "layer_norm, chunk (uneven), transpose and softmax",
			graph: `
in x f32[2,10]
param w f32[10]
n = aten.layer_norm.default(input=x, normalized_shape=[10], weight=w, bias=none, eps=0.001, cudnn_enable=false) -> f32[2,10]
a, b, c = aten.chunk.default(self=n, chunks=3, dim=-1) -> f32[2,4], f32[2,4], f32[2,2]
t = aten.transpose.int(self=a, dim0=0, dim1=-1) -> f32[4,2]
s = aten.softmax.int(self=t, dim=0) -> f32[4,2]
out s
out c`,
			want: "n: aten.native_layer_norm.default(input=x normalized_shape=[10] weight=w bias=none eps=0.001)\n" +
				"a: aten.split_with_sizes_copy.default(self=n split_sizes=[4 4 2] dim=-1)\n" +
				"t: aten.permute_copy.default(self=a dims=[1 0])\ns: aten._softmax.default(self=t dim=0 half_to_float=false)\n| s c",
		},
		{
			name: "causal attention adds the 0/-inf mask torch builds from two aranges",
			graph: `
in q f32[1,2,4,8]
o = aten.scaled_dot_product_attention.default(query=q, key=q, value=q, is_causal=true) -> f32[1,2,4,8]
out o`,
			want: "mul: aten.mul.Scalar(self=q other=0.5946035575013605)\nfull: aten.full.default(size=[4 4] fill_value=true dtype=11 layout= device= pin_memory=false)\narange: aten.arange.start_step(start=0 end=4 step=1 layout= device= pin_memory=false)\n" +
				"unsqueeze: aten.unsqueeze_copy.default(self=arange dim=-2)\narange_1: aten.arange.start_step(start=0 end=4 step=1 layout= device= pin_memory=false)\nunsqueeze_1: aten.unsqueeze_copy.default(self=arange_1 dim=-1)\n" +
				"sub: aten.sub.Tensor(self=unsqueeze other=unsqueeze_1)\nle: aten.le.Scalar(self=sub other=0)\nlogical_and: aten.logical_and.default(self=le other=full)\n" +
				"scalar_tensor: aten.scalar_tensor.default(s=-Inf dtype=6 device=)\nscalar_tensor_1: aten.scalar_tensor.default(s=0 dtype=6 layout= device=)\nwhere: aten.where.self(condition=logical_and self=scalar_tensor_1 other=scalar_tensor)\n" +
				"permute: aten.permute_copy.default(self=q dims=[0 1 3 2])\nmul_1: aten.mul.Scalar(self=permute other=0.5946035575013605)\nexpand: aten.expand_copy.default(self=mul size=[1 2 4 8])\n" +
				"view: aten.view_copy.default(self=expand size=[2 4 8])\nexpand_1: aten.expand_copy.default(self=mul_1 size=[1 2 8 4])\nview_1: aten.view_copy.default(self=expand_1 size=[2 8 4])\n" +
				"bmm: aten.bmm.default(self=view mat2=view_1)\nview_2: aten.view_copy.default(self=bmm size=[1 2 4 4])\nadd: aten.add.Tensor(self=view_2 other=where)\n" +
				"_softmax: aten._softmax.default(self=add dim=-1 half_to_float=false)\neq: aten.eq.Scalar(self=add other=-Inf)\nlogical_not: aten.logical_not.default(self=eq)\n" +
				"any: aten.any.dim(self=logical_not dim=-1 keepdim=true)\nlogical_not_1: aten.logical_not.default(self=any)\nfull_like: aten.full_like.default(self=_softmax fill_value=0 pin_memory=false memory_format=)\n" +
				"where_1: aten.where.self(condition=logical_not_1 self=full_like other=_softmax)\nexpand_2: aten.expand_copy.default(self=where_1 size=[1 2 4 4])\nview_3: aten.view_copy.default(self=expand_2 size=[2 4 4])\n" +
				"expand_3: aten.expand_copy.default(self=q size=[1 2 4 8])\nview_4: aten.view_copy.default(self=expand_3 size=[2 4 8])\nbmm_1: aten.bmm.default(self=view_3 mat2=view_4)\n" +
				"view_5: aten.view_copy.default(self=bmm_1 size=[1 2 4 8])\npermute_1: aten.permute_copy.default(self=view_5 dims=[2 0 1 3])\nclone: dim_order_ops._clone_dim_order.default(self=permute_1 dim_order=[0 1 2 3])\n" +
				"permute_2: aten.permute_copy.default(self=clone dims=[1 2 0 3])\n| permute_2",
		},
		{
			name: "a bool mask becomes 0/-inf before anything else",
			graph: `
in q f32[1,2,4,8]
in m bool[4,4]
o = aten.scaled_dot_product_attention.default(query=q, key=q, value=q, attn_mask=m) -> f32[1,2,4,8]
out o`,
			want: "scalar_tensor: aten.scalar_tensor.default(s=-Inf dtype=6 device=)\nscalar_tensor_1: aten.scalar_tensor.default(s=0 dtype=6 layout= device=)\nwhere: aten.where.self(condition=m self=scalar_tensor_1 other=scalar_tensor)\n" +
				"mul: aten.mul.Scalar(self=q other=0.5946035575013605)\npermute: aten.permute_copy.default(self=q dims=[0 1 3 2])\nmul_1: aten.mul.Scalar(self=permute other=0.5946035575013605)\n" +
				"expand: aten.expand_copy.default(self=mul size=[1 2 4 8])\nview: aten.view_copy.default(self=expand size=[2 4 8])\nexpand_1: aten.expand_copy.default(self=mul_1 size=[1 2 8 4])\n" +
				"view_1: aten.view_copy.default(self=expand_1 size=[2 8 4])\nbmm: aten.bmm.default(self=view mat2=view_1)\nview_2: aten.view_copy.default(self=bmm size=[1 2 4 4])\n" +
				"add: aten.add.Tensor(self=view_2 other=where)\n_softmax: aten._softmax.default(self=add dim=-1 half_to_float=false)\neq: aten.eq.Scalar(self=add other=-Inf)\n" +
				"logical_not: aten.logical_not.default(self=eq)\nany: aten.any.dim(self=logical_not dim=-1 keepdim=true)\nlogical_not_1: aten.logical_not.default(self=any)\n" +
				"full_like: aten.full_like.default(self=_softmax fill_value=0 pin_memory=false memory_format=)\nwhere_1: aten.where.self(condition=logical_not_1 self=full_like other=_softmax)\nexpand_2: aten.expand_copy.default(self=where_1 size=[1 2 4 4])\n" +
				"view_3: aten.view_copy.default(self=expand_2 size=[2 4 4])\nexpand_3: aten.expand_copy.default(self=q size=[1 2 4 8])\nview_4: aten.view_copy.default(self=expand_3 size=[2 4 8])\n" +
				"bmm_1: aten.bmm.default(self=view_3 mat2=view_4)\nview_5: aten.view_copy.default(self=bmm_1 size=[1 2 4 8])\npermute_1: aten.permute_copy.default(self=view_5 dims=[2 0 1 3])\n" +
				"clone: dim_order_ops._clone_dim_order.default(self=permute_1 dim_order=[0 1 2 3])\npermute_2: aten.permute_copy.default(self=clone dims=[1 2 0 3])\n| permute_2",
		},
		{
			name: "grouped-query attention repeats k and v over the query heads after the causal mask",
			graph: `
in q f32[1,4,3,8]
in k f32[1,2,5,8]
in v f32[1,2,5,8]
o = aten.scaled_dot_product_attention.default(query=q, key=k, value=v, is_causal=true, enable_gqa=true) -> f32[1,4,3,8]
out o`,
			want: "mul: aten.mul.Scalar(self=q other=0.5946035575013605)\nfull: aten.full.default(size=[3 5] fill_value=true dtype=11 layout= device= pin_memory=false)\narange: aten.arange.start_step(start=0 end=5 step=1 layout= device= pin_memory=false)\n" +
				"unsqueeze: aten.unsqueeze_copy.default(self=arange dim=-2)\narange_1: aten.arange.start_step(start=0 end=3 step=1 layout= device= pin_memory=false)\nunsqueeze_1: aten.unsqueeze_copy.default(self=arange_1 dim=-1)\n" +
				"sub: aten.sub.Tensor(self=unsqueeze other=unsqueeze_1)\nle: aten.le.Scalar(self=sub other=0)\nlogical_and: aten.logical_and.default(self=le other=full)\n" +
				"scalar_tensor: aten.scalar_tensor.default(s=-Inf dtype=6 device=)\nscalar_tensor_1: aten.scalar_tensor.default(s=0 dtype=6 layout= device=)\nwhere: aten.where.self(condition=logical_and self=scalar_tensor_1 other=scalar_tensor)\n" +
				"unsqueeze_2: aten.unsqueeze_copy.default(self=k dim=2)\nexpand: aten.expand_copy.default(self=unsqueeze_2 size=[1 2 2 5 8])\nclone: dim_order_ops._clone_dim_order.default(self=expand dim_order=[0 1 2 3 4])\n" +
				"view: aten.view_copy.default(self=clone size=[1 4 5 8])\nunsqueeze_3: aten.unsqueeze_copy.default(self=v dim=2)\nexpand_1: aten.expand_copy.default(self=unsqueeze_3 size=[1 2 2 5 8])\n" +
				"clone_1: dim_order_ops._clone_dim_order.default(self=expand_1 dim_order=[0 1 2 3 4])\nview_1: aten.view_copy.default(self=clone_1 size=[1 4 5 8])\npermute: aten.permute_copy.default(self=view dims=[0 1 3 2])\n" +
				"mul_1: aten.mul.Scalar(self=permute other=0.5946035575013605)\nexpand_2: aten.expand_copy.default(self=mul size=[1 4 3 8])\nview_2: aten.view_copy.default(self=expand_2 size=[4 3 8])\n" +
				"expand_3: aten.expand_copy.default(self=mul_1 size=[1 4 8 5])\nview_3: aten.view_copy.default(self=expand_3 size=[4 8 5])\nbmm: aten.bmm.default(self=view_2 mat2=view_3)\n" +
				"view_4: aten.view_copy.default(self=bmm size=[1 4 3 5])\nadd: aten.add.Tensor(self=view_4 other=where)\n_softmax: aten._softmax.default(self=add dim=-1 half_to_float=false)\n" +
				"eq: aten.eq.Scalar(self=add other=-Inf)\nlogical_not: aten.logical_not.default(self=eq)\nany: aten.any.dim(self=logical_not dim=-1 keepdim=true)\n" +
				"logical_not_1: aten.logical_not.default(self=any)\nfull_like: aten.full_like.default(self=_softmax fill_value=0 pin_memory=false memory_format=)\nwhere_1: aten.where.self(condition=logical_not_1 self=full_like other=_softmax)\n" +
				"expand_4: aten.expand_copy.default(self=where_1 size=[1 4 3 5])\nview_5: aten.view_copy.default(self=expand_4 size=[4 3 5])\nexpand_5: aten.expand_copy.default(self=view_1 size=[1 4 5 8])\n" +
				"view_6: aten.view_copy.default(self=expand_5 size=[4 5 8])\nbmm_1: aten.bmm.default(self=view_5 mat2=view_6)\nview_7: aten.view_copy.default(self=bmm_1 size=[1 4 3 8])\n" +
				"permute_1: aten.permute_copy.default(self=view_7 dims=[2 0 1 3])\nclone_2: dim_order_ops._clone_dim_order.default(self=permute_1 dim_order=[0 1 2 3])\npermute_2: aten.permute_copy.default(self=clone_2 dims=[1 2 0 3])\n" +
				"| permute_2",
		},
		{
			name: "operators a partitioner keeps whole stay; others with no decomposition are named",
			keep: []Preserve{{Ops: []string{"aten.linear.default"}}},
			graph: `
in x f32[2,4]
param w f32[3,4]
l = aten.linear.default(input=x, weight=w) -> f32[2,3]
n = aten.linalg_eigvals.default(self=l) -> f32[2,3]
out n`,
			err: "node 1 (n) calls aten.linalg_eigvals.default, which is not core ATen",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := irtext.MustParse(tc.graph)
			_, err := ToEdge(g, tc.keep)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := show(g); anonymous(got) != anonymous(tc.want) {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
			for _, in := range g.Inputs {
				if in.Kind == ir.TensorConstant && g.Constants[in.Target] == nil {
					t.Errorf("constant input %s has no data", in.Target)
				}
			}
		})
	}
}

func TestViewStrides(t *testing.T) {
	for _, tc := range []struct {
		sizes, strides, to []int64
		want               []int64 // nil: no view exists
	}{
		{[]int64{2, 3, 4}, []int64{12, 4, 1}, []int64{6, 4}, []int64{4, 1}},
		{[]int64{2, 3, 4}, []int64{12, 4, 1}, []int64{24}, []int64{1}},
		{[]int64{2, 4, 10}, []int64{80, 10, 1}, []int64{8, 10}, nil},            // sliced on dim 1
		{[]int64{2, 4, 10}, []int64{80, 10, 1}, []int64{2, 40}, []int64{80, 1}}, // dims 1,2 still adjacent
		{[]int64{4, 3}, []int64{1, 4}, []int64{12}, nil},                        // transposed
		{[]int64{4, 3}, []int64{1, 4}, []int64{2, 2, 3}, []int64{2, 1, 4}},      // splitting a dim is fine
		{[]int64{2, 1, 4}, []int64{4, 99, 1}, []int64{8}, []int64{1}},           // size-1 dims' strides do not matter
	} {
		got, ok := viewStrides(tc.sizes, tc.strides, tc.to)
		if (tc.want == nil) == ok || (ok && !slices.Equal(got, tc.want)) {
			t.Errorf("view %v (strides %v) as %v: %v %v, want %v", tc.sizes, tc.strides, tc.to, got, ok, tc.want)
		}
	}
}
