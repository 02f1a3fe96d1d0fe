package xnnpack

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/zoo"
	"github.com/etgo/etgo/internal/zoo/zoorun"
	"github.com/etgo/etgo/kernels/portable"
)

// stopAt is the backend with a hook: the plans it builds run cancel as node at starts and
// count the nodes that run.
type stopAt struct {
	Backend
	at     int
	cancel *context.CancelFunc
	ran    *int
}

func (b stopAt) Init(ctx *executor.BackendInitContext, blob []byte, specs []executor.CompileSpec) (executor.DelegateHandle, error) {
	h, err := b.Backend.Init(ctx, blob, specs)
	if err != nil {
		return nil, err
	}
	p := h.(*plan)
	for k := range p.steps {
		run := p.steps[k].run
		p.steps[k].run = func(p *plan, n *xnngraph.Node) error {
			*b.ran++
			if k == b.at && *b.cancel != nil {
				(*b.cancel)()
			}
			return run(p, n)
		}
	}
	return p, nil
}

// TestCancelBetweenNodes: the backend once ran a whole graph whatever its context said. A
// context cancelled while node k runs now stops the delegate before node k+1, with the
// context's error (the runtime passes it on, not as a kernel failure); the plan then runs
// again correctly. No timing is involved: node k cancels the context itself.
func TestCancelBetweenNodes(t *testing.T) {
	for _, name := range []string{"mobilenet_v2_small", "resnet18_small"} {
		m := zooModel(t, name)
		var cancel context.CancelFunc
		ran := 0
		b := stopAt{Backend{}, -1, &cancel, &ran}
		probe := newRegistry(t, b)
		nodes := func() int { // (one delegate) its nodes, counted in a full run
			meth := load(t, probe, m)
			defer meth.Close()
			ran = 0
			if _, err := meth.Run(context.Background(), zoorun.Inputs(t, m)...); err != nil {
				t.Fatal(err)
			}
			return ran
		}()
		for _, at := range []int{0, nodes / 2, nodes - 2} {
			t.Run(fmt.Sprintf("%s/node_%d_of_%d", name, at, nodes), func(t *testing.T) {
				b.at = at
				meth := load(t, newRegistry(t, b), m)
				defer meth.Close()
				ctx, c := context.WithCancel(context.Background())
				defer c()
				cancel, ran = c, 0
				outs, err := meth.Run(ctx, zoorun.Inputs(t, m)...)
				cancel = nil
				if !errors.Is(err, context.Canceled) || outs != nil || errors.Is(err, executor.ErrKernelFailed) {
					t.Fatalf("Run = %d outputs, %v; want none and context.Canceled, not a kernel failure", len(outs), err)
				}
				if ran != at+1 || !strings.Contains(err.Error(), fmt.Sprintf("stopped before node %d", at+1)) {
					t.Errorf("%d nodes ran, error %q; want %d, stopping before node %d", ran, err, at+1, at+1)
				}
				// The plan runs again from the start, and right.
				outs, err = meth.Run(context.Background(), zoorun.Inputs(t, m)...)
				if err != nil {
					t.Fatal(err)
				}
				want, err := (func() ([]*executor.Tensor, error) {
					ref := load(t, newRegistry(t, Backend{}), m)
					defer ref.Close()
					return ref.Run(context.Background(), zoorun.Inputs(t, m)...)
				})()
				if err != nil {
					t.Fatal(err)
				}
				if string(outs[0].Bytes()) != string(want[0].Bytes()) {
					t.Error("the run after a cancelled one differs from a fresh plan's")
				}
			})
		}
	}
}

func newRegistry(t *testing.T, b executor.Backend) *executor.Registry {
	t.Helper()
	reg := executor.NewRegistry()
	if err := portable.Register(reg); err != nil {
		t.Fatal(err)
	}
	if err := reg.RegisterBackend(BackendID, b); err != nil {
		t.Fatal(err)
	}
	return reg
}

// zooModel is the committed zoo model called name.
func zooModel(t *testing.T, name string) zoo.Model {
	t.Helper()
	for _, m := range zoo.Models(t) {
		if m.Name == name {
			return m
		}
	}
	t.Fatalf("no zoo model %s", name)
	return zoo.Model{}
}

func load(t *testing.T, reg *executor.Registry, m zoo.Model) *executor.Method {
	t.Helper()
	p, err := executor.Open(m.Xnnpack, executor.Options{Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	meth, err := p.LoadMethod("forward")
	if err != nil {
		t.Fatal(err)
	}
	return meth
}
