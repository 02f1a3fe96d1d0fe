#!/usr/bin/env python3
"""One-operator programs lowered by the official Vulkan partitioner, with eager outputs.

etgo's Vulkan run time (backends/vulkan/vkrt) tests each operator it executes on these: for
every case of CASES this writes, under testdata/vkrt/<case>/:
  vulkan.pte                     torch.export + to_edge_transform_and_lower([VulkanPartitioner()])
                                 + to_executorch (the official file)
  inputs/input_<i>.npy           the seeded inputs
  expected/eager/output_<i>.npy  eager PyTorch outputs on them
and testdata/vkrt/manifest.json: versions and, per case, the operators the Vulkan delegates
hold (in chain order) and what stayed outside them.

Usage:
  python tools/reference/generate_vkrt_fixtures.py
  python tools/reference/generate_vkrt_fixtures.py --only add_broadcast,linear3d
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import re
import shutil
import sys
import zlib
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "testdata" / "vkrt"


class Fn(nn.Module):
    def __init__(self, fn, mods=None):
        super().__init__()
        self.fn = fn
        self.mods = nn.ModuleList(mods or [])

    def forward(self, *xs):
        return self.fn(self, *xs)


def r(*shape):
    return ("randn", shape)


def special(*shape):
    """randn with NaN, +-inf and +-0 among the elements (compares and where must treat them as
    torch does)."""
    return ("special", shape)


def ri(*shape, lo=-3, hi=4, dtype=torch.int32):
    return ("randint", shape, lo, hi, dtype)


def rb(*shape):
    return ("bool", shape)


# name -> (module factory, inputs). Inputs are specs (r, special, ri, rb above), seeded by the case name.
CASES = {
    # binary.comp
    "add_broadcast": (lambda: Fn(lambda m, x, y: x + y), [r(2, 3, 4, 5), r(1, 3, 1, 5)]),
    "add_alpha": (lambda: Fn(lambda m, x, y: torch.add(x, y, alpha=0.5)), [r(4, 6), r(6)]),
    "sub_broadcast": (lambda: Fn(lambda m, x, y: x - y), [r(3, 1, 5), r(4, 1)]),
    "mul_broadcast": (lambda: Fn(lambda m, x, y: x * y), [r(2, 8, 3), r(2, 1, 3)]),
    "div": (lambda: Fn(lambda m, x, y: x / (y.abs() + 0.5)), [r(5, 7), r(5, 7)]),
    # unary.comp
    "relu": (lambda: Fn(lambda m, x: torch.relu(x)), [r(3, 17)]),
    "clamp": (lambda: Fn(lambda m, x: torch.clamp(x, -0.5, 0.75)), [r(2, 3, 9)]),
    "hardtanh": (lambda: Fn(lambda m, x: F.hardtanh(x, -1.0, 2.0)), [r(40)]),
    "hardswish": (lambda: Fn(lambda m, x: F.hardswish(x * 4)), [r(2, 50)]),
    "sigmoid": (lambda: Fn(lambda m, x: torch.sigmoid(x * 3)), [r(6, 11)]),
    "tanh": (lambda: Fn(lambda m, x: torch.tanh(x * 2)), [r(6, 11)]),
    "gelu": (lambda: Fn(lambda m, x: F.gelu(x * 2)), [r(6, 11)]),
    "gelu_tanh": (lambda: Fn(lambda m, x: F.gelu(x * 2, approximate="tanh")), [r(6, 11)]),
    # cast.comp: the scalar becomes an int32 constant cast to float (a negative one: as float
    # bits, a NaN)
    "mul_negative_int": (lambda: Fn(lambda m, x: x * -3), [r(4, 7)]),
    # matmul.comp
    "linear3d": (lambda: nn.Linear(16, 8), [r(2, 3, 16)]),
    "linear_nobias": (lambda: nn.Linear(24, 5, bias=False), [r(7, 24)]),
    "bmm": (lambda: Fn(lambda m, x, y: torch.bmm(x, y)), [r(3, 5, 7), r(3, 7, 4)]),
    # conv2d.comp
    "conv3x3_s2": (lambda: nn.Conv2d(3, 8, 3, stride=2, padding=1), [r(1, 3, 17, 15)]),
    # (the official partitioner takes convolutions of batch 1 only: at batch 2 it delegates none)
    "conv_depthwise": (lambda: nn.Conv2d(8, 8, 3, padding=1, groups=8), [r(1, 8, 9, 9)]),
    "conv_pointwise": (lambda: nn.Conv2d(8, 12, 1), [r(1, 8, 7, 6)]),
    "conv_grouped_dilated": (lambda: nn.Conv2d(4, 6, 3, padding=2, dilation=2, groups=2, bias=False), [r(1, 4, 10, 11)]),
    "conv_relu6": (lambda: nn.Sequential(nn.Conv2d(3, 4, 5, stride=(1, 2), padding=(2, 1)), nn.ReLU6()), [r(1, 3, 12, 12)]),
    # pool2d.comp
    "maxpool3x3_s2": (lambda: nn.MaxPool2d(3, stride=2, padding=1), [r(1, 4, 11, 10)]),
    "maxpool_ceil": (lambda: nn.MaxPool2d(2, stride=2, ceil_mode=True), [r(2, 3, 7, 9)]),
    "avgpool_pad": (lambda: nn.AvgPool2d(3, stride=2, padding=1), [r(1, 4, 11, 10)]),
    "avgpool_nopadcount": (lambda: nn.AvgPool2d(3, stride=2, padding=1, count_include_pad=False), [r(1, 4, 11, 10)]),
    # reduce.comp
    "mean_hw": (lambda: Fn(lambda m, x: x.mean(dim=(-1, -2), keepdim=True)), [r(2, 6, 5, 7)]),
    # (a reduction over a 3-D tensor's dim 1 is delegated only with keepdim)
    "mean_dim1": (lambda: Fn(lambda m, x: x.mean(dim=1, keepdim=True)), [r(3, 10, 4)]),
    "mean_last": (lambda: Fn(lambda m, x: x.mean(dim=-1)), [r(3, 10, 4)]),
    # softmax.comp
    "softmax_last": (lambda: Fn(lambda m, x: torch.softmax(x * 3, dim=-1)), [r(4, 5, 13)]),
    "softmax_dim1": (lambda: Fn(lambda m, x: torch.softmax(x, dim=1)), [r(2, 9, 6)]),
    # copy.comp
    "permute": (lambda: Fn(lambda m, x: x.permute(0, 2, 3, 1) * 2), [r(2, 3, 4, 5)]),
    "view_cat_slice": (lambda: Fn(lambda m, x, y: torch.cat([x.reshape(4, 6), y], dim=1)[:, 1:9] * 2), [r(2, 3, 4), r(4, 5)]),
    # batchnorm / layer norm
    "batchnorm2d": (lambda: nn.BatchNorm2d(5), [r(2, 5, 4, 3)]),
    "layer_norm": (lambda: nn.LayerNorm(12), [r(3, 4, 12)]),
    # ibinary.comp: comparisons to bool (NaN, infinities and signed zeros among the floats)
    "gt_tensor": (lambda: Fn(lambda m, x, y: x > y), [special(4, 9), special(4, 9)]),
    "lt_tensor_broadcast": (lambda: Fn(lambda m, x, y: x < y), [special(3, 1, 8), special(5, 1)]),
    "le_tensor": (lambda: Fn(lambda m, x, y: x <= y), [special(6, 7), special(6, 7)]),
    "ge_tensor": (lambda: Fn(lambda m, x, y: x >= y), [special(6, 7), special(7)]),
    "eq_tensor": (lambda: Fn(lambda m, x, y: x == y), [special(6, 7), special(6, 7)]),
    "eq_scalar_neginf": (lambda: Fn(lambda m, x: x == float("-inf")), [special(5, 11)]),
    "ne_scalar": (lambda: Fn(lambda m, x: x != 0.0), [special(5, 11)]),
    "lt_scalar": (lambda: Fn(lambda m, x: x < 0.25), [special(5, 11)]),
    "ge_scalar": (lambda: Fn(lambda m, x: x >= -0.5), [special(5, 11)]),
    "gt_scalar_int": (lambda: Fn(lambda m, t: t > 0), [ri(4, 10)]),
    "le_scalar_int": (lambda: Fn(lambda m, t: t <= 1), [ri(4, 10)]),
    "lt_tensor_int": (lambda: Fn(lambda m, t, u: t < u), [ri(3, 8), ri(1, 8)]),
    # an int64 input: the partitioner narrows it to int32, the staging copy casts
    "gt_scalar_long": (lambda: Fn(lambda m, t: t > 1), [ri(4, 6, dtype=torch.int64)]),
    # int32 arithmetic
    "sub_int": (lambda: Fn(lambda m, t, u: t - u), [ri(1, 9, lo=-100, hi=100), ri(6, 1, lo=-100, hi=100)]),
    "mul_int": (lambda: Fn(lambda m, t, u: t * u), [ri(4, 5, lo=-1000, hi=1000), ri(4, 5, lo=-1000, hi=1000)]),
    # logical and bitwise operators on bool
    "logical_and": (lambda: Fn(lambda m, a, b: torch.logical_and(a, b)), [rb(5, 8), rb(5, 8)]),
    "logical_or": (lambda: Fn(lambda m, a, b: torch.logical_or(a, b)), [rb(5, 8), rb(1, 8)]),
    "logical_not": (lambda: Fn(lambda m, a: torch.logical_not(a)), [rb(3, 13)]),
    "bitwise_and": (lambda: Fn(lambda m, a, b: a & b), [rb(5, 8), rb(5, 8)]),
    "bitwise_or": (lambda: Fn(lambda m, a, b: a | b), [rb(5, 8), rb(5, 8)]),
    "bitwise_not": (lambda: Fn(lambda m, a: ~a), [rb(5, 8)]),
    "compare_and": (lambda: Fn(lambda m, x, y: (x > 0) & (y < 0)), [special(4, 9), special(4, 9)]),
    # where.comp
    "where": (lambda: Fn(lambda m, c, x, y: torch.where(c, x, y)), [rb(4, 9), special(4, 9), special(4, 9)]),
    "where_broadcast": (lambda: Fn(lambda m, c, x, y: torch.where(c, x, y)), [rb(2, 3, 1), special(3, 5), r(2, 1, 5)]),
    "where_compare": (lambda: Fn(lambda m, x, y: torch.where(x > y, x, y * 0.5)), [special(6, 7), r(6, 7)]),
    # argreduce.comp
    "argmax_dim1": (lambda: Fn(lambda m, x: torch.argmax(x, dim=1)), [r(4, 10)]),
    "argmax_keepdim": (lambda: Fn(lambda m, x: torch.argmax(x, dim=-1, keepdim=True)), [r(3, 5, 7)]),
    # (the official partitioner takes an arg-reduction along the last dim only: along dim 0 it
    # delegates none)
    "argmin_last": (lambda: Fn(lambda m, x: torch.argmin(x, dim=-1)), [special(6, 5)]),
    "argmax_nan": (lambda: Fn(lambda m, x: torch.argmax(x, dim=1)), [special(5, 9)]),
    # constants made at compile time (op_full.go, op_arange.go)
    "full_bool": (lambda: Fn(lambda m, a: torch.logical_and(a, torch.full((4, 6), True))), [rb(4, 6)]),
    "full_like": (lambda: Fn(lambda m, x: x * torch.full_like(x, 2.5)), [r(3, 7)]),
    "zeros_like": (lambda: Fn(lambda m, x: torch.maximum(x, torch.zeros_like(x))), [r(3, 7)]),
    "arange_int": (lambda: Fn(lambda m, x: x > torch.arange(0, 9, 1, dtype=torch.int32)), [ri(3, 9, lo=-2, hi=10)]),
    "arange_float": (lambda: Fn(lambda m, x: x * torch.arange(0.5, 4.0, 0.5)), [r(2, 7)]),
    # casts (cast.comp)
    "to_bool": (lambda: Fn(lambda m, x: torch.logical_not(x.to(torch.bool))), [special(4, 9)]),
    "bool_to_float": (lambda: Fn(lambda m, a, x: a.to(torch.float32) + x), [rb(4, 9), r(4, 9)]),
    "int_to_float": (lambda: Fn(lambda m, t, x: t.to(torch.float32) * x), [ri(4, 9), r(4, 9)]),
}


def seed_of(name: str) -> int:
    return zlib.crc32(name.encode())


def make(name):
    factory, specs = CASES[name]
    torch.manual_seed(seed_of(name))
    m = factory().eval()
    for mod in m.modules():
        if isinstance(mod, nn.BatchNorm2d):  # non-trivial running statistics
            mod.running_mean.uniform_(-1, 1)
            mod.running_var.uniform_(0.5, 2)
            mod.weight.data.uniform_(0.5, 1.5)
            mod.bias.data.uniform_(-0.5, 0.5)
    inputs = tuple(make_input(s) for s in specs)
    return m, inputs


def make_input(spec):
    kind, shape = spec[0], spec[1]
    if kind == "randn":
        return torch.randn(*shape)
    if kind == "special":
        x = torch.randn(*shape)
        flat = x.view(-1)
        vals = [float("nan"), float("inf"), float("-inf"), 0.0, -0.0]
        idx = torch.randperm(flat.numel())[: 2 * len(vals)]
        for k, i in enumerate(idx.tolist()):
            flat[i] = vals[k % len(vals)]
        return x
    if kind == "randint":
        _, _, lo, hi, dtype = spec
        return torch.randint(lo, hi, shape, dtype=dtype)
    if kind == "bool":
        return torch.rand(*shape) > 0.5
    raise ValueError(kind)


def op_name(target) -> str:
    # "<EdgeOpOverload: aten.add.Tensor>: schema = ..." -> "aten.add.Tensor"
    m = re.match(r"<EdgeOpOverload: ([^>]+)>", str(target))
    return m.group(1) if m else str(target)


def lower(m, inputs):
    from executorch.backends.vulkan.partitioner.vulkan_partitioner import VulkanPartitioner
    from executorch.exir import to_edge_transform_and_lower

    ep = torch.export.export(m, inputs)
    edge = to_edge_transform_and_lower(ep, partitioner=[VulkanPartitioner()])
    gm = edge.exported_program().graph_module
    inside, outside = [], []
    for node in gm.graph.nodes:
        if node.op == "get_attr" and node.name.startswith("lowered_module_"):
            lm = getattr(gm, node.name)
            for n in lm.original_module.graph.nodes:
                if n.op == "call_function":
                    inside.append(op_name(n.target))
        elif node.op == "call_function" and "executorch_call_delegate" not in str(node.target) and "getitem" not in str(node.target):
            outside.append(op_name(node.target))
    return edge.to_executorch().buffer, inside, outside


def save(folder: Path, prefix: str, tensors):
    folder.mkdir(parents=True, exist_ok=True)
    for i, t in enumerate(tensors):
        np.save(folder / f"{prefix}_{i}.npy", np.ascontiguousarray(t.detach().numpy()), allow_pickle=False)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    names = [n for n in args.only.split(",") if n] or list(CASES)
    manifest_path = OUT / "manifest.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {"cases": {}}
    manifest["versions"] = {p: importlib.metadata.version(p) for p in ("executorch", "torch")}
    for name in names:
        m, inputs = make(name)
        with torch.no_grad():
            out = m(*inputs)
        outs = out if isinstance(out, (tuple, list)) else (out,)
        pte, inside, outside = lower(m, inputs)
        d = OUT / name
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        (d / "vulkan.pte").write_bytes(pte)
        save(d / "inputs", "input", inputs)
        save(d / "expected" / "eager", "output", outs)
        manifest["cases"][name] = {"delegated": inside, "outside": outside}
        print(name, inside, "outside:", outside, file=sys.stderr)
    manifest["cases"] = dict(sorted(manifest["cases"].items()))
    manifest_path.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
