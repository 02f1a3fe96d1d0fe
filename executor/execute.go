package executor

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/etgo/etgo/pte"
)

// Execute runs the method on inputs (one per method input: a Tensor for tensor inputs; Int,
// Double or Bool values must equal the values the method was traced with) and returns copies of
// the outputs, owned by the caller. Inputs are copied into the method's memory, never aliased.
// Bad inputs return an error wrapping ErrInvalidArgument and leave the Method usable.
//
// ctx is checked before anything runs and after every instruction (and, by the XNNPACK backend,
// after every node of a delegate): once it is done, Execute returns no outputs and an error
// wrapping ctx.Err() (context.Canceled or context.DeadlineExceeded) that names the instruction
// it stopped at. The Method stays usable.
func (m *Method) Execute(ctx context.Context, inputs ...*EValue) ([]*EValue, error) {
	if m.closed {
		return nil, fmt.Errorf("%w: method %q is closed", ErrInvalidArgument, m.name)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("method %q: not started: %w", m.name, err)
	}
	var start time.Time
	if m.prof != nil || m.tracer != nil {
		start = time.Now()
	}
	if m.tracer != nil {
		m.tracer.BeginBlock("Execute")
		defer m.traceSpan("Method::execute", -1, 0, start)
	}
	if err := m.setInputs(inputs); err != nil {
		return nil, err
	}
	if err := m.run(ctx); err != nil {
		return nil, err
	}
	out := make([]*EValue, len(m.outputs))
	for i, k := range m.outputs {
		v := m.values[k]
		if v.Tag == TagTensor {
			v.Tensor = v.Tensor.Clone()
		}
		out[i] = &v
	}
	if m.prof != nil {
		m.prof.runs++
		m.prof.total += time.Since(start)
	}
	return out, nil
}

// Run is Execute for methods whose inputs and outputs are all tensors.
func (m *Method) Run(ctx context.Context, inputs ...*Tensor) ([]*Tensor, error) {
	in := make([]*EValue, len(inputs))
	for i, t := range inputs {
		in[i] = &EValue{Tag: TagTensor, Tensor: t}
	}
	outs, err := m.Execute(ctx, in...)
	if err != nil {
		return nil, err
	}
	ts := make([]*Tensor, len(outs))
	for i, o := range outs {
		if o.Tag != TagTensor {
			return nil, fmt.Errorf("%w: method %q output %d is %s, not a tensor (use Execute)", ErrInvalidArgument, m.name, i, o.Tag)
		}
		ts[i] = o.Tensor
	}
	return ts, nil
}

func (m *Method) setInputs(inputs []*EValue) error {
	if len(inputs) != len(m.inputs) {
		return fmt.Errorf("%w: method %q takes %d inputs, got %d", ErrInvalidArgument, m.name, len(m.inputs), len(inputs))
	}
	// Check everything before writing anything, so a bad call leaves the method as it was.
	for i, in := range inputs {
		if err := m.checkInput(i, in); err != nil {
			return err
		}
	}
	for i, in := range inputs {
		if in.Tag != TagTensor {
			continue
		}
		dst := m.values[m.inputs[i]].Tensor
		if err := dst.Resize(in.Tensor.sizes); err != nil {
			return fmt.Errorf("method %q input %d: %w", m.name, i, err) // unreachable: checked
		}
		copyTensor(dst, in.Tensor)
	}
	return nil
}

func (m *Method) checkInput(i int, in *EValue) error {
	want := &m.values[m.inputs[i]]
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: method %q input %d: %s", ErrInvalidArgument, m.name, i, fmt.Sprintf(format, args...))
	}
	if in == nil {
		return bad("nil")
	}
	if in.Tag != want.Tag {
		return bad("got %s, the method takes %s", in.Tag, want.Tag)
	}
	switch want.Tag {
	case TagTensor:
		got, w := in.Tensor, want.Tensor
		if got == nil {
			return bad("nil tensor")
		}
		if got.dtype != w.dtype {
			return bad("dtype %s, the method takes %s", DTypeName(got.dtype), DTypeName(w.dtype))
		}
		if len(got.sizes) != len(w.sizes) {
			return bad("rank %d (sizes %v), the method takes rank %d (%v)", len(got.sizes), got.sizes, len(w.sizes), w.sizes)
		}
		if len(got.data) < got.NBytes() {
			return bad("tensor %v holds %d bytes, needs %d", got.sizes, len(got.data), got.NBytes())
		}
		if w.dynamism == Static {
			if !slices.Equal(got.sizes, w.sizes) {
				return bad("sizes %v, the method takes exactly %v", got.sizes, w.sizes)
			}
			return nil
		}
		if got.Numel() > w.capacity {
			return bad("sizes %v (%d elements) exceed the method's bound of %d elements (upper bounds %v)", got.sizes, got.Numel(), w.capacity, m.upperBounds(m.inputs[i]))
		}
	case TagInt:
		if in.Int != want.Int {
			return bad("Int %d, but the method was traced with %d", in.Int, want.Int)
		}
	case TagBool:
		if in.Bool != want.Bool {
			return bad("Bool %v, but the method was traced with %v", in.Bool, want.Bool)
		}
	case TagDouble:
		// ExecuTorch's tolerance for traced doubles.
		if d := math.Abs(in.Double - want.Double); d > 1e-4+1e-5*math.Abs(want.Double) {
			return bad("Double %v, but the method was traced with %v", in.Double, want.Double)
		}
	case TagString:
		if in.Str != want.Str {
			return bad("String %q, but the method was traced with %q", in.Str, want.Str)
		}
	default:
		return bad("inputs of type %s are not supported", want.Tag)
	}
	return nil
}

// copyTensor copies src's elements into dst (same dtype and sizes), converting between dim
// orders when they differ.
func copyTensor(dst, src *Tensor) {
	n := src.NBytes()
	if slices.Equal(dst.dimOrder, src.dimOrder) {
		copy(dst.data[:n], src.data[:n])
		return
	}
	es := ElementSize(src.dtype)
	idx := make([]int, len(src.sizes))
	for e := 0; e < src.Numel(); e++ {
		so, do := 0, 0
		for d, x := range idx {
			so += x * src.strides[d]
			do += x * dst.strides[d]
		}
		copy(dst.data[do*es:do*es+es], src.data[so*es:so*es+es])
		for d := len(idx) - 1; d >= 0; d-- {
			if idx[d]++; idx[d] < src.sizes[d] {
				break
			}
			idx[d] = 0
		}
	}
}

func (m *Method) run(ctx context.Context) error {
	// Checked between instructions: a receive from a closed channel is a few nanoseconds against
	// a kernel's microseconds, and a nil channel (context.Background) never fires. So
	// cancellation waits for at most the instruction running, and a delegate checks between
	// its own nodes.
	done := ctx.Done()
	steps := 0
	for c, chain := range m.chains {
		for pc := 0; pc < len(chain); {
			if steps++; steps > maxInstructionsPerExecute {
				return fmt.Errorf("%w: method %q ran more than %d instructions", ErrKernelFailed, m.name, maxInstructionsPerExecute)
			}
			select {
			case <-done:
				return m.stopped(ctx, c, pc)
			default:
			}
			in := &chain[pc]
			pc++
			switch in.kind {
			case kindKernel:
				t := m.clock()
				if err := m.callKernel(ctx, c, pc-1, in); err != nil {
					return err
				}
				m.timed(c, pc-1, in, t)
			case kindDelegate:
				t := m.clock()
				if err := m.callDelegate(ctx, c, pc-1, in); err != nil {
					return err
				}
				m.timed(c, pc-1, in, t)
			case kindMove:
				m.values[in.to] = m.values[in.from]
			case kindJumpFalse:
				ok, err := truth(&m.values[in.cond])
				if err != nil {
					return fmt.Errorf("%w: method %q instruction %d: %v", ErrKernelFailed, m.name, pc-1, err)
				}
				if !ok {
					pc = in.dest
				}
			case kindFree:
				// Planned memory stays with the method; nothing to release.
			}
		}
	}
	// Once more after the last instruction, so that a context ending during any instruction,
	// the last included, fails the Execute.
	select {
	case <-done:
		return fmt.Errorf("method %q: stopped after its last instruction: %w", m.name, ctx.Err())
	default:
	}
	return nil
}

// stopped is the error of an Execute whose context ended before instruction pc of chain c.
func (m *Method) stopped(ctx context.Context, c, pc int) error {
	at := fmt.Sprintf("instruction %d", pc)
	if len(m.chains) > 1 {
		at = fmt.Sprintf("chain %d instruction %d", c, pc)
	}
	return fmt.Errorf("method %q: stopped before %s: %w", m.name, at, ctx.Err())
}

// ended reports whether err is ctx's own error (a kernel or backend that noticed cancellation
// and returned it), so it is passed on as it is, not as a kernel failure.
func ended(ctx context.Context, err error) bool {
	cerr := ctx.Err()
	return cerr != nil && errors.Is(err, cerr)
}

// clock reads the time only when profiling or tracing.
func (m *Method) clock() time.Time {
	if m.prof == nil && m.tracer == nil {
		return time.Time{}
	}
	return time.Now()
}

func (m *Method) timed(chain, pc int, in *instruction, start time.Time) {
	if m.prof != nil {
		m.prof.record(m, chain, pc, in, time.Since(start))
	}
	if m.tracer != nil {
		name := "DELEGATE_CALL"
		if in.kind == kindKernel {
			m.traceSpan(nativeCallName(in.kernel.Name), chain, pc, start)
			name = "OPERATOR_CALL"
		}
		m.traceSpan(name, chain, pc, start)
	}
}

func (m *Method) callKernel(ctx context.Context, chain, pc int, in *instruction) (err error) {
	kctx := &KernelContext{Context: ctx, Method: m.name, Instruction: pc, Operator: in.kernel.Name}
	defer guard(&err, ErrKernelFailed, "method %q instruction %d: %s", m.name, pc, in.kernel.Name)
	if err := in.kernel.Fn(kctx, in.args); err != nil {
		if ended(ctx, err) {
			return fmt.Errorf("method %q instruction %d: %s: %w", m.name, pc, in.kernel.Name, err)
		}
		return fmt.Errorf("%w: method %q instruction %d: %s: %w", ErrKernelFailed, m.name, pc, in.kernel.Name, err)
	}
	return nil
}

func (m *Method) callDelegate(ctx context.Context, chain, pc int, in *instruction) (err error) {
	d := m.delegate[in.delegate]
	defer guard(&err, ErrKernelFailed, "method %q instruction %d: backend %s", m.name, pc, d.id)
	bctx := &BackendExecutionContext{Context: ctx, Method: m.name, tracer: m.tracer, chain: chain, instruction: pc}
	if err := d.backend.Execute(bctx, d.handle, in.args); err != nil {
		if ended(ctx, err) {
			return fmt.Errorf("method %q instruction %d: backend %s: %w", m.name, pc, d.id, err)
		}
		return fmt.Errorf("%w: method %q instruction %d: backend %s: %w", ErrKernelFailed, m.name, pc, d.id, err)
	}
	return nil
}

// guard, deferred, turns a panic of the kernel or backend code the runtime calls into an error
// wrapping sentinel, saying who panicked: a bad program or blob must not take the caller's
// process down (no panic crosses a package edge).
func guard(err *error, sentinel error, format string, args ...any) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%w: %s panicked: %v", sentinel, fmt.Sprintf(format, args...), r)
	}
}

// truth evaluates a JumpFalse condition: a Bool, or a Bool tensor whose elements are all true.
func truth(v *EValue) (bool, error) {
	switch v.Tag {
	case TagBool:
		return v.Bool, nil
	case TagTensor:
		if v.Tensor.dtype != Bool {
			return false, fmt.Errorf("jump condition is a %s tensor, not bool", DTypeName(v.Tensor.dtype))
		}
		for _, b := range Data[bool](v.Tensor) {
			if !b {
				return false, nil
			}
		}
		return true, nil
	}
	return false, fmt.Errorf("jump condition is %s, not Bool", v.Tag)
}

// upperBounds returns the sizes the program declared for a tensor value (its upper bounds when
// dynamic), whatever its current sizes.
func (m *Method) upperBounds(value int) []int32 {
	if t, ok := m.plan.Values[value].(*pte.Tensor); ok {
		return t.Sizes
	}
	return nil
}
