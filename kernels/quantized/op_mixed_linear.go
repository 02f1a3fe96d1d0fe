package quantized

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

// quantized_decomposed::mixed_linear.out(Tensor input, Tensor weight, Tensor weight_scales,
// Tensor? weight_zero_points, ScalarType? dtype=None, *, Tensor(a!) out): out[i, j] =
// Σ_groups (Σ_k∈group input[i, k] · weight[j, k]) · scales[j, group] for a float32 or float16
// input [m, n], an int8 weight [p, n] and scales [p] or [p, groups] of input's type; out is
// float32, float64 or float16 (dtype, when given, is out's and float32 or float16). The
// official vec_quantized_matmul_transb_int8 is followed exactly: groups of
// ceil(n / scales.size(1)) columns, the partial and total sums in out's type, the scale of
// group k/g read at j·ceil(n/g) + k/g.
func mixedLinearOut(_ *executor.KernelContext, args []*executor.EValue) error {
	if err := unbox.Count(args, 7); err != nil {
		return err
	}
	in, err := unbox.TensorArg(args, 0, "input")
	if err != nil {
		return err
	}
	w, err := unbox.TensorArg(args, 1, "weight")
	if err != nil {
		return err
	}
	sc, err := unbox.TensorArg(args, 2, "weight_scales")
	if err != nil {
		return err
	}
	zp, err := unbox.OptTensorArg(args, 3, "weight_zero_points")
	if err != nil {
		return err
	}
	dtype, hasDtype, err := optDtypeArg(args, 4, "dtype")
	if err != nil {
		return err
	}
	out, err := outArg(args, 5, "out")
	if err != nil {
		return err
	}
	if err := returnSlot(args, out); err != nil {
		return err
	}
	if in.Dim() != 2 {
		return unbox.ArgError(0, "input", "must be 2-d, got sizes %v", in.Sizes())
	}
	if w.Dim() != 2 {
		return unbox.ArgError(1, "weight", "must be 2-d, got sizes %v", w.Sizes())
	}
	if sc.Dim() != 1 && sc.Dim() != 2 {
		return unbox.ArgError(2, "weight_scales", "must be 1-d or 2-d, got sizes %v", sc.Sizes())
	}
	if out.Dim() != 2 {
		return unbox.ArgError(5, "out", "must be 2-d, got sizes %v", out.Sizes())
	}
	if in.Size(1) != w.Size(1) {
		return unbox.ArgError(1, "weight", "has %d columns for input's %d", w.Size(1), in.Size(1))
	}
	if sc.Size(0) != w.Size(0) {
		return unbox.ArgError(2, "weight_scales", "has %d rows for weight's %d", sc.Size(0), w.Size(0))
	}
	if sc.ScalarType() != in.ScalarType() {
		return unbox.ArgError(2, "weight_scales", "is %s, not input's %s", dtypeName(sc.ScalarType()), dtypeName(in.ScalarType()))
	}
	if hasDtype {
		if out.ScalarType() != dtype {
			return unbox.ArgError(4, "dtype", "%s does not match out's %s", dtypeName(dtype), dtypeName(out.ScalarType()))
		}
		if dtype != executor.Float32 && dtype != executor.Float16 {
			return unbox.ArgError(4, "dtype", "must be float32 or float16, got %s", dtypeName(dtype))
		}
	}
	if w.ScalarType() != executor.Int8 {
		return unbox.ArgError(1, "weight", "must be int8, got %s", dtypeName(w.ScalarType()))
	}
	if t := in.ScalarType(); t != executor.Float32 && t != executor.Float16 {
		return unbox.ArgError(0, "input", "must be float32 or float16, got %s", dtypeName(t))
	}
	if zp != nil {
		return unbox.ArgError(3, "weight_zero_points", "zero points are not supported (the official kernel refuses them)")
	}
	switch out.ScalarType() {
	case executor.Float32, executor.Float64, executor.Float16:
	default:
		return unbox.ArgError(5, "out", "must be float32, float64 or float16, got %s", dtypeName(out.ScalarType()))
	}
	m, n, p := in.Size(0), in.Size(1), w.Size(0)
	g := n
	if sc.Dim() == 2 {
		if sc.Size(1) == 0 {
			return unbox.ArgError(2, "weight_scales", "has no groups (sizes %v)", sc.Sizes())
		}
		g = (n + sc.Size(1) - 1) / sc.Size(1)
	}
	if g == 0 {
		// The official kernel divides by the group size.
		return unbox.ArgError(0, "input", "has no columns (sizes %v): the group size would be 0", in.Sizes())
	}
	for _, r := range []struct {
		t    *executor.Tensor
		i    int
		name string
	}{{in, 0, "input"}, {w, 1, "weight"}, {sc, 2, "weight_scales"}, {out, 5, "out"}} {
		if err := contiguous(r.t, r.i, r.name); err != nil {
			return err
		}
	}
	if err := resizeOut(out, 5, "out", []int{m, p}); err != nil {
		return err
	}
	nOverG := (n + g - 1) / g
	x, u := floatValues(in)
	s, _ := floatValues(sc)
	t := ctypeOf(out.ScalarType())
	y := executor.Data[int8](w)
	z := make([]float64, m*p)
	for i := range m {
		for j := range p {
			sum := typed{0, t}
			for k := 0; k < n; k += g {
				psum := typed{0, t}
				for k2 := k; k2 < min(k+g, n); k2++ {
					psum = psum.addAssign(typed{x[i*n+k2], u}.mul(typed{u.round(float64(y[j*n+k2])), u}))
				}
				sum = sum.addAssign(psum.mul(typed{s[j*nOverG+k/g], u}))
			}
			z[i*p+j] = sum.v
		}
	}
	storeTyped(out, z)
	return nil
}
