#!/usr/bin/env python3
"""Build bfloat16 fixtures with the official ExecuTorch toolchain.

Each model is made bfloat16 (model.to(torch.bfloat16), bf16 inputs), exported, and lowered
twice: with the default XnnpackPartitioner(), which declines bf16 nodes (xnnpack_config.py
`_check_node_has_valid_dtype` admits bf16 only with enable_bf16), so the program runs on the
portable kernels; and with XnnpackPartitioner(enable_bf16=True), whose delegates carry
xnn_datatype_bf16 values. Both are run by the official runtime on this machine. Under
testdata/bf16/<model>/ this writes:
  model.pt2                  torch.export.save of the bf16 exported program (`etgo lower` reads it)
  portable.pte               lowered with XnnpackPartitioner()
  xnnpack.pte                lowered with XnnpackPartitioner(enable_bf16=True)
  inputs/input_<i>.npy       the seeded bf16 inputs, as their raw bits (uint16: numpy has no bf16)
  expected/portable.npy      the official runtime's output of portable.pte (raw bf16 bits)
  expected/xnnpack.npy       the official runtime's output of xnnpack.pte, absent when the
                             official runtime refuses it (delegation.json says how)
  delegation.json            per file: delegate count, the operators left outside, whether the
                             official runtime loads it (and its error if not); the CPU's
                             avx512bf16 flag (without it XNNPACK has no native bf16 kernels)
For the models in NONFINITE, inputs/nonfinite*.npy have a NaN, a +Inf and a -Inf, and
expected/{portable,xnnpack}_nonfinite.npy the official outputs for them.

The model classes and helpers are generate_fp16_fixtures.py's.

With --check-etgo ETGO (an etgo binary), every model.pt2 is also lowered by etgo, by default
(`etgo lower`) and with --enable-bf16, each result run by the official runtime on the fixture's
inputs (the nonfinite ones too), and the verdict (loads or is refused as the official file is,
outputs bit-identical to expected/) written to testdata/bf16/etgo_check.json.

Usage:
  ~/.venvs/et/bin/python tools/reference/generate_bf16_fixtures.py [--only linear,...]
  ~/.venvs/et/bin/python tools/reference/generate_bf16_fixtures.py --check-etgo /tmp/bin/etgo
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

import numpy as np
import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate_fp16_fixtures import AddMul, Cat, Seq, Softmax, cpu_has  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "testdata" / "bf16"


class Mean(nn.Module):
    def forward(self, x):
        return x.mean(dim=(-1, -2), keepdim=True) - x


class Sub(nn.Module):
    def forward(self, x, y):
        return x - y * 2.0


class DivMax(nn.Module):
    def forward(self, x, y):
        return torch.maximum(x / (y.abs() + 1.0), y) - torch.minimum(x, y)


class Shapes(nn.Module):
    """Shape ops on bf16 values: permutes, a concatenation, a reshape, a slice."""

    def forward(self, x, y):
        z = torch.cat([x.permute(0, 2, 1), y.permute(0, 2, 1)], 1)
        return z.reshape(2, -1)[:, 1:9] * 2.0


class Block(nn.Module):
    """A tiny pre-norm transformer block: single-head attention and a GELU MLP, with residuals."""

    def __init__(self, d=16):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.q, self.k, self.v, self.o = (nn.Linear(d, d) for _ in range(4))
        self.up, self.down = nn.Linear(d, 2 * d), nn.Linear(2 * d, d)
        self.scale = d ** -0.5

    def forward(self, x):
        h = self.ln1(x)
        a = torch.softmax(torch.matmul(self.q(h), self.k(h).transpose(-1, -2)) * self.scale, -1)
        x = x + self.o(torch.matmul(a, self.v(h)))
        return x + self.down(torch.nn.functional.gelu(self.up(self.ln2(x))))


# name: (module factory, input shapes)
MODELS = {
    "linear": (lambda: nn.Linear(48, 20), [(4, 48)]),
    "linear_3d_nobias": (lambda: nn.Linear(40, 12, bias=False), [(2, 3, 40)]),
    "mlp": (lambda: Seq(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10)), [(3, 32)]),
    "conv2d_relu": (lambda: Seq(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU()), [(1, 3, 8, 8)]),
    "depthwise": (lambda: nn.Conv2d(6, 6, 3, padding=1, groups=6), [(1, 6, 7, 7)]),
    "add_mul": (AddMul, [(2, 3, 5), (2, 3, 5)]),
    "sub": (Sub, [(4, 7), (4, 7)]),
    "relu": (lambda: nn.ReLU(), [(3, 64)]),
    "activations": (lambda: Seq(nn.Sigmoid(), nn.Tanh()), [(3, 64)]),
    "gelu": (lambda: nn.GELU(), [(3, 64)]),
    "softmax": (Softmax, [(4, 33)]),
    "layernorm": (lambda: nn.LayerNorm(16), [(2, 3, 16)]),
    "mean": (Mean, [(2, 3, 4, 5)]),
    "cat": (Cat, [(1, 3, 6, 6)]),
    "block": (Block, [(1, 5, 16)]),
    "linear_hardtanh": (lambda: Seq(nn.Linear(24, 16), nn.Hardtanh(-0.5, 0.5)), [(3, 24)]),
    "unary_more": (lambda: Seq(nn.ELU(), nn.LeakyReLU(0.1)), [(3, 40)]),
    "hardswish": (lambda: nn.Hardswish(), [(3, 40)]),
    "div_max": (DivMax, [(4, 9), (4, 9)]),
    "shapes": (Shapes, [(2, 3, 4), (2, 3, 4)]),
}

NONFINITE = {"linear", "add_mul", "relu", "activations", "softmax", "linear_hardtanh", "unary_more", "div_max"}


def bits(t: torch.Tensor) -> np.ndarray:
    return np.ascontiguousarray(t.contiguous().view(torch.int16).numpy().view(np.uint16))


def lower(ep, enable_bf16: bool):
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.exir import to_edge_transform_and_lower

    lowered = to_edge_transform_and_lower(ep, partitioner=[XnnpackPartitioner(enable_bf16=enable_bf16)])
    outside = sorted(
        {getattr(n.target, "__name__", str(n.target)) for n in lowered.exported_program().graph.nodes
         if n.op == "call_function" and "getitem" not in str(n.target)}
    )
    et = lowered.to_executorch()
    delegates = [dl.id for plan in et.executorch_program.execution_plan for dl in plan.delegates]
    return et.buffer, {"delegates": delegates, "targets_outside_delegates": outside}


def run(pte: Path, xs):
    from executorch.runtime import Runtime

    return list(Runtime.get().load_program(str(pte)).load_method("forward").execute(xs))[0]


def build(name: str):
    factory, shapes = MODELS[name]
    seed = zlib.crc32(name.encode())
    torch.manual_seed(seed)
    model = factory().eval()
    g = torch.Generator().manual_seed(seed + 1)
    xs32 = [torch.randn(*s, generator=g) for s in shapes]
    eager32 = model(*xs32).detach()
    model = model.to(torch.bfloat16)
    xs = [x.to(torch.bfloat16) for x in xs32]
    xn = None
    if name in NONFINITE:
        xn = [x.clone() for x in xs]
        f = xn[0].view(-1)
        f[1], f[f.numel() // 2], f[-2] = float("nan"), float("inf"), float("-inf")

    ep = torch.export.export(model, tuple(xs))
    d = OUT / name
    shutil.rmtree(d, ignore_errors=True)
    (d / "inputs").mkdir(parents=True)
    (d / "expected").mkdir(parents=True)
    torch.export.save(ep, str(d / "model.pt2"))
    for i, x in enumerate(xs):
        np.save(d / "inputs" / f"input_{i}.npy", bits(x), allow_pickle=False)
    if xn is not None:
        for i, x in enumerate(xn):
            np.save(d / "inputs" / ("nonfinite.npy" if i == 0 else f"nonfinite_{i}.npy"), bits(x), allow_pickle=False)
    info = {"avx512bf16": cpu_has("avx512_bf16"), "avx512f": cpu_has("avx512f")}
    msg = []
    for kind, opt in (("portable", False), ("xnnpack", True)):
        buf, rec = lower(ep, opt)
        pte = d / f"{kind}.pte"
        pte.write_bytes(buf)
        try:
            out = run(pte, xs)
        except Exception as e:  # the official refusal is the fixture
            rec.update(official_runs=False, error=f"{type(e).__name__}: {e}"[:300])
            msg.append(f"{kind}: {len(rec['delegates'])} delegate(s), REFUSED")
            info[kind] = rec
            continue
        rec["official_runs"] = True
        np.save(d / "expected" / f"{kind}.npy", bits(out), allow_pickle=False)
        if xn is not None:
            np.save(d / "expected" / f"{kind}_nonfinite.npy", bits(run(pte, xn)), allow_pickle=False)
        err = (out.float() - eager32).abs().max().item()
        msg.append(f"{kind}: {len(rec['delegates'])} delegate(s), outside {rec['targets_outside_delegates']}, "
                   f"max|d fp32 eager| {err:.3g}")
        info[kind] = rec
    (d / "delegation.json").write_text(json.dumps(info, indent=1) + "\n")
    print(f"{name}: " + "; ".join(msg), flush=True)


def load_bits(path: Path) -> torch.Tensor:
    return torch.from_numpy(np.load(path).view(np.int16)).view(torch.bfloat16)


def check_etgo(etgo: str, names) -> dict:
    """Lower every model.pt2 with etgo (default and --enable-bf16), run the results in the
    official runtime, compare with expected/ bit for bit (any NaN equal to any NaN)."""
    verdicts = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            d = OUT / name
            rec = json.loads((d / "delegation.json").read_text())
            for kind, flags in (("portable", []), ("xnnpack", ["--enable-bf16"])):
                out = Path(tmp) / f"{name}_{kind}.pte"
                r = subprocess.run([etgo, "lower", str(d / "model.pt2"), "-o", str(out), *flags], capture_output=True, text=True)
                key = f"{name}/{kind}"
                if r.returncode != 0:
                    verdicts[key] = {"lowered": False, "error": (r.stderr or r.stdout).strip().splitlines()[-1][:300]}
                    continue
                v = {"lowered": True}
                for case, prefix in (("", "input"), ("_nonfinite", "nonfinite")):
                    files = sorted((d / "inputs").glob(f"{prefix}*.npy"))
                    if not files:
                        continue
                    try:
                        got = run(out, [load_bits(f) for f in files])
                    except Exception as e:  # the verdict is the point: record it
                        v.update(official_runs=False, refused_as_official=not rec[kind]["official_runs"], error=f"{type(e).__name__}: {e}"[:200])
                        break
                    v["official_runs"] = True
                    if not rec[kind]["official_runs"]:
                        v["refused_as_official"] = False
                        break
                    want = torch.from_numpy(np.load(d / "expected" / f"{kind}{case}.npy").view(np.int16)).view(torch.bfloat16)
                    v[f"output{case}_identical"] = bool(got.shape == want.shape and torch.equal(
                        torch.where(got.isnan(), 0, got.view(torch.int16)), torch.where(want.isnan(), 0, want.view(torch.int16))))
                verdicts[key] = v
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
        ok = sum(1 for v in verdicts.values() if v.get("refused_as_official") or
                 (v.get("output_identical") and v.get("output_nonfinite_identical", True)))
        print(f"etgo: {ok}/{len(verdicts)} lowered programs run officially with the official outputs or are refused as the official ones")
        return
    for n in names:
        try:
            build(n)
        except Exception as e:  # report and go on: one model's failure must not hide the others
            print(f"{n}: FAILED {type(e).__name__}: {e}", flush=True)


if __name__ == "__main__":
    main()
