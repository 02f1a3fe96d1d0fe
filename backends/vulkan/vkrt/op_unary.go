package vkrt

import (
	"math"

	"github.com/etgo/etgo/backends/vulkan/schema"
)

// Elementwise functions (shaders/unary.comp): (self, [bounds...,] out).

const (
	uClamp = iota
	uHardswish
	uSigmoid
	uTanh
	uGelu
	uGeluTanh
	uHardsigmoid
	uSilu
	uAbs
	uNeg
	uExp
	uSqrt
	uRsqrt
)

// boundsFunc reads a clamp's bounds from the call; it returns the output argument's index.
type boundsFunc func(b *builder, args []int32) (lo, hi float64, out int, err error)

func relu(*builder, []int32) (float64, float64, int, error) { return 0, math.Inf(1), 1, nil }

// clampBounds reads clamp's and hardtanh's (self, min, max, out), None meaning unbounded.
func clampBounds(b *builder, args []int32) (float64, float64, int, error) {
	lo, ok, err := b.scalarArg(args, 1)
	if err != nil {
		return 0, 0, 0, err
	}
	if !ok {
		lo = math.Inf(-1)
	}
	hi, ok, err := b.scalarArg(args, 2)
	if err != nil {
		return 0, 0, 0, err
	}
	if !ok {
		hi = math.Inf(1)
	}
	return lo, hi, 3, nil
}

func unaryOp(kind int, bounds boundsFunc) opFunc {
	return func(b *builder, args []int32) error {
		lo, hi, outArg := 0.0, 0.0, 1
		if bounds != nil {
			var err error
			if lo, hi, outArg, err = bounds(b, args); err != nil {
				return err
			}
		}
		return b.unary(kind, args, outArg, lo, hi)
	}
}

func (b *builder) unary(kind int, args []int32, outArg int, lo, hi float64) error {
	r, dims, err := b.in(args, 0)
	if err != nil {
		return err
	}
	ro, err := b.out(args, outArg, dims)
	if err != nil {
		return err
	}
	// float32 bounds: a double bound beyond float32's range is ±Inf (conv_with_clamp's max).
	params := []uint32{uint32(kind), uint32(numel(dims)), f32bits(lo), f32bits(hi)}
	return b.prog.dispatch("unary", numel(dims), params, r, ro)
}

// geluOp is gelu(self, approximate, out): "none" (erf) or "tanh".
func geluOp(b *builder, args []int32) error {
	kind := uGelu
	id, err := b.arg(args, 1)
	if err != nil {
		return err
	}
	if v := b.value(id); v.Kind == schema.GraphTypesString {
		switch v.String {
		case "none":
		case "tanh":
			kind = uGeluTanh
		default:
			return b.errorf("gelu approximation %q", v.String)
		}
	}
	return b.unary(kind, args, 2, 0, 0)
}
