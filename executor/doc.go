// Package executor loads and executes ExecuTorch programs (.pte files): etgo's counterpart of
// ExecuTorch's runtime/executor (Program, Method, the kernel and backend registry, EValue and
// Tensor). It is named after that directory rather than "runtime", which would shadow the
// standard library's package in every program that imports it. Most programs use the Module
// API in package etgo instead, which builds a registry with every built-in kernel and backend.
//
// Ownership and threading:
//   - A Program is immutable and safe to share between goroutines. It holds the verified,
//     memory-mapped file; constants are read in place from it.
//   - A Method belongs to one goroutine at a time. It owns its planned memory (one buffer per
//     memory id, sized by the program), its value table and its delegate handles; make one Method
//     per concurrent caller (LoadMethod is cheap next to a model's weights, which are shared).
//   - Execute copies inputs into the method's memory, converting dim order when the caller's
//     tensor differs; it never keeps or writes caller memory. Outputs are copies owned by the
//     caller, valid after the next Execute.
//
// Error model: every failure wraps a sentinel (ErrOperatorMissing, ErrBackendNotRegistered,
// ErrDelegateInit, ErrInvalidArgument, ErrKernelFailed, ...) and names the method, the
// instruction and the operator or backend. LoadMethod resolves every kernel and backend before
// allocating anything and reports all that are missing at once. A panic in a kernel or in a
// backend's Execute is recovered into ErrKernelFailed, one in a backend's Init into
// ErrDelegateInit (IsAvailable and Destroy are guarded too): no panic crosses into the caller.
// Bad inputs to Execute leave the Method usable.
//
// Cancellation: Execute checks its context before it starts, between instructions and after
// the last, and the XNNPACK backend checks it between the nodes of a delegate; once the context
// is done Execute returns no outputs and an error wrapping ctx.Err() (never ErrKernelFailed),
// naming where it stopped, and the Method stays usable. A cancelled Execute therefore returns
// once the kernel or XNNPACK node that is running finishes: on the full-size zoo models at one
// thread (BenchmarkCancelLatency), within 2 ms at the 99th percentile and 7 ms at worst for
// XNNPACK (whole runs of 6-19 ms), and 65 ms at worst for portable kernels (ResNet-18's largest
// convolution, in a 0.9 s run); kernels themselves are not interrupted.
//
// Memory: planned buffers come from the program's non_const_buffer_sizes (memory id k is buffer
// k-1), bounded by Options.MaxPlannedBytes; tensors with bounded dynamic shapes resize within
// the capacity planned for their upper bounds.
package executor
