package passes

import (
	"fmt"
	"slices"

	"github.com/etgo/etgo/ir"
)

// The torch.fft operators, as ATen's composite implementations (SpectralOps.cpp) call the FFT
// primitives: the input promoted to a type the primitives take (integers to the default float;
// to complex for a complex-to-real transform), cut or zero-padded to the requested sizes, then
// one _fft_r2c or _fft_c2r over every transformed dim with fft_norm_mode's code for the norm.
// (torch._refs.fft applies the norm as a multiplication; export traces the ATen composites,
// whose primitives take the norm as an argument.)
//
// The transforms whose composite needs a complex-to-complex FFT (_fft_c2c: fft of a complex
// input, fftn/fft2 and their inverses) or a conjugate (_conj: ifft/ihfft of a real input,
// hfft) are not expressible in the Edge dialect: neither is core ATen and the official Edge
// conversion refuses them. Their rules refuse likewise, naming the operator.

func init() {
	registerRule(fftR2C(true, false), "aten.fft_fft.default")
	registerRule(fftR2C(false, false), "aten.fft_ifft.default")
	registerRule(fftR2C(true, true), "aten.fft_rfft.default")
	registerRule(fftR2C(false, true), "aten.fft_ihfft.default")
	registerRule(fftC2R(false), "aten.fft_irfft.default")
	registerRule(fftC2R(true), "aten.fft_hfft.default")
	registerRule(fftRfftn([]int64{-2, -1}), "aten.fft_rfft2.default")
	registerRule(fftRfftn(nil), "aten.fft_rfftn.default")
	registerRule(fftIrfftn([]int64{-2, -1}), "aten.fft_irfft2.default")
	registerRule(fftIrfftn(nil), "aten.fft_irfftn.default")
	for _, op := range []string{"fft2", "fftn", "ifft2", "ifftn"} {
		registerRule(refuseFFT("its transform is complex-to-complex", "aten._fft_c2c.default"), "aten.fft_"+op+".default")
	}
	for _, op := range []string{"hfft2", "hfftn", "ihfft2", "ihfftn"} {
		registerRule(refuseFFT("it conjugates and transforms complex-to-complex", "aten._fft_c2c.default"), "aten.fft_"+op+".default")
	}
}

// refuseFFT is the rule of a transform the Edge dialect cannot express.
func refuseFFT(why, op string) rule {
	return func(b *Builder, n *ir.Node) error {
		return notEdgeFFT(n, why, op)
	}
}

func notEdgeFFT(n *ir.Node, why, op string) error {
	return fmt.Errorf("%w: %s decomposes to %s (%s), which is not core ATen; the official Edge conversion refuses it too",
		ErrNotEdge, n.Target, op, why)
}

// fftNorm is ATen's norm_from_string: the fft_norm_mode code (none 0, by_root_n 1, by_n 2) of
// norm for a forward or backward transform.
func fftNorm(n *ir.Node, forward bool) (int64, error) {
	norm := ""
	if a := n.Arg("norm"); a != nil && a.Kind == ir.ArgString {
		norm = a.Str
	} else if a != nil && a.Kind != ir.ArgNone {
		return 0, fmt.Errorf("norm is not a string")
	}
	const none, byRootN, byN = 0, 1, 2
	switch norm {
	case "", "backward":
		if forward {
			return none, nil
		}
		return byN, nil
	case "forward":
		if forward {
			return byN, nil
		}
		return none, nil
	case "ortho":
		return byRootN, nil
	}
	return 0, fmt.Errorf("invalid normalization mode %q", norm)
}

// fftPromote is ATen's promote_tensor_fft on CPU: complex stays, integers and bool become the
// default float (float32), and float32/float64 become their complex type when a complex input
// is required; float16 and bfloat16 are refused, as torch refuses them on CPU.
func fftPromote(b *Builder, x *ir.Value, requireComplex bool) *ir.Value {
	if b.Err() != nil {
		return nil
	}
	dt := x.Meta.DType
	if dt.IsComplex() {
		return x
	}
	want := dt
	if !dt.IsFloat() {
		want = ir.Float32
	}
	if want != ir.Float32 && want != ir.Float64 {
		return b.Fail("FFT of a %s tensor: torch's CPU FFT takes float32 and float64 only", dt)
	}
	if requireComplex {
		want, _ = want.ToComplex()
	}
	if want == dt {
		return x
	}
	return b.Call("aten._to_copy.default", T("self", x), Dt("dtype", want))
}

// fftDim is maybe_wrap_dim without scalar wrapping: a 0-d tensor has no dim to transform.
func fftDim(d int64, rank int) (int64, error) {
	if rank == 0 {
		return 0, fmt.Errorf("an FFT needs a tensor with at least one dim")
	}
	w, err := normDim(d, rank)
	return int64(w), err
}

// staticFFTSize is the static size of x's dim d; FFT lengths over symbolic dims are not
// supported (the transform's sizes would be SymInt arithmetic).
func staticFFTSize(x *ir.Value, d int64) (int64, error) {
	dim := x.Meta.Sizes[d]
	if !dim.IsStatic() {
		return 0, fmt.Errorf("FFT over the symbolic dim %d (%s) is not supported", d, dim.Symbol)
	}
	return dim.Size, nil
}

// resizeFFTInput is ATen's resize_fft_input: each dim cut to its size by a slice (in order),
// then one zero pad for every dim that is too short; -1 keeps a dim.
func resizeFFTInput(b *Builder, x *ir.Value, dims, sizes []int64) *ir.Value {
	if b.Err() != nil {
		return nil
	}
	rank := len(x.Meta.Sizes)
	pad := make([]int64, 2*rank)
	mustPad := false
	for i, d := range dims {
		if sizes[i] == -1 {
			continue
		}
		have, err := staticFFTSize(x, d)
		if err != nil {
			return b.Fail("%v", err)
		}
		if have < sizes[i] {
			mustPad = true
			pad[len(pad)-2*int(d)-1] = sizes[i] - have
		}
		if have > sizes[i] {
			x = b.Call("aten.slice.Tensor", T("self", x), I("dim", d), I("start", 0), I("end", sizes[i]), I("step", 1))
			if b.Err() != nil {
				return nil
			}
		}
	}
	if !mustPad {
		return x
	}
	return b.Call("aten.constant_pad_nd.default", T("self", x), Is("pad", pad...), I("value", 0))
}

// fftLength is the optional SymInt n, or -1 when it is None; a symbolic n is refused.
func fftLength(n *ir.Node) (int64, error) {
	a := n.Arg("n")
	switch {
	case a == nil || a.Kind == ir.ArgNone:
		return -1, nil
	case a.Kind == ir.ArgInt:
		return a.Int, nil
	}
	return 0, fmt.Errorf("a symbolic FFT length n is not supported")
}

// fftR2C is ATen's fft_r2c (rfft, ihfft; fft and ifft of a real input, two-sided): the
// promoted input resized to n along dim, then _fft_r2c. A backward transform conjugates the
// result, and a complex input needs the complex-to-complex transform: neither is Edge.
func fftR2C(forward, onesided bool) rule {
	return func(b *Builder, n *ir.Node) error {
		x := self(b, n)
		if b.Err() != nil {
			return b.Err()
		}
		if x.Meta.DType.IsComplex() {
			if onesided {
				return fmt.Errorf("%s expects a real input tensor, not %s", n.Target, x.Meta.DType)
			}
			return notEdgeFFT(n, "its input is complex", "aten._fft_c2c.default")
		}
		if !forward {
			return notEdgeFFT(n, "a backward real-to-complex transform conjugates its result", "aten._conj.default")
		}
		x = fftPromote(b, x, false)
		if b.Err() != nil {
			return b.Err()
		}
		dim, err := fftDim(n.IntArg("dim", -1), len(x.Meta.Sizes))
		if err != nil {
			return err
		}
		length, err := fftLength(n)
		if err != nil {
			return err
		}
		if length == -1 {
			if _, err := staticFFTSize(x, dim); err != nil {
				return err
			}
		} else {
			if length < 1 {
				return fmt.Errorf("invalid number of data points (%d) specified", length)
			}
			x = resizeFFTInput(b, x, []int64{dim}, []int64{length})
		}
		norm, err := fftNorm(n, forward)
		if err != nil {
			return err
		}
		return b.Replace(b.Call("aten._fft_r2c.default", T("self", x), Is("dim", dim), I("normalization", norm), Bo("onesided", onesided)))
	}
}

// fftC2R is ATen's fft_c2r (irfft; hfft, which conjugates its input first and so is not
// Edge): the input promoted to complex, resized to n/2+1 along dim when n is given, then
// _fft_c2r with last_dim_size n (2*(size-1) by default).
func fftC2R(forward bool) rule {
	return func(b *Builder, n *ir.Node) error {
		if forward {
			return notEdgeFFT(n, "a forward complex-to-real transform conjugates its input", "aten._conj.default")
		}
		x := fftPromote(b, self(b, n), true)
		if b.Err() != nil {
			return b.Err()
		}
		dim, err := fftDim(n.IntArg("dim", -1), len(x.Meta.Sizes))
		if err != nil {
			return err
		}
		length, err := fftLength(n)
		if err != nil {
			return err
		}
		last := length
		if length == -1 {
			size, err := staticFFTSize(x, dim)
			if err != nil {
				return err
			}
			last = 2 * (size - 1)
		}
		if last < 1 {
			return fmt.Errorf("invalid number of data points (%d) specified", last)
		}
		if length != -1 {
			x = resizeFFTInput(b, x, []int64{dim}, []int64{last/2 + 1})
		}
		norm, err := fftNorm(n, forward)
		if err != nil {
			return err
		}
		return b.Replace(b.Call("aten._fft_c2r.default", T("self", x), Is("dim", dim), I("normalization", norm), I("last_dim_size", last)))
	}
}

// fftShapeAndDims is ATen's canonicalize_fft_shape_and_dim_args: the dims transformed (dim,
// or the last len(s), or all) and each one's length (s with -1 the input's size, or the
// input's sizes). defDim is the schema's default dim ([-2, -1] for the 2-d forms).
func fftShapeAndDims(n *ir.Node, x *ir.Value, defDim []int64) (shape, dims []int64, sGiven bool, err error) {
	rank := len(x.Meta.Sizes)
	var s []int64
	if a := n.Arg("s"); a != nil && a.Kind != ir.ArgNone {
		if a.Kind != ir.ArgInts && a.Kind != ir.ArgSymInts {
			return nil, nil, false, fmt.Errorf("s is not a list of ints")
		}
		if slices.ContainsFunc(a.Values, func(v *ir.Value) bool { return v != nil }) {
			return nil, nil, false, fmt.Errorf("symbolic FFT sizes s are not supported")
		}
		s, sGiven = slices.Clone(a.Ints), true
		if s == nil {
			s = []int64{}
		}
	}
	var dim []int64
	dimGiven := false
	if a := n.Arg("dim"); a == nil {
		dim, dimGiven = defDim, defDim != nil
	} else if a.Kind == ir.ArgInts {
		dim, dimGiven = a.Ints, true
	} else if a.Kind != ir.ArgNone {
		return nil, nil, false, fmt.Errorf("dim is not a list of ints")
	}
	if dimGiven {
		for _, d := range dim {
			w, err := fftDim(d, rank)
			if err != nil {
				return nil, nil, false, err
			}
			if slices.Contains(dims, w) {
				return nil, nil, false, fmt.Errorf("FFT dims must be unique")
			}
			dims = append(dims, w)
		}
	}
	switch {
	case sGiven:
		if dimGiven && len(dims) != len(s) {
			return nil, nil, false, fmt.Errorf("when given, dim and shape arguments must have the same length")
		}
		if len(s) > rank {
			return nil, nil, false, fmt.Errorf("got shape with %d values but input tensor only has %d dimensions", len(s), rank)
		}
		if !dimGiven {
			for i := rank - len(s); i < rank; i++ {
				dims = append(dims, int64(i))
			}
		}
		for i, v := range s {
			if v == -1 {
				if v, err = staticFFTSize(x, dims[i]); err != nil {
					return nil, nil, false, err
				}
			}
			shape = append(shape, v)
		}
	case !dimGiven:
		for i := range rank {
			dims = append(dims, int64(i))
		}
		fallthrough
	default:
		for _, d := range dims {
			v, err := staticFFTSize(x, d)
			if err != nil {
				return nil, nil, false, err
			}
			shape = append(shape, v)
		}
	}
	for _, v := range shape {
		if v <= 0 {
			return nil, nil, false, fmt.Errorf("invalid number of data points (%d) specified", v)
		}
	}
	return shape, dims, sGiven, nil
}

// fftRfftn is ATen's fft_rfftn_impl (rfft2, rfftn): the promoted real input resized to the
// canonical shape, then one one-sided _fft_r2c over the dims.
func fftRfftn(defDim []int64) rule {
	return func(b *Builder, n *ir.Node) error {
		x := self(b, n)
		if b.Err() != nil {
			return b.Err()
		}
		if x.Meta.DType.IsComplex() {
			return fmt.Errorf("%s expects a real-valued input tensor, not %s", n.Target, x.Meta.DType)
		}
		shape, dims, _, err := fftShapeAndDims(n, x, defDim)
		if err != nil {
			return err
		}
		if len(shape) == 0 {
			return fmt.Errorf("rfftn must transform at least one axis")
		}
		x = resizeFFTInput(b, fftPromote(b, x, false), dims, shape)
		norm, err := fftNorm(n, true)
		if err != nil {
			return err
		}
		return b.Replace(b.Call("aten._fft_r2c.default", T("self", x), Is("dim", dims...), I("normalization", norm), Bo("onesided", true)))
	}
}

// fftIrfftn is ATen's fft_irfftn_impl (irfft2, irfftn): the canonical shape with the last
// dim's output length (s's last entry, or 2*(size-1)) and input length last/2+1, the input
// promoted to complex and resized, then one _fft_c2r.
func fftIrfftn(defDim []int64) rule {
	return func(b *Builder, n *ir.Node) error {
		x := self(b, n)
		if b.Err() != nil {
			return b.Err()
		}
		shape, dims, sGiven, err := fftShapeAndDims(n, x, defDim)
		if err != nil {
			return err
		}
		if len(shape) == 0 {
			return fmt.Errorf("irfftn must transform at least one axis")
		}
		last := shape[len(shape)-1]
		if s := n.IntsArg("s", nil); !sGiven || s[len(s)-1] == -1 {
			size, err := staticFFTSize(x, dims[len(dims)-1])
			if err != nil {
				return err
			}
			last = 2 * (size - 1)
		}
		if last < 1 {
			return fmt.Errorf("invalid number of data points (%d) specified", last)
		}
		shape[len(shape)-1] = last/2 + 1
		x = resizeFFTInput(b, fftPromote(b, x, true), dims, shape)
		norm, err := fftNorm(n, false)
		if err != nil {
			return err
		}
		return b.Replace(b.Call("aten._fft_c2r.default", T("self", x), Is("dim", dims...), I("normalization", norm), I("last_dim_size", last)))
	}
}
