package aot_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack/aot"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/internal/zoo"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/pte"
)

// describeBlob renders a blob's graph with value ids resolved to what they are (dims, dtype,
// external role, constant key), so two graphs that differ only in value numbering or debug
// handles read the same.
func describeBlob(t *testing.T, blob []byte) string {
	t.Helper()
	g, err := xnngraph.ParseBlob(blob)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[uint32]xnngraph.Value{}
	for _, v := range g.Values {
		byID[v.ID] = v
	}
	val := func(id uint32) string {
		if id == 0xFFFFFFFF {
			return "none"
		}
		v := byID[id]
		s := fmt.Sprintf("%v%v", v.DType, v.Dims)
		if q := v.Quant; q != nil {
			s += fmt.Sprintf("{%v scale=%v zp=%d scales=%v dim=%d buf=%d/%d rowdims=%d group=%d bf16=%v}", q.Kind, q.Scale, q.ZeroPoint,
				q.Scales, q.ChannelDim, q.ScaleBufferIdx, q.NumScales, q.NumNonbatchDims, q.GroupSize, q.ScalesBF16)
		}
		switch {
		case v.IsInput():
			s += fmt.Sprintf("@in%d", v.ExternalID)
		case v.IsOutput():
			s += fmt.Sprintf("@out%d", v.ExternalID)
		case v.ConstantIdx != 0:
			c := g.Constants[v.ConstantIdx]
			s += fmt.Sprintf("@const(%d B %.12s)", c.Size, c.NamedKey)
		}
		return s
	}
	var b strings.Builder
	fmt.Fprintf(&b, "externs %d, %d values, %d constants\n", g.NumExterns, len(g.Values), len(g.Constants))
	for _, n := range g.Nodes {
		fmt.Fprintf(&b, "%s flags=%d min=%v max=%v", n.OpName(), n.Flags, n.OutputMin, n.OutputMax)
		for _, id := range n.Inputs {
			fmt.Fprintf(&b, " %s", val(id))
		}
		b.WriteString(" ->")
		for _, id := range n.Outputs {
			fmt.Fprintf(&b, " %s", val(id))
		}
		if n.Conv != nil {
			fmt.Fprintf(&b, " %+v", *n.Conv)
		}
		if n.Pool != nil {
			fmt.Fprintf(&b, " %+v", *n.Pool)
		}
		for _, f := range []struct {
			name string
			v    any
			set  bool
		}{{"perm", n.Perm, n.Perm != nil}, {"shape", n.NewShape, n.NewShape != nil}, {"offsets", n.Offsets, n.Offsets != nil},
			{"sizes", n.Sizes, n.Sizes != nil}, {"pre", n.PrePadding, n.PrePadding != nil}, {"post", n.PostPadding, n.PostPadding != nil},
			{"value", n.PadValue, n.PadValue != 0}, {"axis", n.Axis, n.Axis != 0}, {"alpha", n.Alpha, n.Alpha != 0},
			{"height", n.NewHeight, n.NewHeight != 0}, {"width", n.NewWidth, n.NewWidth != 0}} {
			if f.set {
				fmt.Fprintf(&b, " %s=%v", f.name, f.v)
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestZooPreprocessMatchesOfficial: for every zoo model, each region etgo lowers compiles to an
// XNNPACK graph equal to the official blob's, node for node: same operations and parameters,
// same value shapes and external roles, and weights with the same SHA-256 (so the same bytes).
// Value numbering and debug handles are not compared.
func TestZooPreprocessMatchesOfficial(t *testing.T) {
	recommended := aot.Backend().TransformPasses()
	zoo.Each(t, func(t *testing.T, m zoo.Model) {
		comparePreprocess(t, zooPlan(t, m.PT2, recommended, &aot.Partitioner{}), m.Xnnpack)
	})
}

// comparePreprocess compiles every delegate of plan and compares its XNNPACK graph with the
// official .pte's at path (describeBlob), and checks every weight etgo stores is among the
// official named data. Regions are matched as a set and nodes within a region as a multiset:
// the order of independent nodes is the partitioner's, not the preprocess's.
func comparePreprocess(t *testing.T, plan *partition.Plan, path string) {
	t.Helper()
	f, err := pte.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	official := f.Program.ExecutionPlans[0].Delegates
	if len(official) != len(plan.Delegates) {
		t.Fatalf("%d delegates, official %d", len(plan.Delegates), len(official))
	}
	var gotAll, wantAll []string
	for i := range plan.Delegates {
		d := &plan.Delegates[i]
		prog, err := d.Program(plan.Graph)
		if err != nil {
			t.Fatal(err)
		}
		want, err := f.DelegateData(&official[i])
		if err != nil {
			t.Fatal(err)
		}
		got, err := aot.Preprocess(prog)
		if err != nil {
			if testing.Verbose() && os.Getenv("ETGO_DUMP_BLOBS") != "" {
				t.Logf("official:\n%s", describeBlob(t, want))
			}
			t.Fatalf("delegate %d: %v", i, err)
		}
		gotAll = append(gotAll, sortedLines(describeBlob(t, got.Blob)))
		wantAll = append(wantAll, sortedLines(describeBlob(t, want)))
		if testing.Verbose() && os.Getenv("ETGO_DUMP_BLOBS") != "" {
			t.Logf("delegate %d\netgo:\n%s\nofficial:\n%s", i, describeBlob(t, got.Blob), describeBlob(t, want))
		}
		for _, nb := range got.NamedData {
			if _, err := f.NamedData(nb.Key); err != nil {
				t.Errorf("delegate %d: weight %.12s… is not in the official named data", i, nb.Key)
			}
		}
	}
	slices.Sort(gotAll)
	slices.Sort(wantAll)
	for i := range gotAll {
		if d := lineDiff(gotAll[i], wantAll[i]); d != "" {
			t.Errorf("a region differs from the official blob:\n%s", d)
		}
	}
}

func sortedLines(s string) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	slices.Sort(l)
	return strings.Join(l, "\n")
}

// lineDiff lists the first lines where got and want differ.
func lineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < max(len(g), len(w)) && shown < 4; i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			fmt.Fprintf(&b, "line %d\n  got:  %s\n  want: %s\n", i, gl, wl)
			shown++
		}
	}
	return b.String()
}
