package backends_test

import (
	"strings"
	"testing"

	"github.com/etgo/etgo/backends"
	"github.com/etgo/etgo/backends/all"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/passes"
	"github.com/etgo/etgo/pte"
)

// toy is a backend that claims nothing: enough to exercise the registry.
type toy struct{ id string }

func (p toy) Spec() partition.DelegationSpec { return partition.DelegationSpec{BackendID: p.id} }
func (toy) OpsToNotDecompose() ([]string, func(*ir.Graph, *ir.Node) bool) {
	return nil, nil
}
func (toy) Partition(*ir.Graph) (*partition.Result, error) { return &partition.Result{}, nil }

func backend(name, id string, claims string) backends.Backend {
	return backends.Backend{
		Name: name, ID: id,
		NewPartitioner: func(backends.Options) partition.Partitioner { return toy{id: claims} },
		TransformPasses: func() []passes.Pass {
			return []passes.Pass{passes.RemoveNoopExpandCopy{}, passes.DeadCodeElimination{}}
		},
		Preprocess: func(*ir.Graph, *partition.Delegate) ([]byte, []pte.NamedBlob, error) {
			return nil, nil, nil
		},
	}
}

func TestRegistry(t *testing.T) {
	r := backends.NewRegistry()
	if err := r.Register(backend("toy", "ToyBackend", "ToyBackend")); err != nil {
		t.Fatal(err)
	}
	if err := r.Register(backend("other", "OtherBackend", "NotOther")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		b    backends.Backend
		want string
	}{
		{backend("toy", "X", "X"), "registered twice"},
		{backend("y", "ToyBackend", "ToyBackend"), "id ToyBackend registered twice"},
		{backend("none", "N", "N"), "cannot name a backend"},
		{backends.Backend{Name: "z", ID: "Z"}, "no partitioner"},
	} {
		if err := r.Register(tc.b); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Register(%s/%s) = %v, want %q", tc.b.Name, tc.b.ID, err, tc.want)
		}
	}
	if got := strings.Join(r.Names(), ","); got != "other,toy" {
		t.Errorf("Names = %s", got)
	}
	if r.ByID("ToyBackend") == nil || r.ByID("XnnpackBackend") != nil {
		t.Error("ByID")
	}
	parts, rec, err := r.Partitioners([]string{"toy", "toy"}, backends.Options{})
	if err != nil || len(parts) != 2 || len(rec) != 2 {
		t.Errorf("Partitioners: %d partitioners, %d passes (each once), %v", len(parts), len(rec), err)
	}
	if _, _, err := r.Partitioners([]string{"coreml"}, backends.Options{}); err == nil || !strings.Contains(err.Error(), `unknown partitioner "coreml" (known: other, toy`) {
		t.Errorf("unknown: %v", err)
	}
	if _, _, err := r.Partitioners([]string{"other"}, backends.Options{}); err == nil || !strings.Contains(err.Error(), "delegates to \"NotOther\"") {
		t.Errorf("a partitioner delegating elsewhere: %v", err)
	}
}

// TestAll: the aggregator's registry has every default backend, and each partitioner
// delegates to its backend's id.
func TestAll(t *testing.T) {
	r := all.Registry()
	parts, _, err := r.Partitioners(all.DefaultOrder, backends.Options{PerOp: true})
	if err != nil || len(parts) != len(all.DefaultOrder) {
		t.Fatalf("%d partitioners, %v", len(parts), err)
	}
}
