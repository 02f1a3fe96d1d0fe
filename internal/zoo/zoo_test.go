package zoo

import (
	"math"
	"slices"
	"testing"

	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/npy"
)

// The floor: the committed zoo holds at least this many models.
const minModels = 12

func TestManifestMatchesFiles(t *testing.T) {
	dir := testutil.Testdata(t, "zoo")
	m, err := LoadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"python", "torch", "executorch"} {
		if m.Versions[k] == "" {
			t.Errorf("manifest has no %s version", k)
		}
	}
	if m.Versions["executorch"] != "1.5.1" {
		t.Errorf("zoo made with executorch %s, the pinned version is 1.5.1", m.Versions["executorch"])
	}
	problems, err := m.Verify(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

func TestZooIsComplete(t *testing.T) {
	models := Models(t)
	if len(models) < minModels {
		t.Fatalf("%d models, want at least %d", len(models), minModels)
	}
	names := make([]string, len(models))
	for i, m := range models {
		names[i] = m.Name
	}
	// Models later issues rely on by name.
	for _, want := range []string{"add", "conv_relu", "mlp", "split_delegation", "shape_ops", "int_bool", "dynamic_batch"} {
		if !slices.Contains(names, want) {
			t.Errorf("zoo lacks %s (has %v)", want, names)
		}
	}
}

// TestFixtures reads every model's inputs and outputs and checks them against each other and
// against delegation.json: the official runtime's outputs agree with eager PyTorch, and the
// delegation record is self-consistent.
func TestFixtures(t *testing.T) {
	Each(t, func(t *testing.T, m Model) {
		inputs, err := m.LoadInputs()
		if err != nil {
			t.Fatal(err)
		}
		if len(inputs) == 0 {
			t.Fatal("no inputs")
		}
		eager, err := m.LoadExpected(Eager)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []Variant{Portable, Xnnpack} {
			got, err := m.LoadExpected(v)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(eager) {
				t.Fatalf("%s has %d outputs, eager %d", v, len(got), len(eager))
			}
			worst := 0.0
			for i := range got {
				d := maxAbsDiff(t, got[i], eager[i])
				worst = max(worst, d)
				if got[i].DType != eager[i].DType {
					t.Errorf("%s output %d is %s, eager %s", v, i, got[i].DType, eager[i].DType)
				}
			}
			if worst > 1e-4 {
				t.Errorf("%s outputs differ from eager by %g", v, worst)
			}
			// The generator recorded the same difference; reading the files must reproduce it.
			if rec := m.Delegation.MaxAbsDiffToEager[v]; math.Abs(rec-worst) > 1e-12 {
				t.Errorf("%s: max |Δ| %g, delegation.json says %g", v, worst, rec)
			}
		}
		checkDelegation(t, m.Delegation)
	})
}

func checkDelegation(t *testing.T, d Delegation) {
	t.Helper()
	if d.NumDelegatedSubgraphs != len(d.Regions) {
		t.Errorf("%d delegated subgraphs but %d regions", d.NumDelegatedSubgraphs, len(d.Regions))
	}
	deleg, nondeleg := 0, 0
	for _, b := range d.ByOperator {
		deleg += b.Delegated
		nondeleg += b.NonDelegated
	}
	if deleg != d.NumDelegatedNodes || nondeleg != d.NumNonDelegatedNodes {
		t.Errorf("per-operator totals %d/%d, summary %d/%d", deleg, nondeleg, d.NumDelegatedNodes, d.NumNonDelegatedNodes)
	}
	inRegions := 0
	for _, r := range d.Regions {
		if r.BackendID != "XnnpackBackend" {
			t.Errorf("region %s has backend %q", r.Name, r.BackendID)
		}
		inRegions += len(r.Targets)
	}
	if inRegions != d.NumDelegatedNodes {
		t.Errorf("regions hold %d targets, %d delegated nodes", inRegions, d.NumDelegatedNodes)
	}
	outside := d.DelegateGetitems
	for _, n := range d.NonDelegatedTargets {
		outside += n
	}
	if outside != d.NumNonDelegatedNodes {
		t.Errorf("non-delegated targets + getitems = %d, get_delegation_info says %d", outside, d.NumNonDelegatedNodes)
	}
	if len(d.Delegates[Xnnpack]) != d.NumDelegatedSubgraphs {
		t.Errorf("xnnpack.pte has %d delegates for %d subgraphs", len(d.Delegates[Xnnpack]), d.NumDelegatedSubgraphs)
	}
	if len(d.Delegates[Portable]) != 0 || len(d.Operators[Portable]) == 0 {
		t.Errorf("portable.pte: delegates %v, operators %v", d.Delegates[Portable], d.Operators[Portable])
	}
}

func maxAbsDiff(t *testing.T, a, b *npy.Array) float64 {
	t.Helper()
	if !slices.Equal(a.Shape, b.Shape) {
		t.Fatalf("shape %v vs %v", a.Shape, b.Shape)
	}
	x, err := a.Float64s()
	if err != nil {
		t.Fatal(err)
	}
	y, err := b.Float64s()
	if err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for i := range x {
		worst = max(worst, math.Abs(x[i]-y[i]))
	}
	return worst
}

func TestLoadRefusesIncompleteFolders(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(dir); err == nil {
		t.Error("Load of an empty folder succeeded")
	}
	if _, err := loadModel(dir, true); err == nil {
		t.Error("loadModel of a folder without files succeeded")
	}
}
