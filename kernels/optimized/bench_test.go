package optimized

import (
	"math/rand/v2"
	"testing"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/portable"
)

// Benchmarks of every optimized kernel against its portable one on BERT-base shapes (sequence
// 128, hidden 768, 12 heads, FFN 3072; group norm on a 128-channel 32x32 map, 32 groups): portable, optimized on one thread (vectorisation
// only) and on two.

type benchCase struct {
	name string
	args func(r *rand.Rand) []any
}

func f32(r *rand.Rand, sizes ...int) *executor.Tensor {
	return randTensor(r, executor.Float32, false, 1, sizes...)
}

func outArgs(out *executor.Tensor) []any { return []any{out, out} }

var benchCases = map[string]benchCase{
	"LayerNorm": {"aten::native_layer_norm.out", func(r *rand.Rand) []any {
		out, mean, rstd := newTensor(executor.Float32, 128, 768), newTensor(executor.Float32, 128, 1), newTensor(executor.Float32, 128, 1)
		return []any{f32(r, 128, 768), []int64{768}, f32(r, 768), f32(r, 768), 1e-12, out, mean, rstd, []*executor.Tensor{out, mean, rstd}}
	}},
	"GroupNorm": {"aten::native_group_norm.out", func(r *rand.Rand) []any {
		out, mean, rstd := newTensor(executor.Float32, 1, 128, 32, 32), newTensor(executor.Float32, 1, 32), newTensor(executor.Float32, 1, 32)
		return []any{f32(r, 1, 128, 32, 32), f32(r, 128), f32(r, 128), 1, 128, 1024, 32, 1e-5, out, mean, rstd, []*executor.Tensor{out, mean, rstd}}
	}},
	"Softmax": {"aten::_softmax.out", func(r *rand.Rand) []any {
		return append([]any{f32(r, 12, 128, 128), -1, false}, outArgs(newTensor(executor.Float32, 12, 128, 128))...)
	}},
	"LogSoftmax": {"aten::_log_softmax.out", func(r *rand.Rand) []any {
		return append([]any{f32(r, 128, 2048), -1, false}, outArgs(newTensor(executor.Float32, 128, 2048))...)
	}},
	"Gelu": {"aten::gelu.out", func(r *rand.Rand) []any {
		return append([]any{f32(r, 128, 3072), "none"}, outArgs(newTensor(executor.Float32, 128, 3072))...)
	}},
	"AddResidual": {"aten::add.out", func(r *rand.Rand) []any {
		return append([]any{f32(r, 128, 768), f32(r, 128, 768), 1}, outArgs(newTensor(executor.Float32, 128, 768))...)
	}},
	"AddBias": {"aten::add.out", func(r *rand.Rand) []any {
		return append([]any{f32(r, 128, 3072), f32(r, 3072), 1}, outArgs(newTensor(executor.Float32, 128, 3072))...)
	}},
	"SubMask": {"aten::sub.out", func(r *rand.Rand) []any {
		return append([]any{f32(r, 12, 128, 128), f32(r, 1, 1, 128), 1}, outArgs(newTensor(executor.Float32, 12, 128, 128))...)
	}},
	"MulScale": {"aten::mul.out", func(r *rand.Rand) []any {
		return append([]any{f32(r, 12, 128, 128), f32(r)}, outArgs(newTensor(executor.Float32, 12, 128, 128))...)
	}},
	"DivScale": {"aten::div.out", func(r *rand.Rand) []any {
		return append([]any{f32(r, 12, 128, 128), f32(r)}, outArgs(newTensor(executor.Float32, 12, 128, 128))...)
	}},
	"WhereMask": {"aten::where.self_out", func(r *rand.Rand) []any {
		return append([]any{randBool(r, 1, 12, 128, 128), f32(r, 1, 12, 128, 128), f32(r)}, outArgs(newTensor(executor.Float32, 1, 12, 128, 128))...)
	}},
	"Embedding": {"aten::embedding.out", func(r *rand.Rand) []any {
		idx := newTensor(executor.Int64, 1, 128)
		for i := range executor.Data[int64](idx) {
			executor.Data[int64](idx)[i] = int64(r.IntN(30522))
		}
		return append([]any{f32(r, 30522, 768), idx, -1, false, false}, outArgs(newTensor(executor.Float32, 1, 128, 768))...)
	}},
	"CatKV": {"aten::cat.out", func(r *rand.Rand) []any {
		return append([]any{[]*executor.Tensor{f32(r, 1, 12, 127, 64), f32(r, 1, 12, 1, 64)}, 2}, outArgs(newTensor(executor.Float32, 1, 12, 128, 64))...)
	}},
	"MmQKV": {"aten::mm.out", func(r *rand.Rand) []any {
		return append([]any{f32(r, 128, 768), f32(r, 768, 768)}, outArgs(newTensor(executor.Float32, 128, 768))...)
	}},
	"BmmScores": {"aten::bmm.out", func(r *rand.Rand) []any {
		return append([]any{f32(r, 12, 128, 64), f32(r, 12, 64, 128)}, outArgs(newTensor(executor.Float32, 12, 128, 128))...)
	}},
	"AddmmFFN": {"aten::addmm.out", func(r *rand.Rand) []any {
		return append([]any{f32(r, 3072), f32(r, 128, 768), f32(r, 768, 3072), 1, 1}, outArgs(newTensor(executor.Float32, 128, 3072))...)
	}},
}

func runBench(b *testing.B, name string, c benchCase) {
	impls := []struct {
		name string
		fn   executor.KernelFunc
	}{
		{"portable", kernelFn(b, portable.Kernels(), c.name)},
		{"optimized-1t", kernelFn(b, Kernels(1), c.name)},
		{"optimized-2t", kernelFn(b, Kernels(2), c.name)},
	}
	for _, im := range impls {
		b.Run(im.name, func(b *testing.B) {
			vals := c.args(rand.New(rand.NewPCG(1, 2)))
			evs := make([]*executor.EValue, len(vals))
			for i, v := range vals {
				evs[i] = ev(v)
			}
			ctx := &executor.KernelContext{Operator: c.name}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := im.fn(ctx, evs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkKernels(b *testing.B) {
	for _, name := range []string{"LayerNorm", "GroupNorm", "Softmax", "LogSoftmax", "Gelu", "AddResidual", "AddBias", "SubMask", "MulScale", "DivScale", "WhereMask", "Embedding", "CatKV", "MmQKV", "BmmScores", "AddmmFFN"} {
		b.Run(name, func(b *testing.B) { runBench(b, name, benchCases[name]) })
	}
}
