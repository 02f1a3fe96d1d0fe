package main

import (
	"github.com/etgo/etgo/backends/all"
	"github.com/etgo/etgo/kernels/llm"
	"github.com/etgo/etgo/kernels/portable"
	"github.com/etgo/etgo/kernels/prim"
	"github.com/etgo/etgo/runtime"
)

// newRegistry returns the kernels and backends this binary carries; threads is how many
// goroutines a delegate call may use (the portable kernels run on the calling one).
func newRegistry(threads int) (*runtime.Registry, error) {
	reg, err := kernelRegistry()
	if err != nil {
		return nil, err
	}
	// The LLM custom operators' attention may use the delegates' threads too.
	if err := llm.Register(reg, threads); err != nil {
		return nil, err
	}
	if err := all.RegisterRuntime(reg, threads); err != nil {
		return nil, err
	}
	return reg, nil
}

// kernelRegistry returns the portable and primitive operators, without any backend (and without
// the LLM custom operators, which newRegistry adds with its thread count).
func kernelRegistry() (*runtime.Registry, error) {
	reg := runtime.NewRegistry()
	if err := portable.Register(reg); err != nil {
		return nil, err
	}
	if err := prim.Register(reg); err != nil {
		return nil, err
	}
	return reg, nil
}
