// Package all is the one place that lists every backend etgo can lower to: Registry returns
// them registered, for `etgo lower` and for programs that want everything. A program that
// wants fewer registers the ones it wants in its own backends.Registry.
package all

import (
	"github.com/etgo/etgo/backends"
	"github.com/etgo/etgo/backends/xnnpack"
)

// DefaultOrder is the partitioner list `etgo lower` uses when none is given.
var DefaultOrder = []string{"xnnpack"}

// Registry returns a registry with every backend etgo has.
func Registry() *backends.Registry {
	r := backends.NewRegistry()
	for _, b := range []backends.Backend{xnnpack.AheadOfTime()} {
		if err := r.Register(b); err != nil {
			panic(err) // the list above is fixed: a duplicate is a programming error
		}
	}
	return r
}
