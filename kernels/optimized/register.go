package optimized

import (
	goruntime "runtime"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/workpool"
	"github.com/etgo/etgo/kernels/portable"
)

// kernelFunc is an optimized kernel: a executor.KernelFunc that may split its work over up to
// threads goroutines.
type kernelFunc func(ctx *executor.KernelContext, args []*executor.EValue, threads int) error

type kernel struct {
	name   string
	dtypes []executor.ScalarType
	fn     kernelFunc
}

// kernels is filled by each operator file's init.
var kernels []kernel

func register(name string, dtypes []executor.ScalarType, fn kernelFunc) {
	kernels = append(kernels, kernel{name, dtypes, fn})
}

// Register adds every optimized kernel to r, over the portable kernels of the same names; a
// large call may use up to threads goroutines (as a delegate call does; below 1 means
// GOMAXPROCS).
func Register(r *executor.Registry, threads int) error { return r.OverrideKernels(Kernels(threads)...) }

// Kernels returns the optimized kernels using up to threads goroutines (below 1: GOMAXPROCS).
func Kernels(threads int) []executor.Kernel {
	if threads < 1 {
		threads = goruntime.GOMAXPROCS(0)
	}
	out := make([]executor.Kernel, len(kernels))
	for i, k := range kernels {
		fn := k.fn
		out[i] = executor.Kernel{Name: k.name, DTypes: k.dtypes, Fn: func(ctx *executor.KernelContext, args []*executor.EValue) error {
			return fn(ctx, args, threads)
		}}
	}
	return out
}

// portableKernels maps every portable kernel by name: what an optimized kernel delegates the
// cases it does not specialise to. Built once; the portable library is immutable.
var portableKernels = func() map[string]executor.KernelFunc {
	m := map[string]executor.KernelFunc{}
	for _, k := range portable.Kernels() {
		m[k.Name] = k.Fn
	}
	return m
}()

// fallback returns the portable kernel an optimized kernel named name delegates to. Every
// optimized kernel has one (TestEveryKernelHasPortable), so the nil case is not reached by a
// registered kernel; it still errors rather than panics.
func fallback(name string) executor.KernelFunc {
	if fn, ok := portableKernels[name]; ok {
		return fn
	}
	return func(ctx *executor.KernelContext, _ []*executor.EValue) error {
		return ctx.Errorf("%s has no portable kernel to fall back to", name)
	}
}

// parallelMin is the work (in elements touched) below which a call runs on the caller: a
// parallel region costs about a microsecond, as much as a few thousand float32 operations.
const parallelMin = 1 << 15

// parallelFor runs fn over [0, n) in contiguous ranges, on up to threads goroutines when work
// (the call's total element count) is large enough. Ranges are independent: each writes only
// its own rows, so the result does not depend on the split.
func parallelFor(threads, n, work int, fn func(lo, hi int)) {
	if threads <= 1 || n < 2 || work < parallelMin {
		fn(0, n)
		return
	}
	// A few tasks per thread, so a descheduled worker's share is taken by the others.
	tasks := min(n, threads*4)
	workpool.Run(threads, tasks, func(t int) {
		fn(t*n/tasks, (t+1)*n/tasks)
	})
}
