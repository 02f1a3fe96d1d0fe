package aot_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends/vulkan/aot"
	"github.com/etgo/etgo/frontend/pt2"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/lower"
	"github.com/etgo/etgo/partition"
)

// corpusPlan is one entry of testdata/vulkan/corpus_plans.json
// (tools/reference/generate_vulkan_corpus_plans.py): the official VulkanPartitioner's proposal.
type corpusPlan struct {
	Error               string         `json:"error"`
	Regions             [][]string     `json:"regions"`
	NonDelegatedTargets map[string]int `json:"non_delegated_targets"`
}

// patternModels are the corpus models whose official plan takes nodes through the
// partitioner's fusable patterns (patterns/: rotary embedding, SDPA, RMS norm, quantized
// operators), which etgo does not have yet: et_llama's rotary embedding admits its 5-dim
// stack (cat) nodes, which the registry alone declines. Known differences, not matches.
var patternModels = map[string]string{
	"et_llama": "rotary embedding pattern (patterns/rope.py)",
}

// TestCorpusPlansMatchOfficial: on the public model corpus's models that the official Vulkan
// partitioner was run on, etgo's Vulkan partitioner proposes the same regions (operators of
// each) and leaves the same operators outside.
func TestCorpusPlansMatchOfficial(t *testing.T) {
	raw, err := os.ReadFile(testutil.Testdata(t, "vulkan", "corpus_plans.json"))
	if err != nil {
		t.Fatal(err)
	}
	var plans map[string]corpusPlan
	if err := json.Unmarshal(raw, &plans); err != nil {
		t.Fatal(err)
	}
	compared := 0
	for _, name := range slices.Sorted(maps.Keys(plans)) {
		want := plans[name]
		t.Run(name, func(t *testing.T) {
			if want.Error != "" {
				t.Skipf("the official partitioner failed: %s", want.Error)
			}
			if why, ok := patternModels[name]; ok {
				t.Skipf("known difference: etgo has no %s", why)
			}
			prog, err := pt2.Open(testutil.Testdata(t, "corpus", name, "model.pt2"))
			if err != nil {
				t.Fatal(err)
			}
			edge, err := lower.ToEdgeTransformAndLower(prog.Graph, lower.Options{Partitioners: []partition.Partitioner{aot.New(aot.Options{})}})
			if err != nil {
				t.Fatal(err)
			}
			var w []string
			for _, r := range want.Regions {
				var ts []string
				for _, x := range r {
					ts = append(ts, atenName(x))
				}
				slices.Sort(ts)
				w = append(w, "VulkanBackend"+fmt.Sprint(ts))
			}
			slices.Sort(w)
			if g, w := regions(edge.Plan), strings.Join(w, " "); g != w {
				t.Errorf("regions\n got %s\nwant %s", g, w)
			}
			outside := map[string]int{}
			for _, d := range edge.Plan.Decisions {
				if d.Delegate < 0 {
					outside[d.Target]++
				}
			}
			wantOutside := map[string]int{}
			for k, v := range want.NonDelegatedTargets {
				wantOutside[atenName(k)] += v
			}
			if !maps.Equal(outside, wantOutside) {
				t.Errorf("left outside\n got %v\nwant %v", outside, wantOutside)
			}
			compared++
		})
	}
	if compared == 0 {
		t.Error("no corpus model reached the comparison")
	}
}

// atenName names an operator the Edge graph holds as an ATen op as etgo does: the official
// record has OpOverload.__name__ for those ("scalar_tensor.default"), without the namespace
// an Edge op's name has.
func atenName(target string) string {
	if strings.Count(target, ".") == 1 {
		return "aten." + target
	}
	return target
}
