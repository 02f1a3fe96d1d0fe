package aot_test

import (
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends"
	"github.com/etgo/etgo/backends/all"
	"github.com/etgo/etgo/backends/vulkan/aot"
	"github.com/etgo/etgo/frontend/pt2"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/internal/vktest"
	"github.com/etgo/etgo/internal/zoo"
	"github.com/etgo/etgo/lower"
	"github.com/etgo/etgo/partition"
)

// variants are the partitioner lists of testdata/vulkan's lowerings (generate_vulkan_fixtures.py's
// partitioners()): backend names as `etgo lower --partitioner …` takes them, and the Vulkan
// partitioner's options.
var variants = map[string]struct {
	names []string
	o     aot.Options
}{
	"vulkan":                {[]string{"vulkan"}, aot.Options{}},
	"vulkan_xnnpack":        {[]string{"vulkan", "xnnpack"}, aot.Options{}},
	"vulkan_noconv_xnnpack": {[]string{"vulkan", "xnnpack"}, aot.Options{OperatorBlocklist: []string{"aten.convolution.default"}}},
	"vulkan_small":          {[]string{"vulkan"}, aot.Options{SmallTextureLimits: true}},
}

// plan lowers a zoo model with a variant's partitioners and their recommended transform passes.
func plan(t *testing.T, model, variant string) *partition.Plan {
	t.Helper()
	return planFile(t, testutil.Testdata(t, "zoo", model, "model.pt2"), variant)
}

// planFile lowers the .pt2 at path with a variant's partitioners and transform passes.
func planFile(t *testing.T, path, variant string) *partition.Plan {
	t.Helper()
	prog, err := pt2.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	v, ok := variants[variant]
	if !ok {
		t.Fatalf("unknown variant %q", variant)
	}
	parts, transform, err := all.Registry().Partitioners(v.names, backends.Options{})
	if err != nil {
		t.Fatal(err)
	}
	parts[0] = aot.New(v.o)
	edge, err := lower.ToEdgeTransformAndLower(prog.Graph, lower.Options{Partitioners: parts, TransformPasses: transform})
	if err != nil {
		t.Fatal(err)
	}
	return edge.Plan
}

// TestZooPlansMatchOfficial: for every zoo model the official toolchain lowered with
// [VulkanPartitioner()] and [VulkanPartitioner(), XnnpackPartitioner()], etgo's plan has the
// official delegates (backend and operators of each), and the same delegated and non-delegated
// count per operator.
func TestZooPlansMatchOfficial(t *testing.T) {
	compared := 0
	for _, l := range vktest.Lowerings(t) {
		t.Run(l.Model+"/"+l.Variant, func(t *testing.T) {
			if l.Error != "" {
				t.Skipf("the official lowering failed: %s", l.Error)
			}
			p := plan(t, l.Model, l.Variant)
			if len(p.Delegates) != l.NumDelegatedSubgraphs {
				t.Errorf("%d delegates, official %d", len(p.Delegates), l.NumDelegatedSubgraphs)
			}
			got := zoo.Breakdown(p)
			want := map[string]zoo.OperatorBreakdown{}
			for k, v := range l.ByOperator {
				want[k] = zoo.OperatorBreakdown{Delegated: v.Delegated, NonDelegated: v.NonDelegated}
			}
			if !maps.Equal(got, want) {
				t.Errorf("per-operator counts\n got %v\nwant %v", got, want)
			}
			if g, w := regions(p), officialRegions(l); g != w {
				t.Errorf("regions\n got %s\nwant %s", g, w)
			}
			for _, b := range l.Blobs {
				if b.BackendID != "VulkanBackend" {
					continue
				}
				got := map[string]string{}
				for _, c := range aot.New(variants[l.Variant].o).Spec().CompileSpecs {
					got[c.Key] = hex.EncodeToString(c.Value)
				}
				if !maps.Equal(got, b.CompileSpecs) && !(len(got) == 0 && len(b.CompileSpecs) == 0) {
					t.Errorf("%s: compile specs %v, official %v", b.Name, got, b.CompileSpecs)
				}
			}
			compared++
		})
	}
	if compared == 0 {
		t.Error("no lowering reached the comparison")
	}
}

// regions renders each delegate as its backend and sorted targets (with the getitems FX has
// inside it), regions sorted.
func regions(p *partition.Plan) string {
	getitems := map[string]int{}
	for _, d := range p.Decisions {
		getitems[d.Node] = d.Getitems
	}
	var rs []string
	for _, d := range p.Delegates {
		var ts []string
		for _, n := range d.Region.Nodes {
			ts = append(ts, n.Target)
			for range getitems[n.Name] {
				ts = append(ts, "getitem")
			}
		}
		slices.Sort(ts)
		rs = append(rs, d.Spec.BackendID+fmt.Sprint(ts))
	}
	slices.Sort(rs)
	return strings.Join(rs, " ")
}

func officialRegions(l vktest.Lowering) string {
	var rs []string
	for _, r := range l.Regions {
		ts := slices.Clone(r.Targets)
		slices.Sort(ts)
		rs = append(rs, r.BackendID+fmt.Sprint(ts))
	}
	slices.Sort(rs)
	return strings.Join(rs, " ")
}
