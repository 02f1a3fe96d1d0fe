package emit_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/etgo/etgo/emit"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/frontend/pt2"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/internal/zoo"
	"github.com/etgo/etgo/internal/zoo/zoorun"
	"github.com/etgo/etgo/kernels/portable"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/passes"
	"github.com/etgo/etgo/pte"
)

// writeDir, when set, receives <model>.pte for every zoo model TestZooEmit emits
// (tools/reference/check_emitted.py runs them in the official runtime).
var writeDir = flag.String("write", "", "write each emitted zoo program to DIR/<model>.pte")

func portableRegistry(t testing.TB) *executor.Registry {
	t.Helper()
	reg := executor.NewRegistry()
	if err := portable.Register(reg); err != nil {
		t.Fatal(err)
	}
	return reg
}

// lowerPortable lowers a zoo model with no partitioner, as to_edge + to_executorch would for
// portable.pte.
func lowerPortable(t *testing.T, m zoo.Model) *partition.Plan {
	t.Helper()
	prog, err := pt2.Open(m.PT2)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := passes.ToEdge(prog.Graph, nil); err != nil {
		t.Fatal(err)
	}
	plan, err := partition.Lower(prog.Graph, nil)
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

// emitWrite emits a plan and serializes it with the pte writer.
func emitWrite(t *testing.T, plan *partition.Plan, opts emit.Options) (*pte.Contents, []byte) {
	t.Helper()
	c, err := emit.Program(plan, opts)
	if err != nil {
		t.Fatal(err)
	}
	b, err := pte.Write(c, pte.DefaultWriteOptions)
	if err != nil {
		t.Fatal(err)
	}
	return c, b
}

func officialPlan(t *testing.T, path string) *pte.ExecutionPlan {
	t.Helper()
	f, err := pte.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	p, err := f.Method("forward")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func operatorSet(p *pte.ExecutionPlan) []string {
	var out []string
	for _, o := range p.Operators {
		out = append(out, o.KernelName())
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestZooEmit: every zoo model lowered with no partitioner is emitted, written, loaded by
// etgo's runtime with the portable kernels and run on the zoo inputs; the outputs match what
// the official runtime produced for portable.pte, the operator table is the official one (as
// a set), and the pytree strings are the official ones.
func TestZooEmit(t *testing.T) {
	reg := portableRegistry(t)
	if *writeDir != "" {
		if err := os.MkdirAll(*writeDir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	zoo.Each(t, func(t *testing.T, m zoo.Model) {
		plan := lowerPortable(t, m)
		c, file := emitWrite(t, plan, emit.Options{})
		if err := emit.CheckKernels(c.Program, reg.HasKernel); err != nil {
			t.Fatal(err)
		}
		if *writeDir != "" {
			if err := os.WriteFile(filepath.Join(*writeDir, m.Name+".pte"), file, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		official := officialPlan(t, m.Portable)
		got := c.Program.ExecutionPlans[0]
		w := operatorSet(official)
		if g := operatorSet(got); !slices.Equal(g, w) {
			t.Errorf("operator table\n got %v\nwant %v (official portable.pte)", g, w)
		}
		if *got.ContainerMetaType != *official.ContainerMetaType {
			t.Errorf("container metadata\n got %+v\nwant %+v", *got.ContainerMetaType, *official.ContainerMetaType)
		}
		runAndCompare(t, reg, file, m, zoo.Portable)
	})
}

func runAndCompare(t *testing.T, reg *executor.Registry, file []byte, m zoo.Model, v zoo.Variant) {
	t.Helper()
	f, err := pte.Parse(file)
	if err != nil {
		t.Fatal(err)
	}
	p, err := executor.NewProgram(f, executor.Options{Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	zoorun.Check(t, p, m, v)
}

// TestZooPlannedMemory: etgo's memory plan never needs more bytes than the official default
// (greedy, 16-byte alignment, inputs and outputs planned) did for portable.pte.
func TestZooPlannedMemory(t *testing.T) {
	zoo.Each(t, func(t *testing.T, m zoo.Model) {
		plan := lowerPortable(t, m)
		c, err := emit.Program(plan, emit.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := c.Program.ExecutionPlans[0].NonConstBufferSizes
		want := officialPlan(t, m.Portable).NonConstBufferSizes
		if len(got) != 2 || len(want) != 2 || got[0] != 0 {
			t.Fatalf("non_const_buffer_sizes %v, official %v: want [0 N]", got, want)
		}
		t.Logf("planned bytes: etgo %d, official %d", got[1], want[1])
		if got[1] > want[1] {
			t.Errorf("etgo plans %d bytes, the official toolchain %d", got[1], want[1])
		}
	})
}

// TestEmitDeterministic: emitting the same plan twice gives identical bytes.
func TestEmitDeterministic(t *testing.T) {
	zoo.Each(t, func(t *testing.T, m zoo.Model) {
		_, a := emitWrite(t, lowerPortable(t, m), emit.Options{})
		_, b := emitWrite(t, lowerPortable(t, m), emit.Options{})
		if !bytes.Equal(a, b) {
			t.Error("two emissions of the same model differ")
		}
	})
}

// TestEmittedReport checks the committed report of tools/reference/check_emitted.py: every zoo
// model's etgo-emitted portable program ran in the official runtime and matched eager (floats
// within 1e-4, integers and bools exactly). Rerun the script after changing the emitter.
func TestEmittedReport(t *testing.T) {
	raw, err := os.ReadFile(testutil.Testdata(t, "emitted_report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []struct {
		Model string   `json:"model"`
		Run   string   `json:"run"`
		Diff  *float64 `json:"max_abs_diff_vs_eager"`
		Match bool     `json:"match"`
	}
	if err := json.Unmarshal(raw, &rows); err != nil {
		t.Fatal(err)
	}
	byModel := map[string]int{}
	for i, r := range rows {
		byModel[r.Model] = i
	}
	zoo.Each(t, func(t *testing.T, m zoo.Model) {
		i, ok := byModel[m.Name]
		if !ok {
			t.Fatal("not in testdata/emitted_report.json (rerun tools/reference/check_emitted.py)")
		}
		r := rows[i]
		if r.Run != "ok" || !r.Match || r.Diff == nil || *r.Diff > 1e-4 {
			t.Errorf("the official runtime on etgo's program: run %q, match %v, max abs diff to eager %v", r.Run, r.Match, r.Diff)
		}
	})
}
