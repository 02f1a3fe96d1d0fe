package aot_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends"
	"github.com/etgo/etgo/backends/all"
	"github.com/etgo/etgo/backends/vulkan/aot"
	"github.com/etgo/etgo/frontend/pt2"
	"github.com/etgo/etgo/internal/irtext"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/lower"
	"github.com/etgo/etgo/partition"
)

// render lists each node: "name" when claimed, "name:reason" when declined.
func render(g *ir.Graph, res *partition.Result) string {
	claimed := map[*ir.Node]bool{}
	for _, r := range res.Regions {
		for _, n := range r.Nodes {
			claimed[n] = true
		}
	}
	var out []string
	for _, n := range g.Nodes {
		if claimed[n] {
			out = append(out, n.Name)
		} else {
			out = append(out, fmt.Sprintf("%s:%s", n.Name, res.Declined[n].Reason))
		}
	}
	return strings.Join(out, " ")
}

func TestPartitionerAdmission(t *testing.T) {
	wide := aot.Extents{16384, 16384, 4096}
	for _, tc := range []struct {
		name  string
		o     aot.Options
		graph string
		want  string
	}{
		{"float unary", aot.Options{}, `in x f32[1,3,8,8]
y = aten.relu.default(self=x) -> f32[1,3,8,8]
out y`, "y"},
		{"unary takes floats only", aot.Options{}, `in x i32[1,3,8,8]
y = aten.relu.default(self=x) -> i32[1,3,8,8]
out y`, "y:dtype"},
		{"float64 has no Vulkan tensor", aot.Options{}, `in x f64[4]
y = aten.add.Tensor(self=x, other=x) -> f64[4]
out y`, "y:dtype"},
		{"no implementation", aot.Options{}, `in x f32[4]
y = aten.erf.default(self=x) -> f32[4]
out y`, "y:unsupported-operator"},
		{"unary of 5 dims", aot.Options{}, `in x f32[1,2,3,4,5]
y = aten.relu.default(self=x) -> f32[1,2,3,4,5]
out y`, "y:geometry"},
		{"binary of 5 dims (buffers)", aot.Options{}, `in x f32[1,2,3,4,5]
y = aten.add.Tensor(self=x, other=x) -> f32[1,2,3,4,5]
out y`, "y"},
		{"conv of batch 2", aot.Options{}, `in x f32[2,3,8,8]
param w f32[4,3,3,3]
y = aten.convolution.default(input=x, weight=w, bias=none, stride=[1,1], padding=[0,0], dilation=[1,1], transposed=false, output_padding=[0,0], groups=1) -> f32[2,4,6,6]
out y`, "y:geometry"},
		{"conv past the texture depth", aot.Options{}, `in x f32[1,9000,4,4]
param w f32[4,9000,1,1]
y = aten.convolution.default(input=x, weight=w, bias=none, stride=[1,1], padding=[0,0], dilation=[1,1], transposed=false, output_padding=[0,0], groups=1) -> f32[1,4,4,4]
out y`, "y:geometry"},
		{"conv within wider limits", aot.Options{TextureLimits: &wide}, `in x f32[1,9000,4,4]
param w f32[4,9000,1,1]
y = aten.convolution.default(input=x, weight=w, bias=none, stride=[1,1], padding=[0,0], dilation=[1,1], transposed=false, output_padding=[0,0], groups=1) -> f32[1,4,4,4]
out y`, "y"},
		{"pool too wide for a texture", aot.Options{}, `in x f32[1,4,2,20000]
y = aten.max_pool2d.default(self=x, kernel_size=[1,1]) -> f32[1,4,2,20000]
out y`, "y:geometry"},
		{"wide add falls back to buffers", aot.Options{SmallTextureLimits: true}, `in x f32[1,4,2,20000]
y = aten.add.Tensor(self=x, other=x) -> f32[1,4,2,20000]
out y`, "y"},
		{"small limits refuse a deep pool", aot.Options{SmallTextureLimits: true}, `in x f32[1,9000,2,2]
y = aten.max_pool2d.default(self=x, kernel_size=[1,1]) -> f32[1,9000,2,2]
out y`, "y:geometry"},
		{"permute into a Vulkan mm", aot.Options{}, `in x f32[2,4]
param w f32[3,4]
t = aten.permute_copy.default(self=w, dims=[1,0]) -> f32[4,3]
y = aten.mm.default(self=x, mat2=t) -> f32[2,3]
out y`, "t y"},
		// The official check of the mm a permute feeds skips the mm's dtypes, so the permute is
		// claimed though the mm is not.
		{"permute into an int mm", aot.Options{}, `in x i32[2,4]
param w i32[3,4]
t = aten.permute_copy.default(self=w, dims=[1,0]) -> i32[4,3]
y = aten.mm.default(self=x, mat2=t) -> i32[2,3]
out y`, "t y:dtype"},
		{"blocklist", aot.Options{OperatorBlocklist: []string{"aten.relu.default"}}, `in x f32[4]
a = aten.add.Tensor(self=x, other=x) -> f32[4]
y = aten.relu.default(self=a) -> f32[4]
out y`, "a y:unsupported-operator"},
		{"allowlist", aot.Options{OperatorAllowlist: []string{"aten.relu.default"}}, `in x f32[4]
a = aten.add.Tensor(self=x, other=x) -> f32[4]
y = aten.relu.default(self=a) -> f32[4]
out y`, "a:unsupported-operator y"},
		{"bool tensors skipped", aot.Options{SkipBoolTensors: true}, `in x f32[4]
y = aten.eq.Tensor(self=x, other=x) -> bool[4]
out y`, "y:dtype"},
		{"comparison makes bools", aot.Options{}, `in x f32[4]
y = aten.eq.Tensor(self=x, other=x) -> bool[4]
out y`, "y"},
		{"dynamic shapes need resizable ops", aot.Options{RequireDynamicShapes: true}, `in x f32[1,4]
y = aten.expand_copy.default(self=x, size=[3,4]) -> f32[3,4]
out y`, "y:dynamic-shape"},
		{"reduction over two dims without keepdim", aot.Options{}, `in x f32[2,3,4]
y = aten.sum.dim_IntList(self=x, dim=[1,2]) -> f32[2]
out y`, "y:geometry"},
		{"reduction of the last dim", aot.Options{}, `in x f32[2,3,4]
y = aten.sum.dim_IntList(self=x, dim=[-1]) -> f32[2,3]
out y`, "y"},
		{"copy that converts", aot.Options{}, `in x f32[4]
in z f16[4]
y = aten.copy.default(self=z, src=x) -> f16[4]
out y`, "y:geometry"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := irtext.MustParse(tc.graph)
			res, err := aot.New(tc.o).Partition(g)
			if err != nil {
				t.Fatal(err)
			}
			if got := render(g, res); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestSpecCompileOptions: the options become compile specs as parse_compile_options writes
// them (texture limits as three little-endian uint32, flags as one byte).
func TestSpecCompileOptions(t *testing.T) {
	if s := aot.New(aot.Options{}).Spec(); s.BackendID != "VulkanBackend" || len(s.CompileSpecs) != 0 {
		t.Errorf("default spec %+v", s)
	}
	lim := aot.Extents{1, 2, 3}
	s := aot.New(aot.Options{TextureLimits: &lim, SkipBoolTensors: true}).Spec()
	var got []string
	for _, c := range s.CompileSpecs {
		got = append(got, fmt.Sprintf("%s=%x", c.Key, c.Value))
	}
	if w := "texture_limits_x=01000000 texture_limits_y=02000000 texture_limits_z=03000000 skip_bool_tensors=01"; strings.Join(got, " ") != w {
		t.Errorf("compile specs %v, want %s", got, w)
	}
}

// TestRegistered: `etgo lower --partitioner vulkan` and `etgo inspect` find the backend.
func TestRegistered(t *testing.T) {
	r := all.Registry()
	b, err := r.Lookup("vulkan")
	if err != nil || b.ID != "VulkanBackend" || r.ByID("VulkanBackend") != b {
		t.Fatalf("lookup: %v, %+v", err, b)
	}
	if r.BlobDescribers()["VulkanBackend"] == nil {
		t.Error("no blob describer for VulkanBackend")
	}
	parts, recommended, err := r.Partitioners([]string{"vulkan", "xnnpack"}, backends.Options{})
	if err != nil || len(parts) != 2 || parts[0].Spec().BackendID != "VulkanBackend" || parts[1].Spec().BackendID != "XnnpackBackend" {
		t.Fatalf("partitioners %v, %v", parts, err)
	}
	if len(recommended) == 0 {
		t.Error("vulkan, xnnpack: XNNPACK's transform passes are missing")
	}
	if _, rec, _ := r.Partitioners([]string{"vulkan"}, backends.Options{}); len(rec) != 0 {
		t.Errorf("vulkan alone recommends %d transform passes, the official none", len(rec))
	}
}

// TestKeptWholeMustBeClaimed: the partitioner keeps hardswish whole for every node, so a
// hardswish it then declines (blocked here) fails the lowering, as the official
// to_edge_transform_and_lower raises "was not decomposed or delegated".
func TestKeptWholeMustBeClaimed(t *testing.T) {
	prog, err := pt2.Open(testutil.Testdata(t, "zoo", "mobilenet_v3_small_small", "model.pt2"))
	if err != nil {
		t.Fatal(err)
	}
	p := aot.New(aot.Options{OperatorBlocklist: []string{"aten.hardswish.default"}})
	_, err = lower.ToEdgeTransformAndLower(prog.Graph, lower.Options{Partitioners: []partition.Partitioner{p}})
	if err == nil || !strings.Contains(err.Error(), "was not decomposed or delegated") || !strings.Contains(err.Error(), "aten.hardswish.default") {
		t.Errorf("error %v", err)
	}
}
