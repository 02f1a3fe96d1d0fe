package portable

import (
	"math"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::native_group_norm.out", DTypes: floatTypes, Fn: nativeGroupNormOut})
}

// aten::native_group_norm.out(Tensor input, Tensor? weight, Tensor? bias, SymInt N, SymInt C,
// SymInt HxW, int group, float eps, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2); the
// call ends with the TensorList return slot. input (N, C, ...) with HxW trailing elements per
// channel is normalized over each group of C/group channels: (x - mean) * rstd * weight[ch] +
// bias[ch]; out1/out2 receive mean and rstd sized [N, group]. Statistics are float64, two-pass.
func nativeGroupNormOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxNativeGroupNormOut(args)
	if err != nil {
		return err
	}
	in, weight, bias, eps := u.Input, u.Weight, u.Bias, u.Eps
	n, c, hxw, g := u.N, u.C, u.HxW, u.Group
	dt := in.ScalarType()
	if !isFloat(dt) {
		return unbox.ArgError(0, "input", "want a floating tensor, got %s", executor.DTypeName(dt))
	}
	out, mean, rstd := u.Out0, u.Out1, u.Out2
	if err := reduceNormOuts(8, dt, out, mean, rstd); err != nil {
		return err
	}
	switch {
	case in.Dim() < 2:
		return unbox.ArgError(0, "input", "rank %d; group norm needs (N, C, ...) input", in.Dim())
	case int64(in.Size(0)) != n:
		return unbox.ArgError(3, "N", "%d differs from input's size %d", n, in.Size(0))
	case int64(in.Size(1)) != c:
		return unbox.ArgError(4, "C", "%d differs from input's size %d", c, in.Size(1))
	case hxw < 0 || !groupNormNumelIs(int64(in.Numel()), n*c, hxw):
		return unbox.ArgError(5, "HxW", "N*C*HxW = %d*%d*%d differs from input's %d elements", n, c, hxw, in.Numel())
	case g <= 0:
		return unbox.ArgError(6, "group", "%d groups; want at least 1", g)
	case c%g != 0:
		return unbox.ArgError(6, "group", "%d channels are not divisible into %d groups", c, g)
	}
	for _, p := range []struct {
		t    *executor.Tensor
		i    int
		name string
	}{{weight, 1, "weight"}, {bias, 2, "bias"}} {
		if p.t == nil {
			continue
		}
		if err := reduceSameDtype(p.t, dt, p.i, p.name); err != nil {
			return err
		}
		if p.t.Dim() != 1 || int64(p.t.Size(0)) != c {
			return unbox.ArgError(p.i, p.name, "sizes %v, want [%d] (input's channels)", p.t.Sizes(), c)
		}
	}
	if err := resize(out, in.Sizes()); err != nil {
		return err
	}
	if err := reduceResizeNamed(mean, []int{int(n), int(g)}, "out1 (mean)"); err != nil {
		return err
	}
	if err := reduceResizeNamed(rstd, []int{int(n), int(g)}, "out2 (rstd)"); err != nil {
		return err
	}
	dims := groupNormDims{groups: int(n * g), g: int(g), d: int(c / g), hxw: int(hxw)}
	if reduceContiguousF32(in, weight, bias, out, mean, rstd) {
		groupNormRows(executor.Data[float32](in), reduceF32OrNil(weight), reduceF32OrNil(bias),
			executor.Data[float32](out), executor.Data[float32](mean), executor.Data[float32](rstd), dims, eps)
		return nil
	}
	x := loadF64(in)
	mv, rv := make([]float64, dims.groups), make([]float64, dims.groups)
	groupNormRows(x, reduceF64OrNil(weight), reduceF64OrNil(bias), x, mv, rv, dims, eps)
	storeF64(out, x)
	storeF64(mean, mv)
	storeF64(rstd, rv)
	return nil
}

// groupNormDims: groups = N*group rows, each of d channels of hxw elements.
type groupNormDims struct{ groups, g, d, hxw int }

func groupNormRows[T float32 | float64](x, w, b, y, mean, rstd []T, dm groupNormDims, eps float64) {
	size := dm.d * dm.hxw
	for i := 0; i < dm.groups; i++ {
		if size == 0 {
			mean[i], rstd[i] = 0, T(math.NaN())
			continue
		}
		mu, r := reduceMeanRstd(x[i*size:(i+1)*size], eps)
		for j := 0; j < dm.d; j++ {
			ch := (i%dm.g)*dm.d + j
			s, sh := r, 0.0
			if w != nil {
				s *= float64(w[ch])
			}
			if b != nil {
				sh = float64(b[ch])
			}
			off := (i*dm.d + j) * dm.hxw
			xr, yr := x[off:off+dm.hxw], y[off:off+dm.hxw]
			for k, v := range xr {
				yr[k] = T((float64(v)-mu)*s + sh)
			}
		}
		mean[i], rstd[i] = T(mu), T(r)
	}
}

// groupNormNumelIs reports numel == nc*hxw without overflowing.
func groupNormNumelIs(numel, nc, hxw int64) bool {
	if nc == 0 {
		return numel == 0
	}
	return numel%nc == 0 && numel/nc == hxw
}
