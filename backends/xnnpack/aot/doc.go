// Package aot is XNNPACK's ahead-of-time side: the Partitioner (ExecuTorch's
// XnnpackPartitioner, its 52 configs and their decline reasons, stated with the
// configuration-based partitioner of partition/configs), Preprocess (a claimed region compiled
// into an XNNGraph blob, as XnnpackBackend.preprocess does, after the rewrites of
// XNNPACKPassManager: the shared ones from backends/transforms and XNNPACK's own, here, each a
// passes.Pass) and Backend, the contract that registers both with package backends.
//
// It writes blobs with package xnngraph and links nothing of the run time: `etgo lower` needs
// no kernels, and a binary that only runs programs links none of this (internal/layering).
package aot
