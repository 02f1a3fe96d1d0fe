// Package transforms holds the graph rewrites a backend's preprocess can share, as ExecuTorch's
// backends/transforms does: identity clones removed, batch norms folded into the convolution or
// linear before them or turned into 1×1 depthwise convolutions, 1-d convolutions run as 2-d
// ones, concatenations split into chains of few inputs. Each is a passes.Pass named by its
// ExecuTorch class, whose Run says what it changed ("" when nothing), so a preprocess runs them
// through passes.Manager and keeps the reports. The batch-norm rules are exported too: a
// partitioner asks them whether it may claim a batch norm, and the passes apply the very same
// rules, so the two cannot drift.
//
// Invariants: a rewrite keeps ir's (topological order, one producer per value), gives the nodes
// it puts in place of a node that node's DebugHandle, and never changes a constant's data in
// place (a region's constants alias the parent program's): a fused weight is a new parameter,
// and parameters nothing reads any more are dropped. Graphs come from untrusted files: a
// rewrite returns an error, never panics, on a graph whose metadata disagrees with itself.
//
// The package knows no backend; the rewrites that only one backend's graph needs (XNNPACK's
// channels-last tagging, activation fusion, …) stay in that backend's ahead-of-time package.
package transforms
