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
// the preprocess rewrites away before visiting (batch norm) or that etgo does not preprocess
// yet (the quantisation operators).
func TestConfigsHaveVisitors(t *testing.T) {
	noVisitor := []string{"BatchNormConfig", "QuantizedPerTensorConfig", "DeQuantizedPerTensorConfig",
		"QuantizeAffineConfig", "DeQuantizeAffineConfig", "ChooseQParamsAffineConfig"}
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
