package quantized_test

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// BenchmarkEmbedding4Bit: an 8da4w LLM's token embedding, 32 tokens of a [4096, 2048/2] packed
// table with 32 groups per row and float32 scales.
func BenchmarkEmbedding4Bit(b *testing.B) {
	w := must(executor.NewTensor(executor.Uint8, 4096, 1024))
	for i, p := 0, w.Bytes(); i < len(p); i++ {
		p[i] = byte(i * 7)
	}
	sc := must(executor.NewTensor(executor.Float32, 4096, 32))
	for i, d := 0, executor.Data[float32](sc); i < len(d); i++ {
		d[i] = 0.01
	}
	idx := must(executor.NewTensor(executor.Int64, 1, 32))
	for i, d := 0, executor.Data[int64](idx); i < len(d); i++ {
		d[i] = int64(i * 97 % 4096)
	}
	out := must(executor.NewTensor(executor.Float32, 1, 32, 2048))
	b.SetBytes(int64(out.NBytes()))
	for b.Loop() {
		if err := call("quantized_decomposed::embedding_4bit.dtype_out", 1, w, sc, nil, -8, 7, idx, dt(executor.Float32), out); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDequantizePerChannel: a [256, 1024] int8 weight left outside a delegate, dequantized
// per output channel on every run.
func BenchmarkDequantizePerChannel(b *testing.B) {
	in := must(executor.NewTensor(executor.Int8, 256, 1024))
	sc := must(executor.NewTensor(executor.Float64, 256))
	zp := must(executor.NewTensor(executor.Int64, 256))
	out := must(executor.NewTensor(executor.Float32, 256, 1024))
	b.SetBytes(int64(out.NBytes()))
	for b.Loop() {
		if err := call("quantized_decomposed::dequantize_per_channel.out", 1, in, sc, zp, 0, -128, 127, dt(executor.Int8), nil, out); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkQuantizePerTensor: a [64, 4096] float32 activation to int8.
func BenchmarkQuantizePerTensor(b *testing.B) {
	in := must(executor.NewTensor(executor.Float32, 64, 4096))
	out := must(executor.NewTensor(executor.Int8, 64, 4096))
	b.SetBytes(int64(in.NBytes()))
	for b.Loop() {
		if err := call("quantized_decomposed::quantize_per_tensor.out", 1, in, 0.05, 3, -128, 127, dt(executor.Int8), out); err != nil {
			b.Fatal(err)
		}
	}
}
