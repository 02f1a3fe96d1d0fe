// Package layering holds no code: its test states the import rules between etgo's packages and
// checks them with `go list -deps`, so that a runtime-only binary does not link the lowering,
// and the generic layers name no backend.
//
// The rules, by role:
//   - Run time (package etgo, runtime, kernels/*, backends/builtin, backends/xnnpack and its
//     graph format): none of the ahead-of-time packages (ir, partition, passes, emit, lower,
//     frontend, backends, the shared rewrites backends/transforms and the backends'
//     ahead-of-time sides), nor the operator-schema tables (internal/opschema, and
//     internal/unboxgen, which generates the kernels' unboxing from them).
//   - A backend's graph format (backends/xnnpack/xnngraph): its schema and the flatbuffer
//     verifier only, so that tools reading blobs link neither side.
//   - A backend's ahead-of-time side (backends/xnnpack/aot): nothing of the run time.
//   - The rewrites backends share (backends/transforms): no backend's package.
//   - Generic layers (lower, passes, partition and its configuration-based partitioner
//     partition/configs, emit, ir, frontend, devtools, internal/zoo, cmd/etgo): no backend package directly; they reach backends through package backends
//     and backends/all.
package layering
