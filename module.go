package etgo

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/etgo/etgo/backends/builtin"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/llm"
	"github.com/etgo/etgo/kernels/optimized"
	"github.com/etgo/etgo/kernels/portable"
	"github.com/etgo/etgo/kernels/prim"
	"github.com/etgo/etgo/kernels/quantized"
	"github.com/etgo/etgo/pte"
)

// The errors a Module's calls wrap (see package executor for each one's meaning).
var (
	ErrBackendNotRegistered = executor.ErrBackendNotRegistered
	ErrBackendUnavailable   = executor.ErrBackendUnavailable
	ErrOperatorMissing      = executor.ErrOperatorMissing
	ErrDelegateInit         = executor.ErrDelegateInit
	ErrInvalidArgument      = executor.ErrInvalidArgument
	ErrKernelFailed         = executor.ErrKernelFailed
	ErrMethodNotFound       = executor.ErrMethodNotFound
	ErrMemory               = executor.ErrMemory
	ErrNotSupported         = executor.ErrNotSupported
	// ErrInvalidProgram: the file is not a well-formed ExecuTorch program.
	ErrInvalidProgram = pte.ErrInvalidProgram
	// ErrClosed: the Module was closed.
	ErrClosed = errors.New("etgo: module closed")
)

// Tensor and EValue are package executor's.
type (
	Tensor = executor.Tensor
	EValue = executor.EValue
)

// Module is a loaded program and its methods.
type Module struct {
	prog *executor.Program

	mu     sync.Mutex
	closed bool
	idle   map[string][]*executor.Method // loaded methods no call is using
	all    []*executor.Method            // every method loaded, for Close
}

// Load opens a .pte file with every built-in kernel and backend (or what the options say).
func Load(path string, opts ...Option) (*Module, error) {
	o, reg, err := build(opts)
	if err != nil {
		return nil, err
	}
	p, err := executor.Open(path, executor.Options{Registry: reg, MaxPlannedBytes: o.maxPlanned})
	if err != nil {
		return nil, err
	}
	return &Module{prog: p, idle: map[string][]*executor.Method{}}, nil
}

// LoadBytes is Load for a program already in memory; data must not change while the Module is
// in use.
func LoadBytes(data []byte, opts ...Option) (*Module, error) {
	o, reg, err := build(opts)
	if err != nil {
		return nil, err
	}
	f, err := pte.Parse(data)
	if err != nil {
		return nil, err
	}
	p, err := executor.NewProgram(f, executor.Options{Registry: reg, MaxPlannedBytes: o.maxPlanned})
	if err != nil {
		return nil, err
	}
	return &Module{prog: p, idle: map[string][]*executor.Method{}}, nil
}

// build applies the options and makes the registry they describe.
func build(opts []Option) (*options, *executor.Registry, error) {
	o := &options{threads: 1}
	for _, opt := range opts {
		if err := opt(o); err != nil {
			return nil, nil, err
		}
	}
	if o.registry != nil {
		return o, o.registry, nil
	}
	reg := executor.NewRegistry()
	if err := portable.Register(reg); err != nil {
		return nil, nil, err
	}
	// The optimized kernels replace the portable ones of the same names (ExecuTorch's default
	// CPU build links its optimized library over the portable one the same way).
	if err := optimized.Register(reg, o.threads); err != nil {
		return nil, nil, err
	}
	if err := prim.Register(reg); err != nil {
		return nil, nil, err
	}
	// ExecuTorch's LLM custom operators (attention over a KV cache, cache updates), which the
	// official export_llm flow emits; attention splits its heads over the module's threads.
	if err := llm.Register(reg, o.threads); err != nil {
		return nil, nil, err
	}
	// ExecuTorch's quantized kernel library (quantized_decomposed::*): the quantize/dequantize
	// nodes a delegate leaves outside, and the quantized embeddings of 8da4w LLM programs.
	if err := quantized.Register(reg); err != nil {
		return nil, nil, err
	}
	ids := builtin.IDs()
	if o.backendsSet {
		ids = o.backends
	}
	if err := builtin.RegisterOnly(reg, o.threads, ids...); err != nil {
		return nil, nil, fmt.Errorf("etgo: %w", err)
	}
	return o, reg, nil
}

// MethodNames lists the program's methods.
func (m *Module) MethodNames() []string { return m.prog.MethodNames() }

// LoadMethod loads a method now, so that a missing kernel or backend, or a delegate its backend
// refuses, is reported before the first call. Calls load their method themselves otherwise.
func (m *Module) LoadMethod(name string) error {
	meth, err := m.acquire(name)
	if err != nil {
		return err
	}
	m.release(name, meth)
	return nil
}

// Forward runs the "forward" method on tensor inputs.
func (m *Module) Forward(ctx context.Context, inputs ...*Tensor) ([]*Tensor, error) {
	return m.Run(ctx, "forward", inputs...)
}

// Run runs a method whose inputs and outputs are tensors, and returns copies of its outputs.
func (m *Module) Run(ctx context.Context, method string, inputs ...*Tensor) ([]*Tensor, error) {
	meth, err := m.acquire(method)
	if err != nil {
		return nil, err
	}
	defer m.release(method, meth)
	return meth.Run(ctx, inputs...)
}

// Execute runs a method on any inputs (Int, Double and Bool inputs must equal the values the
// method was traced with) and returns copies of its outputs.
func (m *Module) Execute(ctx context.Context, method string, inputs ...*EValue) ([]*EValue, error) {
	meth, err := m.acquire(method)
	if err != nil {
		return nil, err
	}
	defer m.release(method, meth)
	return meth.Execute(ctx, inputs...)
}

// acquire returns a loaded copy of the method no other call is using.
func (m *Module) acquire(name string) (*executor.Method, error) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil, ErrClosed
	}
	if idle := m.idle[name]; len(idle) > 0 {
		meth := idle[len(idle)-1]
		m.idle[name] = idle[:len(idle)-1]
		m.mu.Unlock()
		return meth, nil
	}
	m.mu.Unlock()
	// Loading (kernel lookup, memory, delegate init) runs outside the lock: a second caller
	// loads a copy of its own meanwhile.
	meth, err := m.prog.LoadMethod(name)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		meth.Close()
		return nil, ErrClosed
	}
	m.all = append(m.all, meth)
	return meth, nil
}

func (m *Module) release(name string, meth *executor.Method) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return // Close has closed it
	}
	m.idle[name] = append(m.idle[name], meth)
}

// Close releases every loaded method and the program. Calls running meanwhile finish first
// only if the caller waits for them: close a Module when no call is in flight.
func (m *Module) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	all := slices.Clone(m.all)
	m.all, m.idle = nil, nil
	m.mu.Unlock()
	for _, meth := range all {
		meth.Close()
	}
	return m.prog.Close()
}
