package aot_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack/aot"
	"github.com/etgo/etgo/frontend/pt2"
	"github.com/etgo/etgo/internal/zoo"
	"github.com/etgo/etgo/lower"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/passes"
)

// zooPlan lowers a zoo model to its partition plan with the XNNPACK partitioner p.
func zooPlan(t *testing.T, path string, transform []passes.Pass, p *aot.Partitioner) *partition.Plan {
	t.Helper()
	prog, err := pt2.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	edge, err := lower.ToEdgeTransformAndLower(prog.Graph, lower.Options{Partitioners: []partition.Partitioner{p}, TransformPasses: transform})
	if err != nil {
		t.Fatal(err)
	}
	return edge.Plan
}

// TestZooPlanMatchesOfficial: for every zoo model, the XNNPACK plan etgo makes from model.pt2 has
// the official number of delegates, the same operators in each, and the same delegated and
// non-delegated count per operator (getitems included, as get_delegation_info counts them).
func TestZooPlanMatchesOfficial(t *testing.T) {
	recommended := aot.Backend().TransformPasses()
	compared := 0
	zoo.Each(t, func(t *testing.T, m zoo.Model) {
		p := &aot.Partitioner{}
		plan := zooPlan(t, m.PT2, recommended, p)
		d := m.Delegation
		if len(plan.Delegates) != d.NumDelegatedSubgraphs {
			t.Errorf("%d delegates, official %d", len(plan.Delegates), d.NumDelegatedSubgraphs)
		}
		got := zoo.Breakdown(plan)
		if !maps.Equal(got, d.ByOperator) {
			t.Errorf("per-operator counts\n got %v\nwant %v", got, d.ByOperator)
		}
		if g, w := regionTargets(plan), officialRegionTargets(d); g != w {
			t.Errorf("regions\n got %s\nwant %s", g, w)
		}
		compared++
	})
	if compared == 0 {
		t.Error("no zoo model reached the comparison")
	}
}

// regionTargets renders each delegate's sorted targets (with the getitems FX has inside it),
// regions sorted, for comparison.
func regionTargets(p *partition.Plan) string {
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
		rs = append(rs, fmt.Sprint(ts))
	}
	slices.Sort(rs)
	return strings.Join(rs, " ")
}

func officialRegionTargets(d zoo.Delegation) string {
	var rs []string
	for _, r := range d.Regions {
		ts := slices.Clone(r.Targets)
		slices.Sort(ts)
		rs = append(rs, fmt.Sprint(ts))
	}
	slices.Sort(rs)
	return strings.Join(rs, " ")
}

// TestRecommendedPassesJoinRegions: in noop_expand a no-op expand sits between supported ops.
// XNNPACK has no expand, so without RemoveNoopExpandCopyPass it splits the delegation; with the
// recommended passes (what the official fixture used) there is one region.
func TestRecommendedPassesJoinRegions(t *testing.T) {
	var m zoo.Model
	for _, x := range zoo.Models(t) {
		if x.Name == "noop_expand" {
			m = x
		}
	}
	if m.Name == "" {
		t.Fatal("zoo model noop_expand is missing")
	}
	recommended := aot.Backend().TransformPasses()
	regions := map[string]int{}
	for name, transform := range map[string][]passes.Pass{"none": nil, "recommended": recommended} {
		p := &aot.Partitioner{}
		plan := zooPlan(t, m.PT2, transform, p)
		regions[name] = len(plan.Delegates)
	}
	if regions["recommended"] != m.Delegation.NumDelegatedSubgraphs || regions["none"] <= regions["recommended"] {
		t.Errorf("regions without passes %d, with recommended %d (official %d); want more without",
			regions["none"], regions["recommended"], m.Delegation.NumDelegatedSubgraphs)
	}
}
