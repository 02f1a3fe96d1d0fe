package aot

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// TestConfigOrder: the partitioner's configs are ExecuTorch's ALL_PARTITIONER_CONFIGS in its
// order, and each family's config is placed by configOrder exactly once.
func TestConfigOrder(t *testing.T) {
	data, err := os.ReadFile("testdata/executorch_configs.txt")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			want = append(want, line)
		}
	}
	if !slices.Equal(configOrder, want) {
		t.Errorf("configOrder\n %v\nwant ExecuTorch's\n %v", configOrder, want)
	}
	var got []string
	for _, c := range (&Partitioner{}).partitionerConfigs() {
		got = append(got, c.Name)
	}
	if !slices.Equal(got, want) {
		t.Errorf("partitioner configs\n %v\nwant\n %v", got, want)
	}
	registered := map[string]string{}
	for _, f := range families {
		if f.configs == nil {
			continue
		}
		for _, c := range f.configs(&Partitioner{}) {
			if other, dup := registered[c.Name]; dup {
				t.Errorf("%s is registered by families %s and %s", c.Name, other, f.name)
			}
			registered[c.Name] = f.name
			if !slices.Contains(configOrder, c.Name) {
				t.Errorf("family %s registers %s, which configOrder does not place", f.name, c.Name)
			}
		}
	}
}

// TestConfigsHaveVisitors: an operator a config claims is one a visitor writes, but for those
// the preprocess rewrites away before visiting (batch norm). (The affine quantisation configs
// claim nothing, but their operators reach the preprocess as GEMM dependencies.)
func TestConfigsHaveVisitors(t *testing.T) {
	noVisitor := []string{"BatchNormConfig"}
	for _, c := range (&Partitioner{}).partitionerConfigs() {
		visited := false
		for target := range opsByTarget {
			visited = visited || strings.HasSuffix(target, "."+c.Target) && strings.Count(target, ".") == 2
		}
		if visited == slices.Contains(noVisitor, c.Name) {
			t.Errorf("%s (%s): visited %v", c.Name, c.Target, visited)
		}
	}
}

// TestPassFacts: what the passes read from the families' registrations adds up to ExecuTorch's
// lists (FuseActivationPass's FUSEABLE_OPS and FUSEABLE_ACTIVATIONS,
// ChannelsLastTaggedReshapePass's memory_sensitive_ops_nhwc and requires_nchw_inputs), now
// that no pass holds a list of its own. etgo also counts max_pool2d_with_indices as
// channels-last, as the max pool it is (RemoveGetItemPass turns it into max_pool2d first).
func TestPassFacts(t *testing.T) {
	got := map[string][]string{}
	add := func(fact string, ok bool, target string) {
		if ok {
			got[fact] = append(got[fact], target)
		}
	}
	for target, o := range opsByTarget {
		add("takes activation", o.takesActivation, target)
		add("folds", o.folds, target)
		add("nhwc", o.layout == layoutNHWC, target)
		add("nchw", o.layout == layoutNCHW, target)
		add("conversion", o.layout == layoutConversion, target)
		add("values only", o.valuesOnly != "", target+" -> "+o.valuesOnly)
	}
	want := map[string][]string{
		"takes activation": {"aten.add.Tensor", "aten.convolution.default", "aten.linear.default", "aten.mul.Tensor", "aten.sub.Tensor"},
		"folds":            {"aten.hardtanh.default", "aten.relu.default"},
		"nhwc": {"aten.amax.default", "aten.avg_pool2d.default", "aten.convolution.default", "aten.max.dim", "aten.max_pool2d.default",
			"aten.max_pool2d_with_indices.default", "aten.mean.dim", "aten.prelu.default", "aten.upsample_bilinear2d.vec"},
		"nchw":        {"aten.linear.default", "aten.squeeze_copy.dim", "aten.unsqueeze_copy.default", "aten.view_copy.default"},
		"conversion":  {"aten._to_copy.default", "dim_order_ops._to_dim_order_copy.default"},
		"values only": {"aten.max.dim -> aten.amax.default", "aten.max_pool2d_with_indices.default -> aten.max_pool2d.default"},
	}
	for fact, targets := range want {
		slices.Sort(got[fact])
		if !slices.Equal(got[fact], targets) {
			t.Errorf("%s: %v, want %v", fact, got[fact], targets)
		}
	}
}
