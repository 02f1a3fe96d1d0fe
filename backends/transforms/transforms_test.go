package transforms_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends/transforms"
	"github.com/etgo/etgo/internal/irtext"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/passes"
)

// nodes renders a graph's nodes as "op@handle", the target without its namespace and default
// overload.
func nodes(g *ir.Graph) string {
	var s []string
	for _, n := range g.Nodes {
		op := strings.TrimSuffix(strings.TrimPrefix(n.Target, "aten."), ".default")
		s = append(s, fmt.Sprintf("%s@%d", op, n.DebugHandle))
	}
	return strings.Join(s, " ")
}

const (
	linearBN = `
in x f32[4,3]
param w f32[2,3]
param g f32[2]
param b f32[2]
param mean f32[2]
param var f32[2]
fc = aten.linear.default(input=x, weight=w) -> f32[4,2]
bn = aten._native_batch_norm_legit_no_training.default(input=fc, weight=g, bias=b, running_mean=mean, running_var=var, momentum=0.1, eps=0.001) -> f32[4,2]
out bn`
	inputToOutputClone = `
in x f32[4]
c = aten.clone.default(self=x) -> f32[4]
out c`
)

// TestPasses: each pass on a graph that needs it, and on one that does not; the nodes a
// rewrite puts in place of one carry its debug handle.
func TestPasses(t *testing.T) {
	for _, tc := range []struct {
		name      string
		pass      passes.Pass
		graph     string
		want, sum string
	}{
		{"an identity clone goes", transforms.RemoveCloneOps{}, `
in x f32[4]
c = aten.clone.default(self=x) -> f32[4]
y = aten.abs.default(self=c) -> f32[4]
out y`, "abs@2", "removed 1 identity clone(s)"},
		{"a clone to another layout stays", transforms.RemoveCloneOps{}, `
in x f32[1,2,2,2]
c = aten.clone.default(self=x, memory_format=mf:2) -> f32[1,2,2,2]
out c`, "clone@1", ""},
		{"an input-to-output copy goes", transforms.RemoveCloneOps{}, inputToOutputClone, "", "removed 1 identity clone(s)"},
		{"an input-to-output copy stays when asked", transforms.RemoveCloneOps{PreserveInputOutputCopies: true}, inputToOutputClone, "clone@1", ""},
		{"batch norm folded into the linear", transforms.FuseBatchNorm{}, linearBN, "linear@1", "fused 1 batch norm(s) into the convolution or linear before"},
		{"nothing to fuse", transforms.FuseBatchNorm{}, inputToOutputClone, "clone@1", ""},
		{"batch norm as a depthwise convolution", transforms.DecomposeBatchNorm{}, `
in x f32[1,8,8,8]
param mu f32[8]
param var f32[8]
bn, sm, sv = aten._native_batch_norm_legit_no_training.default(input=x, weight=none, bias=none, running_mean=mu, running_var=var, momentum=0.1, eps=0.001) -> f32[1,8,8,8], f32[0], f32[0]
out bn`, "convolution@1", "decomposed 1 batch norm(s) into 1×1 depthwise convolutions; dropped 2 unused parameter(s)"},
		{"a rank-2 batch norm convolved as rank 3", transforms.DecomposeBatchNorm{}, `
in x f32[2,8]
param mu f32[8]
param var f32[8]
bn, sm, sv = aten._native_batch_norm_legit_no_training.default(input=x, weight=none, bias=none, running_mean=mu, running_var=var, momentum=0.1, eps=0.001) -> f32[2,8], f32[0], f32[0]
out bn`, "unsqueeze_copy@1 convolution@1 squeeze_copy.dim@1", "decomposed 1 batch norm(s) into 1×1 depthwise convolutions; dropped 2 unused parameter(s)"},
		{"a cat of 7 as a cat of 5 and a cat of 3", transforms.DecomposeConcatenate{MaxInputs: 5}, `
in a f32[1,2]
y = aten.cat.default(tensors=[a,a,a,a,a,a,a], dim=1) -> f32[1,14]
out y`, "cat@1 cat@1", "split 1 concatenation(s) into chains of at most 5 inputs"},
		{"conv1d between reshapes", transforms.Conv1dUnsqueeze{}, `
in x f32[1,2,8]
param w f32[4,2,3]
c = aten.convolution.default(input=x, weight=w, stride=[1], padding=[1], dilation=[1], transposed=false, output_padding=[0], groups=1) -> f32[1,4,8]
out c`, "unsqueeze_copy@1 convolution@1 squeeze_copy.dim@1", "ran 1 1-d convolution(s) as 2-d; dropped 1 unused parameter(s)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := irtext.WithData(irtext.MustParse(tc.graph))
			for i, n := range g.Nodes {
				n.DebugHandle = uint32(i + 1)
			}
			sum, err := tc.pass.Run(g)
			if err != nil {
				t.Fatal(err)
			}
			if got := nodes(g); got != tc.want || sum != tc.sum {
				t.Errorf("%s\n got %q (%q)\nwant %q (%q)", tc.pass.Name(), got, sum, tc.want, tc.sum)
			}
		})
	}
}

// TestFusedWeightsAreNewParameters: the fusion leaves the weights it read as they were (a
// region's constants alias the program's) and drops them from the graph.
func TestFusedWeightsAreNewParameters(t *testing.T) {
	g := irtext.WithData(irtext.MustParse(linearBN))
	before := string(g.Constants["w"].Data)
	if _, err := (transforms.FuseBatchNorm{}).Run(g); err != nil {
		t.Fatal(err)
	}
	if string(g.Constants["w"].Data) != before {
		t.Error("the original weight changed")
	}
	var names []string
	for _, in := range g.Inputs {
		names = append(names, in.Value.Name)
	}
	if got := strings.Join(names, " "); got != "x w_fused_bn w_bias_fused_bn" {
		t.Errorf("inputs %s", got)
	}
}

// TestBadGraphsAreErrors: a graph whose metadata disagrees with itself is an error, not a panic.
func TestBadGraphsAreErrors(t *testing.T) {
	g := irtext.MustParse(`
in a f32[1,2]
y = aten.cat.default(tensors=[a,a,a,a,a,a], dim=1) -> f32[1,12]
out y`)
	g.Inputs[0].Value.Meta = nil
	if _, err := (transforms.DecomposeConcatenate{MaxInputs: 5}).Run(g); err == nil {
		t.Error("a cat of a tensor without metadata: no error")
	}
	if _, err := (transforms.DecomposeConcatenate{MaxInputs: 1}).Run(irtext.MustParse(inputToOutputClone)); err == nil {
		t.Error("chains of one input: no error")
	}
}
