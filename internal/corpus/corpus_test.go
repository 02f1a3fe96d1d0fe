package corpus_test

import (
	"context"
	"flag"
	"fmt"
	"github.com/etgo/etgo/backends/all"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends"
	"github.com/etgo/etgo/emit"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/frontend/pt2"
	"github.com/etgo/etgo/internal/corpus"
	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/internal/zoo"
	"github.com/etgo/etgo/kernels/optimized"
	"github.com/etgo/etgo/kernels/portable"
	"github.com/etgo/etgo/kernels/prim"
	"github.com/etgo/etgo/kernels/quantized"
	"github.com/etgo/etgo/lower"
	"github.com/etgo/etgo/npy"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/pte"
)

var corpusDir = flag.String("corpus", "", "check this corpus folder instead of testdata/corpus (e.g. testdata/corpus-full)")

// rerun is what to do when etgo's behaviour and the report disagree.
func rerun(name string) string {
	return fmt.Sprintf("re-run `tools/reference/generate_corpus.py --etgo-only --only %s` and commit the report", name)
}

// registry is what the etgo binary carries: the portable and primitive kernels, the optimized
// kernels over the portable ones, the quantized library, and every backend (one thread).
func registry(t *testing.T) *executor.Registry {
	reg := executor.NewRegistry()
	if err := portable.Register(reg); err != nil {
		t.Fatal(err)
	}
	if err := optimized.Register(reg, 1); err != nil {
		t.Fatal(err)
	}
	if err := prim.Register(reg); err != nil {
		t.Fatal(err)
	}
	if err := quantized.Register(reg); err != nil {
		t.Fatal(err)
	}
	if err := all.RegisterRuntime(reg, 1); err != nil {
		t.Fatal(err)
	}
	return reg
}

// lowerModel does what `etgo lower model.pt2 -o OUT.pte` does (the default partitioners and
// their recommended passes, emission, the missing-kernel check) and returns the plan once there is one, the
// bytes when it got that far, and the first error.
func lowerModel(m corpus.Model, reg *executor.Registry) (*partition.Plan, []byte, error) {
	aot := all.Registry()
	parts, recommended, err := aot.Partitioners(all.DefaultOrder, backends.Options{})
	if err != nil {
		return nil, nil, err
	}
	prog, err := pt2.Open(m.PT2)
	if err != nil {
		return nil, nil, err
	}
	edge, err := lower.ToEdgeTransformAndLower(prog.Graph, lower.Options{Partitioners: parts, TransformPasses: recommended})
	if err != nil {
		return nil, nil, err
	}
	if _, err := emit.FallbackKernels(edge.Plan); err != nil {
		return nil, nil, err
	}
	c, err := lower.ToExecuTorch(edge.Plan, aot)
	if err != nil {
		return edge.Plan, nil, err
	}
	if err := emit.CheckKernels(c.Program, reg.HasKernel); err != nil {
		return edge.Plan, nil, err
	}
	data, err := pte.Write(c, pte.DefaultWriteOptions)
	return edge.Plan, data, err
}

// message is an error's first line as the report records it: without the model's path, which
// the script passes to etgo as "model.pt2".
func message(err error, m corpus.Model) string {
	s := strings.ReplaceAll(err.Error(), m.PT2, "model.pt2")
	s, _, _ = strings.Cut(s, "\n")
	return strings.TrimSpace(s)
}

// runAndCompare runs a program's forward on the model's inputs and compares every output with
// eager PyTorch's: floats within 1e-4·max(1, max|eager|), other types exactly.
func runAndCompare(prog *executor.Program, m corpus.Model) error {
	meth, err := prog.LoadMethod("forward")
	if err != nil {
		return err
	}
	defer meth.Close()
	var in []*executor.Tensor
	for _, p := range m.Inputs {
		a, err := npy.Load(p)
		if err != nil {
			return err
		}
		x, err := npyconv.Tensor(a)
		if err != nil {
			return err
		}
		in = append(in, x)
	}
	outs, err := meth.Run(context.Background(), in...)
	if err != nil {
		return err
	}
	if len(outs) != len(m.Eager) {
		return fmt.Errorf("%d outputs, eager has %d", len(outs), len(m.Eager))
	}
	for i, p := range m.Eager {
		want, err := npy.Load(p)
		if err != nil {
			return err
		}
		if err := npyconv.Compare(outs[i], want, tolerance(want)); err != nil {
			return fmt.Errorf("output %d: %w", i, err)
		}
	}
	return nil
}

// tolerance is 1e-4·max(1, max|eager|) over the finite values; integer outputs compare exactly
// whatever it is.
func tolerance(a *npy.Array) float64 {
	v, err := a.Float64s()
	if err != nil {
		return 1e-4
	}
	m := 1.0
	for _, x := range v {
		if !math.IsInf(x, 0) && !math.IsNaN(x) {
			m = max(m, math.Abs(x))
		}
	}
	return 1e-4 * m
}

// planDifference is "" when the plan has the official number of delegates and the official
// delegated / non-delegated count per operator (as generate_corpus.py compares them).
func planDifference(p *partition.Plan, d *zoo.Delegation) string {
	var diffs []string
	if len(p.Delegates) != d.NumDelegatedSubgraphs {
		diffs = append(diffs, fmt.Sprintf("%d delegates, official %d", len(p.Delegates), d.NumDelegatedSubgraphs))
	}
	got := zoo.Breakdown(p)
	var keys []string
	for k := range got {
		keys = append(keys, k)
	}
	for k := range d.ByOperator {
		if _, ok := got[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		g, gok := got[k]
		w, wok := d.ByOperator[k]
		if g != w || gok != wok {
			diffs = append(diffs, fmt.Sprintf("%s: %v (present %v), official %v (present %v)", k, g, gok, w, wok))
		}
	}
	return strings.Join(diffs, "; ")
}

// expect checks a report column against what etgo does now: a true column must stay true; a
// false one must stay false, or the report is stale.
func expect(t *testing.T, m corpus.Model, column string, recorded *bool, err error) {
	t.Helper()
	if recorded == nil {
		return
	}
	switch {
	case *recorded && err != nil:
		t.Errorf("%s: the report says yes, now: %v", column, err)
	case !*recorded && err == nil:
		t.Errorf("%s: now yes, the report says no (%s); %s", column, m.Notes[column], rerun(m.Name))
	}
}

// TestCorpus holds etgo to what report.json records for every committed corpus model: the
// official xnnpack.pte runs in etgo's runtime matching eager PyTorch; etgo lowers model.pt2 or
// refuses with the recorded message (typically naming the operator it has no decomposition
// for); its plan matches the official delegation or not, as recorded; its program runs matching
// eager. Progress (a model etgo now lowers, or runs) fails the test until the report is
// regenerated, so the report is never stale.
func TestCorpus(t *testing.T) {
	_, models := corpus.Models(t, *corpusDir)
	reg := registry(t)
	for _, m := range models {
		t.Run(m.Name, func(t *testing.T) {
			if m.Xnnpack != "" {
				prog, err := executor.Open(m.Xnnpack, executor.Options{Registry: reg})
				if err == nil {
					err = runAndCompare(prog, m)
					prog.Close()
				}
				expect(t, m, "etgo_runs_official_pte", m.EtgoRunsOfficialPTE, err)
			}
			if m.EtgoLowers == nil {
				t.Fatal("the report has no etgo_lowers column; " + rerun(m.Name))
			}
			plan, data, err := lowerModel(m, reg)
			switch {
			case err != nil && *m.EtgoLowers:
				t.Fatalf("etgo no longer lowers it: %v", err)
			case err != nil && message(err, m) != m.EtgoError:
				t.Fatalf("etgo now refuses with\n  %s\nthe report says\n  %s\n%s", message(err, m), m.EtgoError, rerun(m.Name))
			case err == nil && !*m.EtgoLowers:
				t.Fatalf("etgo now lowers it; the report says it refuses: %s\n%s", m.EtgoError, rerun(m.Name))
			}
			if plan != nil && m.Delegation != nil && m.PlanEqual != nil {
				var err error
				if d := planDifference(plan, m.Delegation); d != "" {
					err = fmt.Errorf("plan differs: %s", d)
				}
				expect(t, m, "plan_equal", m.PlanEqual, err)
			}
			if data != nil {
				f, err := pte.Parse(data)
				var prog *executor.Program
				if err == nil {
					prog, err = executor.NewProgram(f, executor.Options{Registry: reg})
				}
				if err == nil {
					err = runAndCompare(prog, m)
					prog.Close()
				}
				expect(t, m, "etgo_runs_etgo_pte", m.EtgoRunsEtgoPTE, err)
			}
		})
	}
}

// TestReport: the report covers the corpus's sources, every model says where it comes from,
// and each committed model has the columns the script fills.
func TestReport(t *testing.T) {
	r, models := corpus.Models(t, *corpusDir)
	sources := map[string]int{}
	for _, e := range r.Models {
		if e.Source == "" || e.Description == "" {
			t.Errorf("%s: no source or description", e.Name)
		}
		sources[e.Source]++
		if e.Committed && !e.Exported {
			t.Errorf("%s: committed but not exported", e.Name)
		}
	}
	for _, s := range []string{"torchvision.classification", "executorch.examples", "transformers"} {
		if sources[s] == 0 {
			t.Errorf("no model from %s", s)
		}
	}
	for _, m := range models {
		if m.OfficialLowers == nil {
			t.Errorf("%s: committed without an official_lowers column", m.Name)
		}
	}
}
