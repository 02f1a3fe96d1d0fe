// Package backends is the ahead-of-time side of delegation, one contract for every backend:
// what ExecuTorch splits between a Partitioner (which nodes a backend claims, which operators
// it wants kept whole through the Edge conversion) and a BackendDetails subclass (preprocess:
// compile a claimed region into the opaque blob the .pte stores). A Backend bundles them with
// the names a user and a .pte know the backend by, and a Registry holds the backends a binary
// can lower to, as executor.Registry holds those it can run.
//
// The generic layers (lower, cmd/etgo) name no backend: they look backends up here. Package
// backends/all fills a registry with every backend etgo has; a program that wants fewer builds
// its own.
package backends

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/passes"
	"github.com/etgo/etgo/pte"
)

// Options configure the partitioner a Backend makes.
type Options struct {
	// PerOp makes every claimed node (with its dependencies) its own delegate.
	PerOp bool
	// EnableBF16 admits bfloat16 nodes where a backend, like XnnpackPartitioner(enable_bf16=True),
	// declines them by default (etgo lower --enable-bf16).
	EnableBF16 bool
}

// Backend is one backend's ahead-of-time contract.
type Backend struct {
	// Name is what users call it (etgo lower --partitioner NAME): "xnnpack".
	Name string
	// ID is the backend id a .pte's delegates carry and the runtime registers the backend
	// under (ExecuTorch's BackendDetails subclass name): "XnnpackBackend".
	ID string
	// NewPartitioner makes the backend's partitioner; its Spec().BackendID must be ID.
	NewPartitioner func(Options) partition.Partitioner
	// TransformPasses are the passes ExecuTorch recommends running on the Edge program before
	// this backend partitions it (the backend's get_transform_passes()).
	TransformPasses func() []passes.Pass
	// Preprocess compiles one delegate of a plan whose remaining graph is parent into the
	// blob stored in the .pte, and the named data (weights) the blob refers to.
	Preprocess func(parent *ir.Graph, d *partition.Delegate) ([]byte, []pte.NamedBlob, error)
	// DescribeBlob, when the backend can read its blobs back, counts a blob's operations by
	// type and its values, for `etgo inspect` (nil: inspect shows only the blob's size).
	DescribeBlob func(blob []byte) (ops map[string]int, values int, err error)
}

// Registry holds the backends a binary can lower to, by name and by id.
type Registry struct {
	byName map[string]*Backend
	byID   map[string]*Backend
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{byName: map[string]*Backend{}, byID: map[string]*Backend{}}
}

// Register adds b. Its name and id must be new and it must have a partitioner and a
// preprocess.
func (r *Registry) Register(b Backend) error {
	switch {
	case b.Name == "" || b.ID == "":
		return fmt.Errorf("backends: a backend needs a name and an id (got %q, %q)", b.Name, b.ID)
	case b.Name == "none" || strings.ContainsAny(b.Name, ", "):
		return fmt.Errorf("backends: %q cannot name a backend", b.Name)
	case b.NewPartitioner == nil || b.Preprocess == nil:
		return fmt.Errorf("backends: backend %s has no partitioner or no preprocess", b.Name)
	case r.byName[b.Name] != nil:
		return fmt.Errorf("backends: backend %s registered twice", b.Name)
	case r.byID[b.ID] != nil:
		return fmt.Errorf("backends: backend id %s registered twice (by %s and %s)", b.ID, r.byID[b.ID].Name, b.Name)
	}
	c := b
	r.byName[b.Name], r.byID[b.ID] = &c, &c
	return nil
}

// Lookup returns the backend a user calls name, or an error listing the known names.
func (r *Registry) Lookup(name string) (*Backend, error) {
	if b := r.byName[name]; b != nil {
		return b, nil
	}
	return nil, fmt.Errorf("unknown backend %q (known: %s)", name, strings.Join(r.Names(), ", "))
}

// ByID returns the backend whose delegates carry id, or nil.
func (r *Registry) ByID(id string) *Backend { return r.byID[id] }

// BlobDescribers returns the DescribeBlob of every backend that has one, by backend id.
func (r *Registry) BlobDescribers() map[string]func([]byte) (map[string]int, int, error) {
	m := map[string]func([]byte) (map[string]int, int, error){}
	for id, b := range r.byID {
		if b.DescribeBlob != nil {
			m[id] = b.DescribeBlob
		}
	}
	return m
}

// Names lists the registered backends' names, sorted.
func (r *Registry) Names() []string {
	names := make([]string, 0, len(r.byName))
	for n := range r.byName {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Partitioners makes the partitioners of the named backends, in order, and the union of
// their recommended transform passes in first-seen order (what ExecuTorch's
// to_edge_transform_and_lower runs when each partitioner's backend asks for its own).
func (r *Registry) Partitioners(names []string, o Options) ([]partition.Partitioner, []passes.Pass, error) {
	var parts []partition.Partitioner
	var recommended []passes.Pass
	var seen []string
	for _, name := range names {
		b := r.byName[name]
		if b == nil {
			return nil, nil, fmt.Errorf("unknown partitioner %q (known: %s; none alone for no delegate)", name, strings.Join(r.Names(), ", "))
		}
		p := b.NewPartitioner(o)
		if id := p.Spec().BackendID; id != b.ID {
			return nil, nil, fmt.Errorf("backends: %s's partitioner delegates to %q, not %q", b.Name, id, b.ID)
		}
		parts = append(parts, p)
		if b.TransformPasses == nil {
			continue
		}
		for _, pass := range b.TransformPasses() {
			if !slices.Contains(seen, pass.Name()) {
				seen = append(seen, pass.Name())
				recommended = append(recommended, pass)
			}
		}
	}
	return parts, recommended, nil
}
