#!/usr/bin/env python3
"""Times ExecuTorch's quantized kernels against etgo's kernels/quantized side by side: one
single-instruction program per case (the fixture generator's builder; constant inputs, planned
outs), run by the official runtime with libexecutorch_kernels_quantized loaded and by
`etgo bench`, in alternating rounds. Prints per case the medians and the ratio etgo/official.

    ~/.venvs/et/bin/python tools/reference/bench_quantized.py [--rounds 3] [--iterations 50]
"""
import argparse
import statistics
import sys
import tempfile
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402
from generate_quantized_kernel_fixtures import DT, Out, build  # noqa: E402  (loads the quantized kernels)


def cases():
    g = torch.Generator().manual_seed(0)
    F, D = torch.float32, torch.float64
    x = torch.randn(64, 4096, generator=g)
    w8 = torch.randint(-128, 128, (256, 1024), generator=g, dtype=torch.int32).to(torch.int8)
    yield "quantize_per_tensor f32->i8 64x4096", "quantized_decomposed::quantize_per_tensor.out", \
        [x, 0.05, 3, -128, 127, DT(torch.int8)], [Out(torch.int8, x.shape)]
    yield "dequantize_per_tensor i8->f32 256x1024", "quantized_decomposed::dequantize_per_tensor.out", \
        [w8, 0.05, 3, -128, 127, DT(torch.int8), None], [Out(F, w8.shape)]
    yield "dequantize_per_channel i8->f32 256x1024", "quantized_decomposed::dequantize_per_channel.out", \
        [w8, torch.rand(256, generator=g).double(), torch.zeros(256, dtype=torch.long), 0, -128, 127, DT(torch.int8), None], [Out(F, w8.shape)]
    yield "choose_qparams_per_token 64x4096", "quantized_decomposed::choose_qparams_per_token_asymmetric.out", \
        [x, DT(torch.int8)], [Out(D, (64, 1)), Out(torch.long, (64, 1))]
    w4 = torch.randint(0, 256, (4096, 1024), generator=g, dtype=torch.int32).to(torch.uint8)
    s4 = torch.rand(4096, 32, generator=g) * 0.01
    idx = torch.randint(0, 4096, (1, 32), generator=g)
    yield "embedding_4bit 32 tokens of 4096x2048 g64", "quantized_decomposed::embedding_4bit.dtype_out", \
        [w4, s4, None, -8, 7, idx, DT(F)], [Out(F, (1, 32, 2048))]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--iterations", type=int, default=50)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    binary = bench.build_etgo(tmp / "etgo")
    for name, op, a, outs in cases():
        pte = tmp / "case.pte"
        pte.write_bytes(build(op, a, outs))
        off, ours = [], []
        for _ in range(args.rounds):
            _, t = bench.official(pte, [], args.warmup, args.iterations)
            off.append(statistics.median(t))
            res, err = bench.etgo(binary, pte, [], args.warmup, args.iterations, 1)
            if err:
                sys.exit(f"{name}: etgo bench: {err}")
            ours.append(res["median_ms"] if "median_ms" in res else statistics.median(res["times_ms"]))
        o, e = statistics.median(off), statistics.median(ours)
        rounds = " ".join(f"{b / a:.2f}" for a, b in zip(off, ours))
        print(f"{name:45s} official {o:8.3f} ms  etgo {e:8.3f} ms  etgo/official {e / o:5.2f}  (rounds {rounds})")


if __name__ == "__main__":
    main()
