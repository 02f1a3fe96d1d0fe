package executor

import (
	"strings"
	"time"
)

// EventTracer receives a method's events as ExecuTorch's EventTracer does, so that a run can be
// written in ExecuTorch's own formats (package devtools/etdump writes ETDump from these, which
// executorch.devtools.Inspector reads). A Method calls it from the goroutine running it; a tracer
// given to Methods that run concurrently must serialise itself.
type EventTracer interface {
	// BeginBlock starts a block of events (ExecuTorch's create_event_block): "Default" before a
	// method loads, "Execute" at the start of each Execute.
	BeginBlock(name string)
	// Profile records one timed event, when it ends (so nested events come before the event
	// that contains them, as ExecuTorch records them).
	Profile(e ProfileEvent)
}

// ProfileEvent is one timed span, named as ExecuTorch's runtime names its events:
//   - "Program::load_method" and "Method::init" (loading), "Method::execute" (one Execute):
//     Chain -1, Instruction 0;
//   - "OPERATOR_CALL" and "DELEGATE_CALL" (an instruction), and inside an OPERATOR_CALL
//     "native_call_<operator>.<overload>" (the kernel): Chain and Instruction locate it;
//   - a delegate's own events (Name ""), which DelegateID names as the backend does (XNNPACK:
//     its operator's name, "Convolution (NHWC, F32) IGEMM #1").
type ProfileEvent struct {
	Name               string
	Chain, Instruction int
	DelegateID         string
	DelegateIDInt      int // -1 when the delegate names the event by DelegateID
	DelegateMetadata   []byte
	Start, End         time.Time
}

// MethodOption configures LoadMethod.
type MethodOption func(*Method)

// WithEventTracer has the method report its loading and every Execute to t.
func WithEventTracer(t EventTracer) MethodOption { return func(m *Method) { m.tracer = t } }

// traceSpan records one event of the method (a no-op without a tracer).
func (m *Method) traceSpan(name string, chain, instr int, start time.Time) {
	if m.tracer != nil {
		m.tracer.Profile(ProfileEvent{Name: name, Chain: chain, Instruction: instr, DelegateIDInt: -1, Start: start, End: time.Now()})
	}
}

// nativeCallName is the event ExecuTorch's generated kernel wrappers record:
// "native_call_" + the operator's name without its namespace ("aten::add.out" → "native_call_add.out").
func nativeCallName(kernel string) string {
	if i := strings.LastIndex(kernel, "::"); i >= 0 {
		kernel = kernel[i+2:]
	}
	return "native_call_" + kernel
}

// Profiling reports whether the call is traced: a backend reads its clocks for ProfileDelegate
// only then.
func (c *BackendExecutionContext) Profiling() bool { return c != nil && c.tracer != nil }

// ProfileDelegate records one of the backend's own events inside the delegate call (a node it
// ran): id names it as the backend does, idInt is its integer identifier or -1, metadata is
// anything the backend wants the reader to have (may be nil).
func (c *BackendExecutionContext) ProfileDelegate(id string, idInt int, metadata []byte, start, end time.Time) {
	if !c.Profiling() {
		return
	}
	c.tracer.Profile(ProfileEvent{Chain: c.chain, Instruction: c.instruction, DelegateID: id, DelegateIDInt: idInt,
		DelegateMetadata: metadata, Start: start, End: end})
}
