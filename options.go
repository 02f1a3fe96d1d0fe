package etgo

import (
	"fmt"

	"github.com/etgo/etgo/executor"
)

// An Option configures Load.
type Option func(*options) error

type options struct {
	threads     int
	backends    []string
	backendsSet bool
	registry    *executor.Registry
	maxPlanned  int64
}

// WithThreads lets one delegate call, or one large call of an optimized kernel, use n
// goroutines (default 1; the portable kernels run on the calling goroutine).
func WithThreads(n int) Option {
	return func(o *options) error {
		if n < 1 {
			return fmt.Errorf("etgo: WithThreads(%d): the thread count must be at least 1", n)
		}
		o.threads = n
		return nil
	}
}

// WithBackends registers only the built-in backends with these ids ("XnnpackBackend"); with
// none, the module has the portable kernels only, and a program with delegates fails at load,
// naming the backends it needs.
func WithBackends(ids ...string) Option {
	return func(o *options) error {
		o.backends, o.backendsSet = append([]string(nil), ids...), true
		return nil
	}
}

// WithRegistry runs programs with exactly the kernels and backends of reg (WithThreads and
// WithBackends are then ignored).
func WithRegistry(reg *executor.Registry) Option {
	return func(o *options) error {
		if reg == nil {
			return fmt.Errorf("etgo: WithRegistry(nil)")
		}
		o.registry = reg
		return nil
	}
}

// WithMaxPlannedBytes bounds the planned memory each loaded method may allocate (default
// executor.DefaultMaxPlannedBytes): a program file states its buffer sizes, and an untrusted
// one must not make a load allocate without bound.
func WithMaxPlannedBytes(n int64) Option {
	return func(o *options) error {
		if n < 1 {
			return fmt.Errorf("etgo: WithMaxPlannedBytes(%d): the limit must be positive", n)
		}
		o.maxPlanned = n
		return nil
	}
}
