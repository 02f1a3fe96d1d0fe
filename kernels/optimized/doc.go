// Package optimized is etgo's optimized CPU kernel library, beside the portable one as
// ExecuTorch ships its optimized kernels: vectorised (internal/gemm's AVX2/AVX-512 helpers and
// packed GEMM) and threaded (internal/workpool) implementations of the operators that carry the
// most work in real fallback paths (layer norm, softmax, gelu, broadcasting arithmetic, matrix
// products).
//
// Register adds them to a executor.Registry with OverrideKernels, so that they win over the
// portable kernels of the same name whichever library is registered first; register the
// portable library too, since this one covers a few operators only.
//
// The portable library stays the reference. Every kernel here handles the cases it specialises
// (float32, contiguous, the common layouts) and hands every other call, unchanged, to the
// portable kernel of the same name, so dtype coverage, argument checking and error messages are
// the portable ones. Where an optimized kernel runs the portable algorithm in the same
// arithmetic its result is bitwise equal to the portable kernel's; where it uses a different
// algorithm (float32 vector exp or erf approximations instead of float64 libm) its test states
// the tolerance, NaN and infinities included. Kernels never panic on a program's arguments.
//
// Threading: a call whose work is large enough is split into row ranges run on
// internal/workpool with GOMAXPROCS threads; small calls run on the caller, since a parallel
// region costs about a microsecond.
package optimized
