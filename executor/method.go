package executor

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/etgo/etgo/pte"
	"github.com/etgo/etgo/pte/schema"
)

// maxInstructionsPerExecute guards against programs that jump forever (ExecuTorch's limit).
const maxInstructionsPerExecute = 10_000_000

// Method is one loaded method: its planned memory, its values and its compiled delegates. It is
// used by one goroutine at a time; make one Method per concurrent caller.
type Method struct {
	name     string
	plan     *pte.ExecutionPlan
	values   []EValue
	buffers  [][]byte
	chains   [][]instruction
	delegate []delegateState
	inputs   []int
	outputs  []int
	closed   bool
	prof     *profiler   // nil unless EnableProfiling(true)
	tracer   EventTracer // nil unless WithEventTracer
}

type instrKind uint8

const (
	kindKernel instrKind = iota
	kindDelegate
	kindMove
	kindJumpFalse
	kindFree
)

type instruction struct {
	kind     instrKind
	kernel   *Kernel
	delegate int
	args     []*EValue
	from, to int // move
	cond     int // jump
	dest     int // jump
}

type delegateState struct {
	id      string
	backend Backend
	handle  DelegateHandle
}

// LoadMethod prepares a method for execution. It resolves every kernel and every backend the
// method needs first, and fails, naming each missing one with the instructions that use it and
// what the registry has instead, before anything is allocated or initialised.
func (p *Program) LoadMethod(name string, opts ...MethodOption) (*Method, error) {
	var o Method
	for _, opt := range opts {
		opt(&o)
	}
	if o.tracer != nil {
		o.tracer.BeginBlock("Default")
		start := time.Now()
		defer func() { o.traceSpan("Program::load_method", -1, 0, start) }()
	}
	m, err := p.loadMethod(name, o.tracer)
	if err != nil {
		return nil, err
	}
	m.tracer = o.tracer
	return m, nil
}

func (p *Program) loadMethod(name string, tracer EventTracer) (*Method, error) {
	plan, err := p.file.Method(name)
	if err != nil {
		return nil, fmt.Errorf("%w: %q (the program has %s)", ErrMethodNotFound, name, strings.Join(p.file.MethodNames(), ", "))
	}
	reg := p.opts.Registry
	if err := p.checkRegistry(plan); err != nil {
		return nil, err
	}
	m := &Method{name: name, plan: plan, tracer: tracer}
	if tracer != nil {
		start := time.Now()
		defer func() { m.traceSpan("Method::init", -1, 0, start) }()
	}
	if err := m.allocate(plan, p.opts.MaxPlannedBytes); err != nil {
		return nil, err
	}
	if err := m.parseValues(p.file, plan); err != nil {
		return nil, err
	}
	for i, d := range plan.Delegates {
		b, _ := reg.Backend(d.ID) // checkRegistry found it
		blob, err := p.file.DelegateData(&d)
		if err != nil {
			m.Close()
			return nil, fmt.Errorf("method %q delegate %d (%s): %w", name, i, d.ID, err)
		}
		ctx := &BackendInitContext{Method: name, NamedData: p.file.NamedData, Calls: m.delegateCalls(plan, i)}
		h, err := initDelegate(b, ctx, blob, d.CompileSpecs, name, i, d.ID)
		if err != nil {
			m.Close()
			return nil, err
		}
		m.delegate = append(m.delegate, delegateState{id: d.ID, backend: b, handle: h})
	}
	if err := m.prepareChains(reg, plan); err != nil {
		m.Close()
		return nil, err
	}
	return m, nil
}

// delegateCalls returns the arguments of every DelegateCall instruction calling delegate i (an
// index outside the value table, which the program's validation refuses, gives nil).
func (m *Method) delegateCalls(plan *pte.ExecutionPlan, i int) [][]*EValue {
	var calls [][]*EValue
	for _, chain := range plan.Chains {
		for _, in := range chain.Instructions {
			dc, ok := in.(pte.DelegateCall)
			if !ok || int(dc.DelegateIndex) != i {
				continue
			}
			args := make([]*EValue, len(dc.Args))
			for j, k := range dc.Args {
				if k >= 0 && int(k) < len(m.values) {
					args[j] = &m.values[k]
				}
			}
			calls = append(calls, args)
		}
	}
	return calls
}

// available asks a backend whether it can run here; one that panics cannot.
func available(b Backend) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return b.IsAvailable()
}

// unavailableReason is why an unavailable backend says it is (nil when it cannot say); one
// that panics gives no reason.
func unavailableReason(b Backend) (err error) {
	e, ok := b.(AvailabilityExplainer)
	if !ok {
		return nil
	}
	defer func() {
		if recover() != nil {
			err = nil
		}
	}()
	return e.Unavailable()
}

// checkRegistry finds every backend and kernel the plan needs and reports all that are missing.
func (p *Program) checkRegistry(plan *pte.ExecutionPlan) error {
	reg := p.opts.Registry
	var errs []error
	at := func(instrs []string) string {
		if len(instrs) > 8 {
			return strings.Join(instrs[:8], ", ") + fmt.Sprintf(", … (%d in all)", len(instrs))
		}
		return strings.Join(instrs, ", ")
	}
	missing := map[string]bool{}
	prog := pte.Program{ExecutionPlans: []*pte.ExecutionPlan{plan}}
	for _, n := range prog.Needs() {
		switch n.Kind {
		case pte.NeedBackend:
			b, ok := reg.Backend(n.Name)
			switch {
			case !ok:
				errs = append(errs, fmt.Errorf("%w: method %q needs backend %s (delegate %d, instruction %s), but this runtime has %s",
					ErrBackendNotRegistered, plan.Name, n.Name, n.Delegate, at(n.Instructions), orNone(reg.BackendNames(), "no backends registered")))
			case !available(b):
				err := fmt.Errorf("%w: method %q needs backend %s (delegate %d, instruction %s), which is registered but unavailable on this machine",
					ErrBackendUnavailable, plan.Name, n.Name, n.Delegate, at(n.Instructions))
				if why := unavailableReason(b); why != nil {
					err = fmt.Errorf("%w: %w", err, why)
				}
				errs = append(errs, err)
			}
		case pte.NeedKernel:
			if _, found := reg.Kernel(n.Name); !found {
				missing[n.Name] = true
				errs = append(errs, fmt.Errorf("%w: method %q needs operator %s (instruction %s), which this runtime does not have",
					ErrOperatorMissing, plan.Name, n.Name, at(n.Instructions)))
			}
		}
	}
	// Kernels that exist must take the dtype each call hands them.
	for c, chain := range plan.Chains {
		for i, in := range chain.Instructions {
			kc, ok := in.(pte.KernelCall)
			if !ok {
				continue
			}
			k, found := reg.Kernel(plan.Operators[kc.OpIndex].KernelName())
			if !found {
				continue
			}
			if dt, ok := firstTensorType(plan, kc.Args); ok && len(k.DTypes) > 0 && !slices.Contains(k.DTypes, dt) {
				errs = append(errs, fmt.Errorf("%w: method %q instruction %d (chain %d): operator %s has no kernel for %s (it takes %s)",
					ErrOperatorMissing, plan.Name, i, c, k.Name, DTypeName(dt), dtypeList(k.DTypes)))
			}
		}
	}
	if len(missing) > 0 {
		errs = append(errs, fmt.Errorf("registered operators: %d (etgo check lists them)", len(reg.KernelNames())))
	}
	return errors.Join(errs...)
}

func orNone(names []string, none string) string {
	if len(names) == 0 {
		return none
	}
	return "only " + strings.Join(names, ", ")
}

func dtypeList(ts []ScalarType) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = DTypeName(t)
	}
	return strings.Join(s, ", ")
}

func firstTensorType(plan *pte.ExecutionPlan, args []int32) (ScalarType, bool) {
	for _, a := range args {
		if t, ok := plan.Values[a].(*pte.Tensor); ok {
			return t.ScalarType, true
		}
	}
	return 0, false
}

// allocate makes the planned buffers; memory_id k is buffers[k-1].
func (m *Method) allocate(plan *pte.ExecutionPlan, limit int64) error {
	var total int64
	for _, s := range plan.NonConstBufferSizes[1:] {
		total += s
		if total > limit || total < 0 {
			return fmt.Errorf("%w: method %q plans %d+ bytes, over the limit of %d (Options.MaxPlannedBytes)", ErrMemory, plan.Name, total, limit)
		}
	}
	for _, s := range plan.NonConstBufferSizes[1:] {
		m.buffers = append(m.buffers, make([]byte, s))
	}
	return nil
}

// parseValues builds the value table: tensors over planned memory, over the mapped file
// (constants) or over private memory (unplanned inputs and outputs); lists referring to entries.
func (m *Method) parseValues(f *pte.File, plan *pte.ExecutionPlan) error {
	m.values = make([]EValue, len(plan.Values))
	for i, v := range plan.Values {
		ev := &m.values[i]
		switch v := v.(type) {
		case pte.Null:
			ev.Tag = TagNone
		case pte.Int:
			ev.Tag, ev.Int = TagInt, v.Val
		case pte.Double:
			ev.Tag, ev.Double = TagDouble, v.Val
		case pte.Bool:
			ev.Tag, ev.Bool = TagBool, v.Val
		case pte.String:
			ev.Tag, ev.Str = TagString, v.Val
		case pte.DoubleList:
			ev.Tag, ev.Doubles = TagDoubleList, v.Items
		case pte.BoolList:
			ev.Tag, ev.Bools = TagBoolList, v.Items
		case pte.IntList:
			ev.Tag = TagIntList
			for _, k := range v.Items {
				ev.IntRefs = append(ev.IntRefs, &m.values[k])
			}
		case pte.TensorList:
			ev.Tag = TagTensorList
			for _, k := range v.Items {
				ev.TensorRefs = append(ev.TensorRefs, &m.values[k])
			}
		case pte.OptionalTensorList:
			ev.Tag = TagOptionalTensorList
			for _, k := range v.Items {
				if k < 0 {
					ev.TensorRefs = append(ev.TensorRefs, nil)
				} else {
					ev.TensorRefs = append(ev.TensorRefs, &m.values[k])
				}
			}
		case *pte.Tensor:
			t, err := m.tensor(f, v)
			if err != nil {
				return fmt.Errorf("method %q value %d: %w", plan.Name, i, err)
			}
			ev.Tag, ev.Tensor = TagTensor, t
		default:
			return fmt.Errorf("%w: method %q value %d has type %T", ErrNotSupported, plan.Name, i, v)
		}
	}
	// An IntList boxes Int values (ExecuTorch's BoxedEvalueList<int64_t> calls toInt() on each
	// when a kernel reads it, which fails on anything else); a list referring to a Double, a
	// Tensor or None is refused here, by value, instead of reading 0.
	for i := range m.values {
		if v := &m.values[i]; v.Tag == TagIntList {
			for k, r := range v.IntRefs {
				if r.Tag != TagInt {
					return fmt.Errorf("%w: method %q value %d: int list item %d is a %s, not an Int", pte.ErrInvalidProgram, plan.Name, i, k, r.Tag)
				}
			}
		}
	}
	// A method's inputs and outputs are what ExecuTorch's MethodMeta can describe: None, Int,
	// Double, Bool, String or Tensor. It returns an error for any other value (a list), so the
	// official runtime cannot set such an input or hand back such an output; etgo refuses the
	// method at load instead of returning a list nobody can read.
	for _, io := range []struct {
		name string
		idx  []int32
		dst  *[]int
	}{{"input", plan.Inputs, &m.inputs}, {"output", plan.Outputs, &m.outputs}} {
		for k, i := range io.idx {
			if t := m.values[i].Tag; t > TagTensor {
				return fmt.Errorf("%w: method %q %s %d is value %d, of type %s (a method's inputs and outputs are None, Int, Double, Bool, String or Tensor)",
					pte.ErrInvalidProgram, plan.Name, io.name, k, i, t)
			}
			*io.dst = append(*io.dst, int(i))
		}
	}
	return nil
}

func (m *Method) tensor(f *pte.File, v *pte.Tensor) (*Tensor, error) {
	if v.ShapeDynamism == DynamicUnbound {
		return nil, fmt.Errorf("%w: tensors with unbounded dynamic shapes", ErrNotSupported)
	}
	sizes := make([]int, len(v.Sizes))
	for i, s := range v.Sizes {
		sizes[i] = int(s)
	}
	n, err := numel(sizes)
	if err != nil {
		return nil, err
	}
	if pte.IsComplex(v.ScalarType) {
		// The file is valid (the official runtime, with its optimized FFT kernels, runs it);
		// etgo's kernels have no complex arithmetic.
		return nil, fmt.Errorf("%w: %s tensors (etgo's kernels have no complex arithmetic)", ErrNotSupported, DTypeName(v.ScalarType))
	}
	es := ElementSize(v.ScalarType)
	if es == 0 {
		return nil, fmt.Errorf("%w: scalar type %s", ErrNotSupported, DTypeName(v.ScalarType))
	}
	t := &Tensor{dtype: v.ScalarType, sizes: sizes, dimOrder: slices.Clone(v.DimOrder), capacity: n, dynamism: v.ShapeDynamism}
	t.strides = stridesFor(t.sizes, t.dimOrder)
	nbytes := n * es
	switch {
	case v.ExtraTensorInfo != nil && v.ExtraTensorInfo.Location == schema.TensorDataLocationEXTERNAL:
		return nil, fmt.Errorf("%w: tensor %q lives in an external .ptd file, which this runtime cannot load yet", ErrNotSupported, v.ExtraTensorInfo.FullyQualifiedName)
	case v.AllocationInfo != nil:
		a := v.AllocationInfo
		buf := m.buffers[a.MemoryID-1] // validated by pte
		off := int(a.Offset())
		t.data = buf[off : off+nbytes : off+nbytes]
		if v.DataBufferIdx > 0 { // a mutable buffer's initial value
			init, err := f.TensorData(v)
			if err != nil {
				return nil, err
			}
			copy(t.data, init)
		}
	case v.DataBufferIdx > 0:
		b, err := f.TensorData(v)
		if err != nil {
			return nil, err
		}
		t.data, t.readOnly = alignedFor(b, es), true
	default:
		// Unplanned: ExecuTorch leaves these to the caller; etgo gives each its own memory and
		// copies inputs into it, so a Method never aliases caller memory.
		t.data = make([]byte, nbytes)
	}
	return t, nil
}

func (m *Method) prepareChains(reg *Registry, plan *pte.ExecutionPlan) error {
	args := func(idx []int32) []*EValue {
		out := make([]*EValue, len(idx))
		for i, k := range idx {
			out[i] = &m.values[k]
		}
		return out
	}
	for _, chain := range plan.Chains {
		var prepared []instruction
		for _, in := range chain.Instructions {
			switch in := in.(type) {
			case pte.KernelCall:
				k, _ := reg.Kernel(plan.Operators[in.OpIndex].KernelName()) // checkRegistry found it
				a := args(in.Args)
				if err := m.checkReturnSlot(a); err != nil {
					return fmt.Errorf("%w: method %q instruction %d (%s): %v", ErrInvalidArgument, plan.Name, len(prepared), k.Name, err)
				}
				prepared = append(prepared, instruction{kind: kindKernel, kernel: k, args: a})
			case pte.DelegateCall:
				prepared = append(prepared, instruction{kind: kindDelegate, delegate: int(in.DelegateIndex), args: args(in.Args)})
			case pte.MoveCall:
				prepared = append(prepared, instruction{kind: kindMove, from: int(in.MoveFrom), to: int(in.MoveTo)})
			case pte.JumpFalseCall:
				prepared = append(prepared, instruction{kind: kindJumpFalse, cond: int(in.CondValueIndex), dest: int(in.DestinationInstruction)})
			case pte.FreeCall:
				prepared = append(prepared, instruction{kind: kindFree})
			}
		}
		m.chains = append(m.chains, prepared)
	}
	return nil
}

// checkReturnSlot refuses a kernel call whose return slot (its out tensors) is a constant: a
// kernel would write into the program's data.
func (m *Method) checkReturnSlot(args []*EValue) error {
	if len(args) == 0 {
		return nil
	}
	ret := args[len(args)-1]
	outs := []*EValue{ret}
	if ret.Tag == TagTensorList {
		outs = ret.TensorRefs
	}
	for _, o := range outs {
		if o != nil && o.Tag == TagTensor && o.Tensor.readOnly {
			return fmt.Errorf("its out tensor is a constant")
		}
	}
	return nil
}

// Close destroys the method's delegate handles. The Method must not be used afterwards.
func (m *Method) Close() {
	if m.closed {
		return
	}
	m.closed = true
	for _, d := range m.delegate {
		destroy(d)
	}
	m.delegate = nil
}

// initDelegate calls a backend's Init, a panic in it (a blob the backend's parser did not
// expect) becoming an error like a refusal: the method load fails with ErrDelegateInit.
func initDelegate(b Backend, ctx *BackendInitContext, blob []byte, specs []CompileSpec, method string, i int, id string) (h DelegateHandle, err error) {
	defer guard(&err, ErrDelegateInit, "method %q delegate %d: backend %s Init", method, i, id)
	if h, err = b.Init(ctx, blob, specs); err != nil {
		return nil, fmt.Errorf("%w: method %q delegate %d: backend %s refused its blob: %w", ErrDelegateInit, method, i, id, err)
	}
	return h, nil
}

// destroy calls a backend's Destroy; a panic in it is dropped (Close has no error to return it
// in, and the other handles must still be released).
func destroy(d delegateState) {
	defer func() { _ = recover() }()
	d.backend.Destroy(d.handle)
}

// Name is the method's name.
func (m *Method) Name() string { return m.name }

// NumInputs and NumOutputs give the method's signature size.
func (m *Method) NumInputs() int  { return len(m.inputs) }
func (m *Method) NumOutputs() int { return len(m.outputs) }

// Input returns the method's placeholder for input i (its declared type and upper-bound sizes).
func (m *Method) Input(i int) *EValue { return &m.values[m.inputs[i]] }
