package executor_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/etgo/etgo/backends/xnnpack"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/zoo"
	"github.com/etgo/etgo/internal/zoo/zoorun"
)

// hooked is a registry whose portable kernels and XNNPACK backend count their calls and, at the
// call the test names, run a hook first (cancel the context, or wait for its deadline).
type hooked struct {
	reg   *executor.Registry
	calls atomic.Int64 // kernel and delegate calls so far
	at    int64        // the call (1-based) that runs hook; 0 for none
	hook  func(ctx context.Context)
}

func (h *hooked) call(ctx context.Context) {
	if n := h.calls.Add(1); n == h.at && h.hook != nil {
		h.hook(ctx)
	}
}

func newHooked(t testing.TB) *hooked {
	t.Helper()
	h := &hooked{reg: executor.NewRegistry()}
	for _, k := range portableRegistry(t).Kernels() {
		fn := k.Fn
		k.Fn = func(kc *executor.KernelContext, args []*executor.EValue) error {
			h.call(kc.Context)
			return fn(kc, args)
		}
		if err := h.reg.RegisterKernels(k); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.reg.RegisterBackend(xnnpack.BackendID, hookedBackend{xnnpack.Backend{}, h}); err != nil {
		t.Fatal(err)
	}
	return h
}

type hookedBackend struct {
	xnnpack.Backend
	h *hooked
}

func (b hookedBackend) Execute(ctx *executor.BackendExecutionContext, d executor.DelegateHandle, args []*executor.EValue) error {
	b.h.call(ctx.Context)
	return b.Backend.Execute(ctx, d, args)
}

func loadForward(t *testing.T, reg *executor.Registry, path string) *executor.Method {
	t.Helper()
	p, err := executor.Open(path, executor.Options{Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	m, err := p.LoadMethod("forward")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m
}

// TestCancelledBeforeRun: Execute once ran every program to the end whatever its context said.
// A context already cancelled, or past its deadline, now returns its error, no outputs, and
// runs nothing; the Method then runs normally.
func TestCancelledBeforeRun(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancel2 := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancel2()
	h := newHooked(t)
	zoo.Each(t, func(t *testing.T, m zoo.Model) {
		in := zoorun.Inputs(t, m)
		for _, v := range []zoo.Variant{zoo.Portable, zoo.Xnnpack} {
			meth := loadForward(t, h.reg, m.PTE(v))
			for _, c := range []struct {
				ctx  context.Context
				want error
			}{{cancelled, context.Canceled}, {expired, context.DeadlineExceeded}} {
				before := h.calls.Load()
				outs, err := meth.Run(c.ctx, in...)
				if !errors.Is(err, c.want) || outs != nil {
					t.Errorf("%s: Run = %d outputs, %v; want none and %v", v, len(outs), err, c.want)
				}
				if n := h.calls.Load() - before; n != 0 {
					t.Errorf("%s: %d kernel or delegate calls ran under a done context", v, n)
				}
			}
			if _, err := meth.Run(context.Background(), in...); err != nil {
				t.Errorf("%s: the method after a cancelled Run: %v", v, err)
			}
		}
	})
}

// TestCancelMidRun: a context that ends during a kernel or delegate call stops Execute before
// the next instruction. The call that ends it cancels the context itself (or waits out its
// deadline), so the test depends on no timing: the error is the context's, not a kernel
// failure, and no later call runs.
func TestCancelMidRun(t *testing.T) {
	for _, tc := range []struct {
		model string
		v     zoo.Variant
	}{
		{"transformer_encoder", zoo.Portable},
		{"mobilenet_v2_small", zoo.Portable},
		{"split_delegation", zoo.Xnnpack}, // calls alternate between delegates and kernels
		{"transformer_encoder", zoo.Xnnpack},
	} {
		m := zooModel(t, tc.model)
		in := zoorun.Inputs(t, m)
		h := newHooked(t)
		meth := loadForward(t, h.reg, m.PTE(tc.v))
		if _, err := meth.Run(context.Background(), in...); err != nil {
			t.Fatal(err)
		}
		total := h.calls.Load()
		if total < 3 {
			t.Fatalf("%s %s: %d calls, too few to stop in the middle", tc.model, tc.v, total)
		}
		for _, stop := range []struct {
			name string
			make func() (context.Context, context.CancelFunc)
			hook func(cancel context.CancelFunc) func(context.Context)
			want error
		}{
			{"cancel", func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) },
				func(cancel context.CancelFunc) func(context.Context) { return func(context.Context) { cancel() } }, context.Canceled},
			{"deadline", func() (context.Context, context.CancelFunc) {
				return context.WithTimeout(context.Background(), 20*time.Millisecond)
			},
				func(context.CancelFunc) func(context.Context) { return func(ctx context.Context) { <-ctx.Done() } }, context.DeadlineExceeded},
		} {
			for _, at := range []int64{1, total / 2, total} {
				t.Run(fmt.Sprintf("%s/%s/%s_at_call_%d", tc.model, tc.v, stop.name, at), func(t *testing.T) {
					ctx, cancel := stop.make()
					defer cancel()
					h.calls.Store(0)
					h.at, h.hook = at, stop.hook(cancel)
					defer func() { h.at, h.hook = 0, nil }()
					outs, err := meth.Run(ctx, in...)
					if !errors.Is(err, stop.want) || outs != nil {
						t.Fatalf("stopped at call %d of %d: Run = %d outputs, %v; want none and %v", at, total, len(outs), err, stop.want)
					}
					if errors.Is(err, executor.ErrKernelFailed) {
						t.Errorf("a cancelled run reported as a kernel failure: %v", err)
					}
					// (A deadline may also pass before the call that waits for it, on a slow
					// machine: then fewer calls run, never more.)
					if n := h.calls.Load(); n > at || (stop.want == context.Canceled && n != at) {
						t.Errorf("%d calls ran; the context ended during call %d, the last that should run", n, at)
					}
					if !strings.Contains(err.Error(), "stopped") {
						t.Errorf("error %q does not say where Execute stopped", err)
					}
				})
			}
		}
		if _, err := meth.Run(context.Background(), in...); err != nil {
			t.Errorf("the method after cancelled runs: %v", err)
		}
	}
}
