package aot

import (
	"encoding/binary"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/irtext"
)

// nodeKinds renders a blob's nodes as "Op[min,max]" with the values' dims, in order.
func nodeKinds(t *testing.T, blob []byte) string {
	t.Helper()
	g, err := xnngraph.ParseBlob(blob)
	if err != nil {
		t.Fatal(err)
	}
	var s []string
	for _, n := range g.Nodes {
		x := strings.TrimPrefix(n.OpName(), "XNN")
		if !math.IsInf(float64(n.OutputMin), -1) || !math.IsInf(float64(n.OutputMax), 1) {
			x += "[" + ftoa(n.OutputMin) + "," + ftoa(n.OutputMax) + "]"
		}
		s = append(s, x)
	}
	return strings.Join(s, " ")
}

func ftoa(f float32) string {
	if math.IsInf(float64(f), 1) {
		return "inf"
	}
	return strconv.FormatFloat(float64(f), 'g', -1, 32)
}

// TestPreprocessPasses: each XNNPACK pass on a graph that needs exactly it.
func TestPreprocessPasses(t *testing.T) {
	for _, tc := range []struct{ name, graph, want, err string }{
		{"activation folded into the convolution; layout converted in and out once", `
in x f32[1,3,8,8]
param w f32[4,3,3,3]
c = aten.convolution.default(input=x, weight=w, stride=[1,1], padding=[1,1], dilation=[1,1], transposed=false, output_padding=[0,0], groups=1) -> f32[1,4,8,8]
r = aten.relu.default(self=c) -> f32[1,4,8,8]
out r`, "StaticTranspose Conv2d[0,inf] StaticTranspose", ""},
		{"an activation whose producer has another reader stays a clamp", `
in x f32[4]
in y f32[4]
a = aten.add.Tensor(self=x, other=y) -> f32[4]
r = aten.relu.default(self=a) -> f32[4]
m = aten.mul.Tensor(self=a, other=r) -> f32[4]
out m`, "Add Clamp[0,inf] Multiply", ""},
		{"batch norm folded into the convolution", `
in x f32[1,2,4,4]
param w f32[2,2,1,1]
param g f32[2]
param b f32[2]
param mean f32[2]
param var f32[2]
c = aten.convolution.default(input=x, weight=w, stride=[1,1], padding=[0,0], dilation=[1,1], transposed=false, output_padding=[0,0], groups=1) -> f32[1,2,4,4]
bn = aten._native_batch_norm_legit_no_training.default(input=c, weight=g, bias=b, running_mean=mean, running_var=var, momentum=0.1, eps=0.001) -> f32[1,2,4,4]
out bn`, "StaticTranspose Conv2d StaticTranspose", ""},
		{"NHWC runs through elementwise ops; conversions sit right after their producer", `
in x f32[1,2,4,4]
param w f32[2,2,1,1]
c = aten.convolution.default(input=x, weight=w, stride=[1,1], padding=[0,0], dilation=[1,1], transposed=false, output_padding=[0,0], groups=1) -> f32[1,2,4,4]
s = aten.sigmoid.default(self=c) -> f32[1,2,4,4]
m = aten.mean.dim(self=s, dim=[2,3], keepdim=true) -> f32[1,2,1,1]
v = aten.view_copy.default(self=s, size=[1,32]) -> f32[1,32]
out m
out v`, "StaticTranspose Conv2d Sigmoid StaticTranspose GlobalAvgPooling2d StaticTranspose StaticReshape", ""},
		{"a cat of 7 becomes a cat of 5 and a cat of 3", `
in a f32[1,2]
in b f32[1,2]
in c f32[1,2]
in d f32[1,2]
in e f32[1,2]
in f f32[1,2]
in g f32[1,2]
y = aten.cat.default(tensors=[a,b,c,d,e,f,g], dim=1) -> f32[1,14]
out y`, "Concatenate5 Concatenate3", ""},
		{"conv1d runs as conv2d between reshapes", `
in x f32[1,2,8]
param w f32[4,2,3]
c = aten.convolution.default(input=x, weight=w, stride=[1], padding=[1], dilation=[1], transposed=false, output_padding=[0], groups=1) -> f32[1,4,8]
out c`, "StaticReshape StaticTranspose Conv2d StaticTranspose StaticReshape", ""},
		{"an identity clone goes", `
in x f32[4]
c = aten.clone.default(self=x) -> f32[4]
y = aten.abs.default(self=c) -> f32[4]
out y`, "Abs", ""},
		{"a clone from an input straight to an output stays", `
in x f32[4]
c = aten.clone.default(self=x) -> f32[4]
out c`, "Copy", ""},
		{"tanh GELU as arithmetic (XNNPACK's GELU node is the erf one)", `
in x f32[4]
y = aten.gelu.default(self=x, approximate="tanh") -> f32[4]
out y`, "Multiply Multiply Multiply Add Multiply Tanh Multiply Add Multiply", ""},
		{"exact GELU is the GELU node", `
in x f32[4]
y = aten.gelu.default(self=x, approximate="none") -> f32[4]
out y`, "Gelu", ""},
		{"a batch norm with an integer eps becomes a depthwise convolution (the partitioner admits it)", `
in x f32[1,8,8,8]
param mu f32[8]
param var f32[8]
bn, sm, sv = aten._native_batch_norm_legit_no_training.default(input=x, weight=none, bias=none, running_mean=mu, running_var=var, momentum=0.1, eps=1) -> f32[1,8,8,8], f32[0], f32[0]
out bn`, "StaticTranspose DepthwiseConv2d StaticTranspose", ""},
		{"an unsupported operator is named", `
in x f32[4]
y = aten.cumsum.default(self=x, dim=0) -> f32[4]
out y`, "", "aten.cumsum.default is not supported"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Preprocess(irtext.WithData(irtext.MustParse(tc.graph)))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := nodeKinds(t, p.Blob); got != tc.want {
				t.Errorf("nodes\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestPreprocessReports: Processed.Passes lists every rewrite by its ExecuTorch name, in
// XNNPACKPassManager's order, with what each changed.
func TestPreprocessReports(t *testing.T) {
	p, err := Preprocess(irtext.WithData(irtext.MustParse(`
in x f32[1,3,8,8]
param w f32[4,3,3,3]
c = aten.convolution.default(input=x, weight=w, stride=[1,1], padding=[1,1], dilation=[1,1], transposed=false, output_padding=[0,0], groups=1) -> f32[1,4,8,8]
r = aten.relu.default(self=c) -> f32[1,4,8,8]
out r`)))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range p.Passes {
		s := r.Pass
		if r.Changed {
			s += ": " + r.Summary
		}
		got = append(got, s)
	}
	want := []string{"RemoveCloneOpsTransform", "FuseBatchNormPass", "DecomposeBatchNorm", "DecomposeTanhGeluPass",
		"FuseActivationPass: fused 1 activation(s) into the node before", "DecomposeConcatenate", "RemoveGetItemPass",
		"Conv1dUnsqueezePass", "ChannelsLastTaggedReshapePass: inserted 2 layout conversion(s)", "RemoveRedundantCopyPass"}
	if !slices.Equal(got, want) {
		t.Errorf("reports\n got %q\nwant %q", got, want)
	}
}

// TestFuseBatchNormValues: the folded weight and bias are torch.nn.utils.fusion's.
func TestFuseBatchNormValues(t *testing.T) {
	g := irtext.WithData(irtext.MustParse(`
in x f32[1,2,4,4]
param w f32[2,2,1,1]
param g f32[2]
param b f32[2]
param mean f32[2]
param var f32[2]
c = aten.convolution.default(input=x, weight=w, stride=[1,1], padding=[0,0], dilation=[1,1], transposed=false, output_padding=[0,0], groups=1) -> f32[1,2,4,4]
bn = aten._native_batch_norm_legit_no_training.default(input=c, weight=g, bias=b, running_mean=mean, running_var=var, momentum=0.1, eps=0.001) -> f32[1,2,4,4]
out bn`))
	p, err := Preprocess(g)
	if err != nil {
		t.Fatal(err)
	}
	// Channel 1: w = [0.03, 0.04], gamma = beta = mean = var = 0.02, no conv bias.
	scale := 0.02 / math.Sqrt(0.02+0.001)
	wantW := []float64{0.03 * scale, 0.04 * scale}
	wantB := (0-0.02)*(1/math.Sqrt(0.02+0.001))*0.02 + 0.02
	var w, bias []float32
	for _, nb := range p.NamedData {
		f := make([]float32, len(nb.Data)/4)
		for i := range f {
			f[i] = math.Float32frombits(binary.LittleEndian.Uint32(nb.Data[4*i:]))
		}
		if len(f) == 4 {
			w = f
		} else {
			bias = f
		}
	}
	if len(w) != 4 || len(bias) != 2 {
		t.Fatalf("weights %v, bias %v", w, bias)
	}
	for i, want := range wantW {
		if math.Abs(float64(w[2+i])-want) > 1e-7 {
			t.Errorf("fused weight [1,%d] = %v, want %v", i, w[2+i], want)
		}
	}
	if math.Abs(float64(bias[1])-wantB) > 1e-7 {
		t.Errorf("fused bias[1] = %v, want %v", bias[1], wantB)
	}
}

// TestTanhGeluValues runs the tanh GELU blob against torch's formula in float64, NaN and ±Inf
// included (0.5·x·(1+tanh(√(2/π)(x+0.044715x³))): Inf → Inf, -Inf → NaN as in torch, whose
// -Inf·0 is NaN too).
func TestTanhGeluValues(t *testing.T) {
	xs := []float32{-6, -3, -1.5, -0.5, -1e-3, 0, 1e-3, 0.5, 1, 2, 3.5, 8, float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))}
	g := irtext.MustParse(`
in x f32[15]
y = aten.gelu.default(self=x, approximate="tanh") -> f32[15]
out y`)
	p, err := Preprocess(g)
	if err != nil {
		t.Fatal(err)
	}
	named := map[string][]byte{}
	for _, nb := range p.NamedData {
		named[nb.Key] = nb.Data
	}
	var b xnnpack.Backend
	h, err := b.Init(&executor.BackendInitContext{NamedData: func(k string) ([]byte, error) { return named[k], nil }}, p.Blob, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Destroy(h)
	x, err := executor.FromSlice(xs, len(xs))
	if err != nil {
		t.Fatal(err)
	}
	out, err := executor.NewTensor(executor.Float32, len(xs))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Execute(&executor.BackendExecutionContext{}, h, []*executor.EValue{{Tag: executor.TagTensor, Tensor: x}, {Tag: executor.TagTensor, Tensor: out}}); err != nil {
		t.Fatal(err)
	}
	got := executor.Data[float32](out)
	for i, v := range xs {
		x := float64(v)
		want := 0.5 * x * (1 + math.Tanh(math.Sqrt(2/math.Pi)*(x+0.044715*x*x*x)))
		g := float64(got[i])
		switch {
		case math.IsNaN(want):
			if !math.IsNaN(g) {
				t.Errorf("gelu(%v) = %v, want NaN", x, g)
			}
		case math.IsInf(want, 0):
			if g != want {
				t.Errorf("gelu(%v) = %v, want %v", x, g, want)
			}
		case math.Abs(g-want) > 2e-6*math.Max(1, math.Abs(want)):
			t.Errorf("gelu(%v) = %v, want %v", x, g, want)
		}
	}
}
