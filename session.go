package etgo

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/pte"
)

// ErrSessionBusy: a Session was called while another call of it was running.
var ErrSessionBusy = errors.New("etgo: session in use by another call")

// Session is one loaded copy of a method that belongs to one caller. A method's mutable buffers
// (a decoder's KV cache, any state a program updates in place) live in its loaded copy and carry
// from each call to the next, as in ExecuTorch's Module, which holds one copy per method. The
// Module's own Execute also keeps them between calls made one after another, but calls that
// overlap run on separate copies, each with its own state; a caller whose calls must see one
// state — a token generator — holds a Session, which no other call uses.
//
// A Session serves one call at a time (a second concurrent call returns ErrSessionBusy rather
// than interleave two conversations in one cache). Close it when done; closing the Module closes
// it too.
type Session struct {
	mod    *Module
	name   string
	mu     sync.Mutex
	meth   *executor.Method
	closed bool
}

// Session loads a fresh copy of the method (its mutable buffers at their initial values) for
// the caller alone.
func (m *Module) Session(method string) (*Session, error) {
	m.mu.Lock()
	closed := m.closed
	m.mu.Unlock()
	if closed {
		return nil, ErrClosed
	}
	meth, err := m.prog.LoadMethod(method)
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
	return &Session{mod: m, name: method, meth: meth}, nil
}

// Method is the name of the session's method.
func (s *Session) Method() string { return s.name }

// Execute runs the method on any inputs (see Module.Execute) and returns copies of its outputs;
// the method's state stays for the next call.
func (s *Session) Execute(ctx context.Context, inputs ...*EValue) ([]*EValue, error) {
	if !s.mu.TryLock() {
		return nil, fmt.Errorf("%w: method %q", ErrSessionBusy, s.name)
	}
	defer s.mu.Unlock()
	if err := s.usable(); err != nil {
		return nil, err
	}
	return s.meth.Execute(ctx, inputs...)
}

// Run is Execute for tensor inputs and outputs.
func (s *Session) Run(ctx context.Context, inputs ...*Tensor) ([]*Tensor, error) {
	if !s.mu.TryLock() {
		return nil, fmt.Errorf("%w: method %q", ErrSessionBusy, s.name)
	}
	defer s.mu.Unlock()
	if err := s.usable(); err != nil {
		return nil, err
	}
	return s.meth.Run(ctx, inputs...)
}

func (s *Session) usable() error {
	if s.closed {
		return fmt.Errorf("%w: session of method %q", ErrClosed, s.name)
	}
	s.mod.mu.Lock()
	defer s.mod.mu.Unlock()
	if s.mod.closed {
		return ErrClosed
	}
	return nil
}

// Close releases the session's copy of the method.
func (s *Session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	m := s.mod
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil // Module.Close closed it
	}
	for i, x := range m.all {
		if x == s.meth {
			m.all = append(m.all[:i], m.all[i+1:]...)
			break
		}
	}
	s.meth.Close()
	return nil
}

// ValueInfo describes one input or output of a method as the program declares it.
type ValueInfo struct {
	// Tag is the value's kind (executor.TagTensor, executor.TagInt, ...).
	Tag executor.Tag
	// For tensors: the element type, the sizes (the upper bounds when Dynamic) and whether the
	// sizes may change within those bounds.
	DType   executor.ScalarType
	Sizes   []int
	Dynamic bool
}

// MethodMeta is a method's signature, read from the program without loading the method
// (ExecuTorch's MethodMeta).
type MethodMeta struct {
	Name    string
	Inputs  []ValueInfo
	Outputs []ValueInfo
}

// MethodMeta returns the signature of a method.
func (m *Module) MethodMeta(method string) (MethodMeta, error) {
	plan, err := m.prog.File().Method(method)
	if err != nil {
		return MethodMeta{}, fmt.Errorf("%w: %q", ErrMethodNotFound, method)
	}
	info := func(idx []int32) []ValueInfo {
		out := make([]ValueInfo, len(idx))
		for i, k := range idx {
			out[i] = valueInfo(plan.Values[k])
		}
		return out
	}
	return MethodMeta{Name: method, Inputs: info(plan.Inputs), Outputs: info(plan.Outputs)}, nil
}

func valueInfo(v pte.EValue) ValueInfo {
	switch v := v.(type) {
	case pte.Null:
		return ValueInfo{Tag: executor.TagNone}
	case pte.Int:
		return ValueInfo{Tag: executor.TagInt}
	case pte.Double:
		return ValueInfo{Tag: executor.TagDouble}
	case pte.Bool:
		return ValueInfo{Tag: executor.TagBool}
	case pte.String:
		return ValueInfo{Tag: executor.TagString}
	case *pte.Tensor:
		sizes := make([]int, len(v.Sizes))
		for i, s := range v.Sizes {
			sizes[i] = int(s)
		}
		return ValueInfo{Tag: executor.TagTensor, DType: v.ScalarType, Sizes: sizes, Dynamic: v.ShapeDynamism != executor.Static}
	}
	// Lists, which a method's inputs and outputs cannot be (runtime refuses them at load).
	return ValueInfo{Tag: executor.TagNone}
}

// HasMethod reports whether the program has a method of that name.
func (m *Module) HasMethod(name string) bool {
	_, err := m.prog.File().Method(name)
	return err == nil
}

// Constant returns the outputs of a constant method: one with no inputs whose outputs were fixed
// at export, such as the metadata methods export_llm writes (get_max_seq_len, get_eos_ids,
// use_kv_cache, ...); ExecuTorch's Module reads them with get() and execute().
func (m *Module) Constant(name string) ([]*EValue, error) {
	meta, err := m.MethodMeta(name)
	if err != nil {
		return nil, err
	}
	if len(meta.Inputs) != 0 {
		return nil, fmt.Errorf("%w: method %q takes %d inputs; a constant method takes none", ErrInvalidArgument, name, len(meta.Inputs))
	}
	return m.Execute(context.Background(), name)
}

// ConstantInts returns a constant method's outputs as integers: each must be an Int or a Bool
// (1 for true), as the metadata methods' values are.
func (m *Module) ConstantInts(name string) ([]int64, error) {
	vals, err := m.Constant(name)
	if err != nil {
		return nil, err
	}
	out := make([]int64, len(vals))
	for i, v := range vals {
		switch v.Tag {
		case executor.TagInt:
			out[i] = v.Int
		case executor.TagBool:
			if v.Bool {
				out[i] = 1
			}
		default:
			return nil, fmt.Errorf("%w: method %q output %d is %s, not an Int or Bool", ErrInvalidArgument, name, i, v.Tag)
		}
	}
	return out, nil
}

// ConstantInt returns the single integer (or Bool, as 0 or 1) of a constant method, as
// ExecuTorch's Module::get(name)->toScalar() does for the LLM metadata.
func (m *Module) ConstantInt(name string) (int64, error) {
	vals, err := m.ConstantInts(name)
	if err != nil {
		return 0, err
	}
	if len(vals) != 1 {
		return 0, fmt.Errorf("%w: method %q has %d outputs, not one", ErrInvalidArgument, name, len(vals))
	}
	return vals[0], nil
}
