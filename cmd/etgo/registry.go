package main

import (
	"github.com/etgo/etgo/backends/all"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/llm"
	"github.com/etgo/etgo/kernels/optimized"
	"github.com/etgo/etgo/kernels/portable"
	"github.com/etgo/etgo/kernels/prim"
	"github.com/etgo/etgo/kernels/quantized"
)

// newRegistry returns the kernels and backends this binary carries; threads is how many
// goroutines a delegate call may use (so may a large call of an optimized kernel; the portable kernels run on the calling one).
func newRegistry(threads int) (*executor.Registry, error) {
	reg, err := kernelRegistry(threads)
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

// kernelRegistry returns the portable and primitive operators, the optimized kernels over the
// portable ones of the same names (using up to threads goroutines) and the quantized library's
// operators (quantized_decomposed::*), without any backend.
func kernelRegistry(threads int) (*executor.Registry, error) {
	reg := executor.NewRegistry()
	if err := portable.Register(reg); err != nil {
		return nil, err
	}
	if err := optimized.Register(reg, threads); err != nil {
		return nil, err
	}
	if err := prim.Register(reg); err != nil {
		return nil, err
	}
	if err := quantized.Register(reg); err != nil {
		return nil, err
	}
	return reg, nil
}
