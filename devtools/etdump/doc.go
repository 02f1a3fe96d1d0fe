// Package etdump reads and writes ETDump, the file ExecuTorch's event tracer writes and
// executorch.devtools.Inspector reads (a size-prefixed flatbuffer, identifier ED00, extension
// .etdp): blocks of events per run, each event a timed span (an instruction, a kernel, a method,
// a delegate's node) or an allocation or a logged value.
//
// Recorder is a executor.EventTracer that collects a Method's events into an ETDump, named and
// ordered as the official runtime records them, so etgo's profiles open in the official tools:
// `etgo bench --etdump OUT.etdp` and `etgo run --etdump OUT.etdp` write one.
//
// Parse treats its input as untrusted: the size prefix, the identifier and every offset, length
// and table are checked (internal/fbverify) before anything is read, and errors say where.
// TestSpecMatchesFBS keeps the verifier's description equal to schema/etdump.fbs.
package etdump
