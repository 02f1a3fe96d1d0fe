package main

import (
	"github.com/etgo/etgo/backends/xnnpack"
	"github.com/etgo/etgo/kernels/portable"
	"github.com/etgo/etgo/runtime"
)

// newRegistry returns the kernels and backends this binary carries.
func newRegistry() (*runtime.Registry, error) {
	reg := runtime.NewRegistry()
	if err := portable.Register(reg); err != nil {
		return nil, err
	}
	if err := xnnpack.Register(reg); err != nil {
		return nil, err
	}
	return reg, nil
}
