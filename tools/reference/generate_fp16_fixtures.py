#!/usr/bin/env python3
"""Build fp16 XNNPACK fixtures with the official ExecuTorch toolchain.

Each model is made half precision (model.half(), fp16 inputs), exported, lowered with the
default XnnpackPartitioner (its configs take float16 as they take float32), and run by the
official runtime on this machine. Under testdata/fp16/<model>/ this writes:
  model.pt2              torch.export.save of the fp16 exported program: what `etgo lower` reads
                         (backends/xnnpack/aot's tests lower it and compare with xnnpack.pte)
  xnnpack.pte            to_edge_transform_and_lower([XnnpackPartitioner()]).to_executorch()
  inputs/input_<i>.npy   the seeded fp16 inputs
  expected/output_0.npy  the official runtime's fp16 output
  delegation.json        delegate count, the operators left outside, and the machine's XNNPACK
                         f16 path (this script records /proc/cpuinfo's avx512fp16 flag: without
                         it XNNPACK computes f16 operators in f32 through F16C / AVX-512
                         conversions, with f32 accumulation in its GEMMs)
For the models in NONFINITE, inputs/nonfinite.npy has a NaN, a +Inf and a -Inf, and
expected/nonfinite.npy the official output for it.

With --check-etgo ETGO (an etgo binary), every model.pt2 is also lowered by etgo
(`etgo lower model.pt2 -o …`), the result is run by the official runtime on the fixture's inputs
(the nonfinite ones too), and the verdict (loads, outputs bit-identical to the official
xnnpack.pte's expected/*.npy, .pte bytes identical) is written to testdata/fp16/etgo_check.json.

Usage:
  ~/.venvs/et/bin/python tools/reference/generate_fp16_fixtures.py [--only linear,...]
  ~/.venvs/et/bin/python tools/reference/generate_fp16_fixtures.py --check-etgo /tmp/bin/etgo
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import tempfile
import zlib
from pathlib import Path

import numpy as np
import torch
from torch import nn

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "testdata" / "fp16"


class Seq(nn.Module):
    def __init__(self, *mods):
        super().__init__()
        self.m = nn.Sequential(*mods)

    def forward(self, x):
        return self.m(x)


class AddMul(nn.Module):
    def forward(self, x, y):
        return (x + y) * y - x * 0.5


class Cat(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Conv2d(3, 4, 1)
        self.b = nn.Conv2d(3, 2, 3, padding=1)

    def forward(self, x):
        return torch.cat([self.a(x), torch.relu(self.b(x))], 1)


class Softmax(nn.Module):
    def forward(self, x):
        return torch.softmax(x, -1)


class SmallCNN(nn.Module):
    """A zoo-like classifier: conv + BN + ReLU, depthwise-separable block with a residual,
    hardswish, pooling, a linear head."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.BatchNorm2d(8), nn.ReLU())
        self.dw = nn.Conv2d(8, 8, 3, padding=1, groups=8)
        self.pw = nn.Conv2d(8, 8, 1)
        self.head = nn.Sequential(nn.Hardswish(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10))

    def forward(self, x):
        y = self.stem(x)
        y = y + self.pw(torch.relu(self.dw(y)))
        return self.head(y)


class ParamAffine(nn.Module):
    """Elementwise ops on fp16 parameters: constants the preprocess keeps fp16."""

    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.randn(1, 6))
        self.shift = nn.Parameter(torch.randn(6))

    def forward(self, x):
        return x * self.scale + self.shift


class MatMulMean(nn.Module):
    """A batched matrix product, a reduction and shape ops in fp16."""

    def forward(self, x, y):
        z = torch.matmul(x, y).permute(0, 2, 1)
        return z.reshape(2, -1) - z.mean(dim=(1, 2), keepdim=True).reshape(2, 1)


class Attention(nn.Module):
    """scaled_dot_product_attention in fp16: the CPU math kernel computes it in float32 (q, k, v
    and the mask converted, the output converted back), which the partitioner splits around the
    casts and the softmax's all -inf guard."""

    def __init__(self, kind=""):
        super().__init__()
        self.kind = kind

    def forward(self, q, k, v, *mask):
        return nn.functional.scaled_dot_product_attention(
            q, k, v, attn_mask=mask[0] if mask else None, is_causal=self.kind == "causal")


def _bn_random(m):
    for mod in m.modules():
        if isinstance(mod, (nn.BatchNorm1d, nn.BatchNorm2d)):
            mod.running_mean.uniform_(-0.5, 0.5)
            mod.running_var.uniform_(0.5, 2.0)
    return m


# name: (module factory, input shapes)
MODELS = {
    "linear": (lambda: nn.Linear(48, 20), [(4, 48)]),
    "linear_3d_nobias": (lambda: nn.Linear(40, 12, bias=False), [(2, 3, 40)]),
    "conv2d_relu": (lambda: Seq(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU()), [(1, 3, 8, 8)]),
    "conv2d_strided_hardtanh": (lambda: Seq(nn.Conv2d(4, 6, 3, stride=2), nn.Hardtanh(-0.5, 0.5)), [(2, 4, 9, 9)]),
    "depthwise": (lambda: nn.Conv2d(6, 6, 3, padding=1, groups=6), [(1, 6, 7, 7)]),
    "add_mul": (AddMul, [(2, 3, 5), (2, 3, 5)]),
    "maxpool": (lambda: nn.MaxPool2d(3, stride=2, padding=1), [(1, 4, 9, 9)]),
    "avgpool": (lambda: nn.AvgPool2d(2), [(1, 4, 8, 8)]),
    "activations": (lambda: Seq(nn.Sigmoid(), nn.Tanh(), nn.Hardswish(), nn.ELU(), nn.LeakyReLU(0.1)), [(3, 64)]),
    "softmax": (Softmax, [(4, 33)]),
    "cat": (Cat, [(1, 3, 6, 6)]),
    "small_cnn": (lambda: _bn_random(SmallCNN()), [(2, 3, 16, 16)]),
    # a batch norm with no convolution before it (decomposed to a depthwise convolution), one
    # fused into a linear, a transposed convolution, parameters read by elementwise ops
    "batchnorm": (lambda: _bn_random(nn.BatchNorm2d(4)), [(1, 4, 5, 5)]),
    "linear_bn": (lambda: _bn_random(Seq(nn.Linear(16, 8), nn.BatchNorm1d(8))), [(4, 16)]),
    "convt": (lambda: nn.ConvTranspose2d(4, 3, 3, stride=2), [(1, 4, 5, 5)]),
    "param_affine": (ParamAffine, [(3, 6)]),
    "layernorm": (lambda: nn.LayerNorm(16), [(2, 3, 16)]),
    "upsample_bilinear": (lambda: nn.Upsample(scale_factor=2, mode="bilinear"), [(1, 2, 4, 4)]),
    "matmul_mean": (MatMulMean, [(2, 3, 8), (2, 8, 5)]),
    "sdpa": (Attention, [(1, 2, 5, 8), (1, 2, 5, 8), (1, 2, 5, 8)]),
    "sdpa_mask": (Attention, [(1, 2, 5, 8), (1, 2, 6, 8), (1, 2, 6, 8), (5, 6)]),
    "sdpa_causal": (lambda: Attention("causal"), [(2, 3, 4, 8), (2, 3, 4, 8), (2, 3, 4, 8)]),
}

# NaN and infinities as the official kernels treat them, for every model (matmul_mean's show
# XNNPACK's f16 batch matrix multiply clamping a NaN product to -Inf before the portable mean).
NONFINITE = set(MODELS)


def cpu_has(flag: str) -> bool:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("flags"):
                return flag in line.split()
    except OSError:
        pass
    return False


def build(name: str):
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.exir import to_edge_transform_and_lower
    from executorch.runtime import Runtime

    factory, shapes = MODELS[name]
    seed = zlib.crc32(name.encode())
    torch.manual_seed(seed)
    model = factory().eval()
    g = torch.Generator().manual_seed(seed + 1)
    xs32 = [torch.randn(*s, generator=g) for s in shapes]
    eager32 = model(*xs32).detach()
    model = model.half()
    xs = [x.half() for x in xs32]

    ep = torch.export.export(model, tuple(xs))
    lowered = to_edge_transform_and_lower(ep, partitioner=[XnnpackPartitioner()])
    outside = sorted(
        {getattr(n.target, "__name__", str(n.target)) for n in lowered.exported_program().graph.nodes
         if n.op == "call_function" and "getitem" not in str(n.target)}
    )
    et = lowered.to_executorch()

    d = OUT / name
    shutil.rmtree(d, ignore_errors=True)
    (d / "inputs").mkdir(parents=True)
    (d / "expected").mkdir(parents=True)
    torch.export.save(ep, str(d / "model.pt2"))
    pte = d / "xnnpack.pte"
    pte.write_bytes(et.buffer)
    for i, x in enumerate(xs):
        np.save(d / "inputs" / f"input_{i}.npy", x.numpy(), allow_pickle=False)
    outs = list(Runtime.get().load_program(str(pte)).load_method("forward").execute(xs))
    np.save(d / "expected" / "output_0.npy", np.ascontiguousarray(outs[0].numpy()), allow_pickle=False)
    if name in NONFINITE:
        xn = [x.clone() for x in xs]
        f = xn[0].view(-1)
        f[1], f[f.numel() // 2], f[-2] = float("nan"), float("inf"), float("-inf")
        for i, x in enumerate(xn):
            np.save(d / "inputs" / ("nonfinite.npy" if i == 0 else f"nonfinite_{i}.npy"), x.numpy(), allow_pickle=False)
        on = list(Runtime.get().load_program(str(pte)).load_method("forward").execute(xn))
        np.save(d / "expected" / "nonfinite.npy", np.ascontiguousarray(on[0].numpy()), allow_pickle=False)
    delegates = [dl.id for plan in et.executorch_program.execution_plan for dl in plan.delegates]
    info = {"delegates": delegates, "targets_outside_delegates": outside,
            "avx512fp16": cpu_has("avx512fp16"), "f16c": cpu_has("f16c"), "avx512f": cpu_has("avx512f")}
    (d / "delegation.json").write_text(json.dumps(info, indent=1) + "\n")
    err = (outs[0].float() - eager32).abs().max().item()
    print(f"{name}: {pte.stat().st_size} bytes, {len(delegates)} delegate(s), outside {outside}, "
          f"max |official fp16 - fp32 eager| = {err:.4g}")


def check_etgo(etgo: str, names) -> dict:
    """Lower every model.pt2 with etgo, run the result in the official runtime on the inputs
    and the nonfinite inputs, compare with expected/ (the official xnnpack.pte's outputs) bit
    for bit (NaN equal to NaN)."""
    from executorch.runtime import Runtime

    verdicts = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            d = OUT / name
            out = Path(tmp) / f"{name}.pte"
            r = subprocess.run([etgo, "lower", str(d / "model.pt2"), "-o", str(out)], capture_output=True, text=True)
            if r.returncode != 0:
                verdicts[name] = {"lowered": False, "error": (r.stderr or r.stdout).strip().splitlines()[-1][:300]}
                continue
            v = {"lowered": True, "identical_pte": out.read_bytes() == (d / "xnnpack.pte").read_bytes()}
            for case, prefix in (("output_0", "input"), ("nonfinite", "nonfinite")):
                files = sorted((d / "inputs").glob(f"{prefix}*.npy"))
                if not files:
                    continue
                xs = [torch.from_numpy(np.load(f)) for f in files]
                try:
                    got = list(Runtime.get().load_program(str(out)).load_method("forward").execute(xs))[0].numpy()
                except Exception as e:  # the verdict is the point: record it
                    v.update(official_runs=False, error=f"{type(e).__name__}: {e}"[:300])
                    break
                want = np.load(d / "expected" / f"{case}.npy")
                v["official_runs"] = True
                v[f"{case}_identical"] = bool(got.shape == want.shape and np.array_equal(got, want, equal_nan=True))
            verdicts[name] = v
    return verdicts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    ap.add_argument("--check-etgo", default="", help="an etgo binary: lower every model with it and run the result officially")
    args = ap.parse_args()
    names = [n for n in args.only.split(",") if n] or list(MODELS)
    if args.check_etgo:
        verdicts = check_etgo(args.check_etgo, names)
        (OUT / "etgo_check.json").write_text(json.dumps(verdicts, indent=1, sort_keys=True) + "\n")
        ok = sum(1 for v in verdicts.values() if v.get("output_0_identical") and v.get("nonfinite_identical", True))
        print(f"etgo: {ok}/{len(verdicts)} lowered programs run officially with the official outputs")
        return
    for n in names:
        try:
            build(n)
        except Exception as e:  # report and go on: one model's failure must not hide the others
            print(f"{n}: FAILED {type(e).__name__}: {e}")


if __name__ == "__main__":
    main()
