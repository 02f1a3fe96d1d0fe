package quantized

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

// quantized_decomposed::mixed_mm.out(Tensor input, Tensor weight, Tensor weight_scales, Tensor?
// weight_zero_points, *, Tensor(a!) out): out[i, j] = Σ_k input[i, k] · weight[k, j] ·
// scales[k] for a float32 or float16 input [m, n], an int8 weight [n, p] and scales [n] of
// input's type, accumulated in input's type in k order, as the official
// vec_quantized_matmul_int8. Zero points are refused, as the official kernel refuses them.
func mixedMMOut(_ *executor.KernelContext, args []*executor.EValue) error {
	if err := unbox.Count(args, 6); err != nil {
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
	out, err := outArg(args, 4, "out")
	if err != nil {
		return err
	}
	if err := returnSlot(args, out); err != nil {
		return err
	}
	for _, r := range []struct {
		t    *executor.Tensor
		i    int
		name string
		rank int
	}{{in, 0, "input", 2}, {w, 1, "weight", 2}, {sc, 2, "weight_scales", 1}, {out, 4, "out", 2}} {
		if r.t.Dim() != r.rank {
			return unbox.ArgError(r.i, r.name, "must be %d-d, got sizes %v", r.rank, r.t.Sizes())
		}
		if err := contiguous(r.t, r.i, r.name); err != nil {
			return err
		}
	}
	if in.Size(1) != w.Size(0) {
		return unbox.ArgError(1, "weight", "has %d rows for input's %d columns", w.Size(0), in.Size(1))
	}
	if sc.Size(0) != w.Size(0) {
		return unbox.ArgError(2, "weight_scales", "has %d elements for weight's %d rows", sc.Size(0), w.Size(0))
	}
	if sc.ScalarType() != in.ScalarType() || out.ScalarType() != in.ScalarType() {
		return unbox.ArgError(2, "weight_scales", "input, weight_scales and out must have one dtype, got %s, %s and %s",
			dtypeName(in.ScalarType()), dtypeName(sc.ScalarType()), dtypeName(out.ScalarType()))
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
	m, n, p := in.Size(0), in.Size(1), w.Size(1)
	if err := resizeOut(out, 4, "out", []int{m, p}); err != nil {
		return err
	}
	x, c := floatValues(in)
	s, _ := floatValues(sc)
	y := executor.Data[int8](w)
	z := make([]float64, m*p)
	for i := range m {
		for j := range p {
			sum := typed{0, c}
			for k := range n {
				term := typed{x[i*n+k], c}.mul(typed{c.round(float64(y[k*p+j])), c}).mul(typed{s[k], c})
				sum = sum.addAssign(term)
			}
			z[i*p+j] = sum.v
		}
	}
	storeTyped(out, z)
	return nil
}
