#!/usr/bin/env python3
"""Build full-size quantized benchmark models (issue #15's speed targets) with the official
toolchain, into an ignored folder (default testdata/bench-full/quant/, never committed):

  static int8   mobilenet_v2, resnet18, efficientnet_b0, deit_tiny (bench_suite's modules, same
                seeds), PT2E with XNNPACKQuantizer(get_symmetric_quantization_config(
                is_per_channel=True)), calibrated on the benchmark input;
  qd8 x qb4w    linear_qb4w_m1, linear_qb4w_m64: Linear(2048 -> 2048) at M = 1 and 64 rows,
                torchao Int8DynamicActivationIntxWeightConfig(int4, PerGroup(32)) (8da4w).

Per model: <out>/<name>/xnnpack.pte, inputs/input_0.npy, expected/output_0.npy (the official
runtime's outputs, which etgo must match bit for bit on the static models), so that

  ~/.venvs/et/bin/python tools/reference/bench.py --threads 1 testdata/bench-full/quant/*/xnnpack.pte

times both runtimes side by side.

  ~/.venvs/et/bin/python tools/reference/generate_quant_full.py [--only resnet18,...] [--out DIR]
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

import numpy as np
import torch
from torch import nn

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))

STATIC = ["mobilenet_v2", "resnet18", "efficientnet_b0", "deit_tiny"]


class Linear(nn.Module):
    def __init__(self, i, o):
        super().__init__()
        self.fc = nn.Linear(i, o, bias=True)

    def forward(self, x):
        return self.fc(x)


LINEARS = {"linear_qb4w_m1": 1, "linear_qb4w_m64": 64}


def static_program(name: str):
    from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import (
        XNNPACKQuantizer,
        get_symmetric_quantization_config,
    )
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    import bench_suite

    model, inputs, _ = bench_suite.seeded(name)
    ep = torch.export.export(model, inputs)
    q = XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True))
    pm = prepare_pt2e(ep.module(), q)
    pm(*inputs)
    cm = convert_pt2e(pm)
    return torch.export.export(cm, inputs), inputs


def linear_program(name: str):
    from torchao.quantization import Int8DynamicActivationIntxWeightConfig, quantize_
    from torchao.quantization.granularity import PerGroup

    torch.manual_seed(2048)
    model = Linear(2048, 2048).eval()
    x = torch.randn(LINEARS[name], 2048, generator=torch.Generator().manual_seed(2049))
    with torch.no_grad():
        quantize_(model, Int8DynamicActivationIntxWeightConfig(weight_dtype=torch.int4, weight_granularity=PerGroup(32)))
    return torch.export.export(model, (x,)), (x,)


def build(name: str, out: Path):
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.exir import to_edge_transform_and_lower
    from executorch.runtime import Runtime

    ep, inputs = static_program(name) if name in STATIC else linear_program(name)
    et = to_edge_transform_and_lower(ep, partitioner=[XnnpackPartitioner()]).to_executorch()
    d = out / name
    shutil.rmtree(d, ignore_errors=True)
    (d / "inputs").mkdir(parents=True)
    (d / "expected").mkdir(parents=True)
    pte = d / "xnnpack.pte"
    pte.write_bytes(et.buffer)
    for i, x in enumerate(inputs):
        np.save(d / "inputs" / f"input_{i}.npy", x.numpy(), allow_pickle=False)
    outs = Runtime.get().load_program(str(pte)).load_method("forward").execute(list(inputs))
    for i, o in enumerate(outs):
        np.save(d / "expected" / f"output_{i}.npy", np.ascontiguousarray(o.numpy()), allow_pickle=False)
    print(f"{name}: {pte.stat().st_size} bytes", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    ap.add_argument("--out", type=Path, default=REPO / "testdata" / "bench-full" / "quant")
    args = ap.parse_args()
    names = [n for n in args.only.split(",") if n] or STATIC + list(LINEARS)
    for n in names:
        try:
            build(n, args.out)
        except Exception as e:  # one model's failure must not hide the others
            print(f"{n}: FAILED {type(e).__name__}: {e}", flush=True)


if __name__ == "__main__":
    main()
