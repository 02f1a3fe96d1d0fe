package executor

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/etgo/etgo/pte"
)

// KernelFunc runs one operator on its arguments: every argument of the out-variant's schema in
// schema order, then the return slot (the out tensor again, or a TensorList for several outs),
// exactly as the program's KernelCall lists them.
type KernelFunc func(ctx *KernelContext, args []*EValue) error

// Kernel is one operator implementation.
type Kernel struct {
	// Name is ExecuTorch's registry key: "ns::op.overload", e.g. "aten::add.out".
	Name string
	// DTypes lists the scalar types of the first tensor argument the kernel computes with; the
	// method load refuses a call on any other, naming the operator. Empty means any.
	DTypes []ScalarType
	Fn     KernelFunc
}

// KernelContext is what a kernel sees besides its arguments.
type KernelContext struct {
	Context     context.Context
	Method      string
	Instruction int
	Operator    string
}

// Errorf returns an error wrapping ErrInvalidArgument, for kernels refusing their arguments.
func (c *KernelContext) Errorf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidArgument, fmt.Sprintf(format, args...))
}

// Backend is a delegate runtime, mirroring ExecuTorch's BackendInterface.
type Backend interface {
	// IsAvailable reports whether the backend can run on this machine.
	IsAvailable() bool
	// Init compiles a delegate blob. It must not keep processed beyond the call unless it
	// copies it (the blob may live in a mapped file). An error refuses the blob; the method
	// load fails with it.
	Init(ctx *BackendInitContext, processed []byte, specs []CompileSpec) (DelegateHandle, error)
	// Execute runs a delegate on its arguments: its inputs, then its outputs.
	Execute(ctx *BackendExecutionContext, h DelegateHandle, args []*EValue) error
	// Destroy releases a handle when its Method is closed.
	Destroy(h DelegateHandle)
}

// AvailabilityExplainer is a Backend that can say why it cannot run here (a missing driver or
// device): a method load refused because IsAvailable is false wraps the reason, and `etgo
// check` prints it.
type AvailabilityExplainer interface {
	// Unavailable returns why the backend cannot run on this machine, nil when it can.
	Unavailable() error
}

// DelegateHandle is a backend's compiled delegate.
type DelegateHandle any

// CompileSpec is one backend compile option.
type CompileSpec = pte.CompileSpec

// BackendInitContext gives Init the method name, the program's named data (delegate weights
// stored by key, e.g. XNNPACK's) and the arguments of the delegate's calls.
type BackendInitContext struct {
	Method    string
	NamedData func(key string) ([]byte, error)
	// Calls holds, for every DelegateCall instruction of the method that calls this delegate,
	// its arguments as the program declares them (tensors with their dtypes and declared sizes;
	// their data is not ready yet), so Init can check its blob against what it will be called
	// with. Nil when a backend is initialised outside a method.
	Calls [][]*EValue
}

// BackendExecutionContext is what Execute sees besides its arguments.
type BackendExecutionContext struct {
	Context context.Context
	Method  string

	tracer             EventTracer // nil unless the method is traced (Profiling)
	chain, instruction int
}

// Registry holds the kernels and backends a program may use. Build it before loading programs;
// it is safe for concurrent reads once built.
type Registry struct {
	mu      sync.RWMutex
	kernels map[string]*Kernel
	// overrides are kernels registered with OverrideKernels: looked up before kernels, so an
	// optimized library wins over the portable one whichever was registered first.
	overrides map[string]*Kernel
	backends  map[string]Backend
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{kernels: map[string]*Kernel{}, overrides: map[string]*Kernel{}, backends: map[string]Backend{}}
}

// RegisterKernels adds kernels; a name registered twice is an error (as in ExecuTorch).
func (r *Registry) RegisterKernels(ks ...Kernel) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := range ks {
		k := ks[i]
		if k.Name == "" || k.Fn == nil {
			return fmt.Errorf("runtime: kernel %d has no name or function", i)
		}
		if _, dup := r.kernels[k.Name]; dup {
			return fmt.Errorf("runtime: kernel %s is already registered", k.Name)
		}
		r.kernels[k.Name] = &k
	}
	return nil
}

// OverrideKernels adds kernels that take precedence over the kernel registered under the same
// name with RegisterKernels, before or after: ExecuTorch's optimized kernel library replaces the
// portable operators of the same name at link time, and this is that choice made explicit. An
// override need not replace anything (the optimized library may have operators the portable one
// lacks). A name overridden twice is an error, so two optimizing libraries cannot silently race;
// RegisterKernels still refuses a plain duplicate.
func (r *Registry) OverrideKernels(ks ...Kernel) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := range ks {
		k := ks[i]
		if k.Name == "" || k.Fn == nil {
			return fmt.Errorf("runtime: override kernel %d has no name or function", i)
		}
		if _, dup := r.overrides[k.Name]; dup {
			return fmt.Errorf("runtime: kernel %s is already overridden", k.Name)
		}
		r.overrides[k.Name] = &k
	}
	return nil
}

// RegisterBackend adds a backend under its id (e.g. "XnnpackBackend").
func (r *Registry) RegisterBackend(id string, b Backend) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.backends[id]; dup {
		return fmt.Errorf("runtime: backend %s is already registered", id)
	}
	r.backends[id] = b
	return nil
}

// Kernel looks up a kernel by name.
func (r *Registry) Kernel(name string) (*Kernel, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if k, ok := r.overrides[name]; ok {
		return k, true
	}
	k, ok := r.kernels[name]
	return k, ok
}

// HasKernel reports whether the registry has a kernel of that name (what emit.CheckKernels asks
// of it).
func (r *Registry) HasKernel(name string) bool {
	_, ok := r.Kernel(name)
	return ok
}

// Backend looks up a backend by id.
func (r *Registry) Backend(id string) (Backend, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	b, ok := r.backends[id]
	return b, ok
}

// KernelNames lists the registered kernels, sorted.
func (r *Registry) KernelNames() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return sortedNames(r.effective())
}

// effective is the kernel each name resolves to (an override, else the registered kernel).
// The caller holds r.mu.
func (r *Registry) effective() map[string]*Kernel {
	if len(r.overrides) == 0 {
		return r.kernels
	}
	m := make(map[string]*Kernel, len(r.kernels)+len(r.overrides))
	for n, k := range r.kernels {
		m[n] = k
	}
	for n, k := range r.overrides {
		m[n] = k
	}
	return m
}

// BackendNames lists the registered backends, sorted.
func (r *Registry) BackendNames() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return sortedNames(r.backends)
}

// Kernels returns the registered kernels sorted by name (for coverage tables).
func (r *Registry) Kernels() []Kernel {
	r.mu.RLock()
	defer r.mu.RUnlock()
	eff := r.effective()
	out := make([]Kernel, 0, len(eff))
	for _, k := range eff {
		out = append(out, *k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
