package xnnpack

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/internal/xnntest"
	"github.com/etgo/etgo/pte"
)

// FuzzPlan: no blob panics the plan builder, its checks or, for the graphs it accepts whose
// values are small, the kernels. Each input pairs a blob with the named data (weights) of one
// of the official files, so mutated official blobs reach the checks that need their constants.
func FuzzPlan(f *testing.F) {
	blobs, named := xnntest.Blobs(f)
	for i, b := range blobs {
		if len(b) < 32<<10 {
			f.Add(uint8(i), b)
		}
	}
	for _, b := range mutantBlobs(f) {
		f.Add(uint8(0), b)
	}
	f.Fuzz(func(t *testing.T, which uint8, b []byte) {
		g, err := xnngraph.ParseBlob(b)
		if err != nil {
			return
		}
		p, err := newPlan(g, named[int(which)%len(named)])
		if err != nil {
			return
		}
		shapes, err := p.g.InferShapes(p.order, func(i int) []int { return xnngraph.DimsOf(p.g.Values[i].Dims) })
		if err != nil {
			t.Fatalf("newPlan accepted a graph inferShapes refuses: %v", err)
		}
		total := 0
		for _, s := range shapes {
			total += xnngraph.Numel(s)
		}
		if total > 1<<20 || runCost(p, shapes) > 1<<26 {
			return // too large to run here
		}
		args := make([]*executor.EValue, g.NumExterns)
		for i := range g.Values {
			v := &g.Values[i]
			if v.Flags == 0 {
				continue
			}
			dt := executor.Float32
			if p.quant[i] != nil {
				dt = executor.Int8
			}
			dims := shapes[i]
			if dims == nil {
				dims = xnngraph.DimsOf(v.Dims)
			}
			tn, err := executor.NewTensor(dt, dims...)
			if err != nil {
				return
			}
			args[v.ExternalID] = &executor.EValue{Tag: executor.TagTensor, Tensor: tn}
		}
		_ = p.execute(args)
	})
}

// runCost estimates a plan's multiply-adds: each output element times its node's window.
func runCost(p *plan, shapes [][]int) int {
	cost := 0
	for _, st := range p.steps {
		n := st.node
		window := 1
		switch {
		case n.Conv != nil:
			window = int(n.Conv.KernelH) * int(n.Conv.KernelW) * max(int(n.Conv.GroupInputChannels), 1)
		case n.Pool != nil:
			window = int(n.Pool.PoolH) * int(n.Pool.PoolW)
		case n.Op == schema.XNodeUnionXNNFullyConnected || n.Op == schema.XNodeUnionXNNBatchMatrixMultiply:
			if x := shapes[p.index[n.Inputs[0]]]; len(x) > 0 {
				window = x[len(x)-1]
			}
		}
		for _, id := range n.Outputs {
			cost += xnngraph.Numel(shapes[p.index[id]]) * window
		}
	}
	return cost
}

// mutantBlobs returns the delegate blobs of the mutation campaign's corpus
// (testdata/mutants/corpus.json) that differ from their seed's, below 32 KiB.
func mutantBlobs(tb testing.TB) [][]byte {
	raw, err := os.ReadFile(testutil.Testdata(tb, "mutants", "corpus.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var corpus struct {
		Mutants []struct {
			Seed  string `json:"seed"`
			Edits []struct {
				Off  int    `json:"off"`
				Data string `json:"data"`
			} `json:"edits"`
		} `json:"mutants"`
	}
	if err := json.Unmarshal(raw, &corpus); err != nil {
		tb.Fatal(err)
	}
	var out [][]byte
	for _, m := range corpus.Mutants {
		data, err := os.ReadFile(filepath.Join(testutil.RepoRoot(tb), m.Seed))
		if err != nil {
			tb.Fatal(err)
		}
		orig := bytes.Clone(data)
		for _, e := range m.Edits {
			d, err := hex.DecodeString(e.Data)
			if err != nil || e.Off+len(d) > len(data) {
				tb.Fatalf("corpus edit %v", e)
			}
			copy(data[e.Off:], d)
		}
		f, err := pte.Parse(data)
		if err != nil {
			continue
		}
		g, _ := pte.Parse(orig)
		for i, d := range f.Program.ExecutionPlans[0].Delegates {
			b, err := f.DelegateData(&d)
			if err != nil || len(b) >= 32<<10 || i >= len(g.Program.ExecutionPlans[0].Delegates) {
				continue
			}
			if ob, err := g.DelegateData(&g.Program.ExecutionPlans[0].Delegates[i]); err == nil && !bytes.Equal(ob, b) {
				out = append(out, bytes.Clone(b))
			}
		}
	}
	return out
}

// TestIntermediateBudget: a corrupt parameter that makes the graph compute far more than it
// declares (a padding of millions on a 3x3 convolution) is refused; a small disagreement with a
// declared dim, which XNNPACK ignores, is not.
func TestIntermediateBudget(t *testing.T) {
	for _, tc := range []struct {
		pad  uint32
		want string
	}{{2, ""}, {4_000_000, "MB of intermediate values"}} {
		g := xnntest.Graph(t, xnntest.OpCaseNamed(t, "conv 3x3 pad 1"))
		g.Nodes[0].Conv.PadLeft = tc.pad
		order, err := g.Schedule()
		if err != nil {
			t.Fatal(err)
		}
		shapes, err := g.InferShapes(order, func(i int) []int { return xnngraph.DimsOf(g.Values[i].Dims) })
		if err != nil {
			t.Fatal(err)
		}
		err = g.WithinDeclared(shapes)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("pad %d: %v", tc.pad, err)
		case tc.want != "" && (!errors.Is(err, ErrInvalidBlob) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("pad %d: error %v, want ErrInvalidBlob mentioning %q", tc.pad, err, tc.want)
		}
	}
}
