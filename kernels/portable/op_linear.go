package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::linear.out", DTypes: floatTypes, Fn: linearOut})
}

// aten::linear.out(Tensor input, Tensor weight, Tensor? bias=None, *, Tensor(a!) out):
// out[..., o] = Σ_i input[..., i]·weight[o, i] + bias[o]. Not core ATen (lowering decomposes it
// to permute + addmm), but programs that keep it, as a backend's preserved op, can run here.
func linearOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxLinearOut(args)
	if err != nil {
		return err
	}
	x, w, bias, out := u.Input, u.Weight, u.Bias, u.Out
	ts, names := []*executor.Tensor{x, w, out}, []string{"input", "weight", "out"}
	if bias != nil {
		ts, names = append(ts, bias), append(names, "bias")
	}
	if err := linalgSameDType(ts, names); err != nil {
		return err
	}
	if x.Dim() < 1 || w.Dim() != 2 || w.Size(1) != x.Size(-1) {
		return unbox.ArgError(1, "weight", "sizes %v do not match input %v (want [out, %d])", w.Sizes(), x.Sizes(), x.Size(max(x.Dim()-1, 0)))
	}
	in, of := w.Size(1), w.Size(0)
	if bias != nil && (bias.Dim() != 1 || bias.Size(0) != of) {
		return unbox.ArgError(2, "bias", "sizes %v, want [%d]", bias.Sizes(), of)
	}
	for i, t := range []*executor.Tensor{x, w} {
		if err := linalgWantRowMajor(t, i, names[i]); err != nil {
			return err
		}
	}
	sizes := append(append([]int(nil), x.Sizes()[:x.Dim()-1]...), of)
	if err := resize(out, sizes); err != nil {
		return err
	}
	if x.ScalarType() == executor.Float64 {
		linearRun[float64](x, w, bias, out, in, of)
	} else {
		linearRun[float32](x, w, bias, out, in, of)
	}
	return nil
}

func linearRun[T float32 | float64](x, w, bias, out *executor.Tensor, in, of int) {
	xs, ws := linalgView[T](x), linalgView[T](w)
	rows := out.Numel() / max(of, 1)
	wt := make([]T, in*of) // weight transposed to [in, out] for the i-k-j product
	for o := 0; o < of; o++ {
		for i := 0; i < in; i++ {
			wt[i*of+o] = ws[o*in+i]
		}
	}
	dst, flush := linalgOutput[T](out, x, w, bias)
	if bias != nil {
		bs := linalgView[T](bias)
		for r := 0; r < rows; r++ {
			copy(dst[r*of:(r+1)*of], bs)
		}
	} else {
		clear(dst)
	}
	linalgGemm(rows, of, in, xs, in, wt, of, dst, of)
	flush()
}
