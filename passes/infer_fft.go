package passes

import (
	"fmt"
	"slices"

	"github.com/etgo/etgo/ir"
)

// Meta inference for the FFT primitives, as torch's meta functions (torch/_meta_registrations.py,
// meta_fft_r2c / meta_fft_c2r) size them.

func init() {
	registerInfer(inferFFTR2C, "aten._fft_r2c.default")
	registerInfer(inferFFTC2R, "aten._fft_c2r.default")
}

// fftDims checks the primitive's dim list: non-empty, in range, no repeats.
func fftDims(n *ir.Node, rank int) ([]int, error) {
	a := n.Arg("dim")
	if a == nil || a.Kind != ir.ArgInts || len(a.Ints) == 0 {
		return nil, fmt.Errorf("%s: dim must be a non-empty list of ints", n.Target)
	}
	var dims []int
	for _, d := range a.Ints {
		if d < 0 || d >= int64(rank) || slices.Contains(dims, int(d)) {
			return nil, fmt.Errorf("%s: dims %v are not distinct dims of a rank-%d tensor", n.Target, a.Ints, rank)
		}
		dims = append(dims, int(d))
	}
	return dims, nil
}

// _fft_r2c(self, dim, normalization, onesided): the complex type of self's float type, self's
// sizes, the last transformed dim halved (n/2+1) when one-sided.
func inferFFTR2C(n *ir.Node) ([]*ir.TensorMeta, error) {
	in, err := argMeta(n, "self")
	if err != nil {
		return nil, err
	}
	dt, ok := in.DType.ToComplex()
	if !in.DType.IsFloat() || !ok {
		return nil, fmt.Errorf("%s takes a float32 or float64 input, not %s", n.Target, in.DType)
	}
	dims, err := fftDims(n, len(in.Sizes))
	if err != nil {
		return nil, err
	}
	sizes := slices.Clone(in.Sizes)
	if n.BoolArg("onesided", false) {
		last := dims[len(dims)-1]
		if !sizes[last].IsStatic() {
			return nil, fmt.Errorf("%s: a one-sided transform over a symbolic dim is not supported", n.Target)
		}
		sizes[last] = ir.Dim{Size: sizes[last].Size/2 + 1}
	}
	return one(metaOf(dt, sizes)), nil
}

// _fft_c2r(self, dim, normalization, last_dim_size): the float type of self's complex type,
// self's sizes with the last transformed dim last_dim_size.
func inferFFTC2R(n *ir.Node) ([]*ir.TensorMeta, error) {
	in, err := argMeta(n, "self")
	if err != nil {
		return nil, err
	}
	if !in.DType.IsComplex() {
		return nil, fmt.Errorf("%s takes a complex input, not %s", n.Target, in.DType)
	}
	dims, err := fftDims(n, len(in.Sizes))
	if err != nil {
		return nil, err
	}
	last := n.IntArg("last_dim_size", -1)
	if last < 1 {
		return nil, fmt.Errorf("%s: last_dim_size %d is not positive", n.Target, last)
	}
	sizes := slices.Clone(in.Sizes)
	sizes[dims[len(dims)-1]] = ir.Dim{Size: last}
	return one(metaOf(in.DType.ToReal(), sizes)), nil
}
