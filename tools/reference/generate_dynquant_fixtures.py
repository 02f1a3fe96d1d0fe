#!/usr/bin/env python3
"""Build dynamically quantized XNNPACK fixtures with the official ExecuTorch toolchain.

Two flows, both the ones ExecuTorch documents for linear layers:
  pt2e    XNNPACKQuantizer with get_symmetric_quantization_config(is_per_channel=True,
          is_dynamic=True): int8 activations quantized per row at run time (qdint8), int8
          per-channel weights (qcint8).
  torchao quantize_(Int8DynamicActivationIntxWeightConfig(weight_dtype=torch.int4, ...)), the
          "8da4w" mode of the llama export: int8 dynamic activations with 4-bit weights,
          groupwise (PerGroup(32) or PerGroup(128)) or channelwise (PerAxis(0)); all three
          become qbint4 (channelwise as one block per row).
Each model is lowered with the XnnpackPartitioner and run by the official runtime. Under
testdata/dynquant/<model>/ this writes:
  xnnpack.pte               to_edge_transform_and_lower([XnnpackPartitioner()]).to_executorch()
  inputs/input_0.npy        the seeded input
  expected/output_0.npy     the official runtime (executorch.runtime) running xnnpack.pte
  delegation.json           delegate count and the operators left outside the delegates
and, for the models in NONFINITE, inputs/nonfinite.npy (the input with a NaN in row 0, +Inf in
row 1, -Inf in row 2) and expected/nonfinite.npy: what the official runtime makes of rows whose
range is not finite (the per-row scale becomes 0, Inf or NaN).

Models in NEXT (what the official toolchain lowers but etgo does not run yet; none today) go
to testdata/dynquant_next/<model>/ in the same layout, so the run time's refusal is tested and
the next slice has its fixtures. Models in REFUSED go to testdata/dynquant_refused/<model>:
what the official runtime runs to outputs that depend on memory past the input, which etgo
refuses by name. Models in PROBE (dynamically quantized depthwise and transposed
convolutions, which the official partitioner declines) go to /tmp/dynquant_probe, to see what
the official toolchain makes of them.

Usage:
  ~/.venvs/et/bin/python tools/reference/generate_dynquant_fixtures.py [--only linear_2d,...]
"""

from __future__ import annotations

import argparse
import json
import shutil
import zlib
from pathlib import Path

import numpy as np
import torch
from torch import nn

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "testdata" / "dynquant"


class Linear(nn.Module):
    def __init__(self, i, o, bias):
        super().__init__()
        self.fc = nn.Linear(i, o, bias=bias)

    def forward(self, x):
        return self.fc(x)


class MLP(nn.Module):
    """Two hidden layers with ReLU, so the second and third layers quantize outputs of a
    delegate node (each row of a hidden activation gets its own parameters)."""

    def __init__(self, i=64, h=96, o=10):
        super().__init__()
        self.a = nn.Linear(i, h)
        self.b = nn.Linear(h, h)
        self.c = nn.Linear(h, o)

    def forward(self, x):
        return self.c(torch.relu(self.b(torch.relu(self.a(x)))))


class Conv(nn.Module):
    def __init__(self, i=3, o=8, k=3, act=None, **kw):
        super().__init__()
        self.c = nn.Conv2d(i, o, k, **({"padding": 1} | kw))
        self.act = act

    def forward(self, x):
        y = self.c(x)
        return self.act(y) if self.act is not None else y


class ConvTranspose(nn.Module):
    def __init__(self):
        super().__init__()
        self.c = nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1)

    def forward(self, x):
        return self.c(x)


class SmallCNN(nn.Module):
    """Two dynamically quantized convolutions (the second reads the first's output through a
    tanh, so each image's parameters come from a delegate node's output) and a linear head."""

    def __init__(self):
        super().__init__()
        self.a = nn.Conv2d(3, 8, 3, stride=2, padding=1)
        self.b = nn.Conv2d(8, 16, 3, padding=1)
        self.fc = nn.Linear(16 * 4 * 4, 10)

    def forward(self, x):
        y = self.b(torch.tanh(self.a(x)))
        return self.fc(y.flatten(1))


# name: (module factory, input shape, flow)
MODELS = {
    "linear_2d": (lambda: Linear(48, 20, True), (4, 48), "pt2e"),
    "linear_2d_nobias": (lambda: Linear(48, 20, False), (4, 48), "pt2e"),
    "linear_3d": (lambda: Linear(40, 12, True), (2, 3, 40), "pt2e"),
    "mlp": (MLP, (3, 64), "pt2e"),
    "linear_8da4w_g32": (lambda: Linear(64, 24, True), (3, 64), "8da4w_g32"),
    "linear_8da4w_g32_3d": (lambda: Linear(96, 16, False), (2, 2, 96), "8da4w_g32"),
    "mlp_8da4w_g32": (MLP, (2, 64), "8da4w_g32"),
    "linear_8da4w_channel": (lambda: Linear(64, 24, True), (3, 64), "8da4w_channel"),
    # Wider layers: more blocks per row, so the qb4w zero-point sum spans many scales, and
    # enough rows and channels for the official runtime's larger GEMM tiles.
    "linear_wide": (lambda: Linear(512, 64, True), (16, 512), "pt2e"),
    "linear_8da4w_g32_wide": (lambda: Linear(256, 64, True), (8, 256), "8da4w_g32"),
    "linear_8da4w_g128": (lambda: Linear(512, 32, True), (5, 512), "8da4w_g128"),
    # Dynamically quantized convolutions (XNNPACKQuantizer's dynamic config annotates conv2d
    # too; the partitioner takes standard 2-D ones): each image is quantized with its own
    # parameters. Batches of 2 and 3, stride, dilation, groups, 1x1, no padding, a fused ReLU
    # and hardtanh, no bias.
    "conv2d": (Conv, (1, 3, 6, 6), "pt2e"),
    "conv2d_batch3": (lambda: Conv(4, 6, 3, stride=2), (3, 4, 7, 7), "pt2e"),
    "conv2d_pointwise": (lambda: Conv(16, 24, 1, padding=0), (2, 16, 5, 5), "pt2e"),
    "conv2d_grouped": (lambda: Conv(8, 12, 3, padding=2, dilation=2, groups=2), (1, 8, 6, 7), "pt2e"),
    "conv2d_rect": (lambda: Conv(6, 10, (3, 2), padding=(1, 0), stride=(1, 2)), (2, 6, 5, 8), "pt2e"),
    "conv2d_hardtanh_nobias": (lambda: Conv(5, 7, 3, act=nn.Hardtanh(-0.5, 0.5), bias=False), (1, 5, 6, 6), "pt2e"),
    "conv2d_wide": (lambda: Conv(32, 64, 3), (1, 32, 9, 9), "pt2e"),
    "small_cnn": (SmallCNN, (2, 3, 8, 8), "pt2e"),
    # The partitioner takes dynamically quantized transposed convolutions too.
    "conv_transpose": (ConvTranspose, (2, 4, 5, 5), "pt2e"),
    # 4-bit per-channel weights (XNNPACKQuantizer with weight_qmin=-8, weight_qmax=7): ExecuTorch
    # writes them as qcint4, two codes a byte, rows padded to whole bytes (an odd row length).
    "linear_qc4w": (lambda: Linear(64, 24, True), (3, 64), "pt2e_4w"),
    "linear_qc4w_3d_nobias": (lambda: Linear(40, 12, False), (2, 3, 40), "pt2e_4w"),
    "mlp_qc4w": (MLP, (3, 64), "pt2e_4w"),
    # The static flow with 4-bit per-channel weights: qint8 activations x qcint4 (XNNPACK's
    # qs8_qc4w fully connected layer).
    "linear_qc4w_static": (lambda: Linear(64, 24, True), (3, 64), "pt2e_static_4w"),
}


# What the official toolchain lowers but etgo does not run yet (empty when it runs all).
NEXT = {}

# What the official toolchain lowers and runs wrongly, which etgo refuses by name
# (testdata/dynquant_refused): a 4-bit per-channel linear over an odd number of input channels,
# whose activation rows XNNPACK reads rounded up to even (each later row shifted, the last past
# the input).
REFUSED = {"linear_qc4w_odd": (lambda: Linear(47, 20, True), (4, 47), "pt2e_4w")}

# What the official partitioner declines to run dynamically quantized (its ConvolutionConfig:
# "XNNPACK only supports standard 2D convolutions for dynamic quantization"): recorded to see
# what the lowered program becomes, not committed as fixtures.
# A convolution followed by a ReLU is not annotated dynamically at all (it stays fp32), so
# neither is probed with one.
PROBE = {
    "conv_depthwise": (lambda: Conv(6, 6, 3, groups=6), (1, 6, 5, 5), "pt2e"),
    "conv_relu": (lambda: Conv(6, 10, 3, act=torch.relu), (1, 6, 5, 5), "pt2e"),
    # (The official toolchain cannot lower a 4-bit convolution: ExecuTorch's convert_to_qc4w
    # asserts "expecting input tensor to be 2d, got 4".)
    "conv_qc4w": (Conv, (1, 3, 6, 6), "pt2e_4w"),
}

NONFINITE = {"linear_2d", "linear_8da4w_g32", "conv2d_batch3", "linear_qc4w"}


def quantize(model, x, flow):
    if flow.startswith("pt2e"):
        from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import (
            XNNPACKQuantizer,
            get_symmetric_quantization_config,
        )
        from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

        ep = torch.export.export(model, (x,))
        w4 = {"weight_qmin": -8, "weight_qmax": 7} if flow.endswith("_4w") else {}
        q = XNNPACKQuantizer().set_global(
            get_symmetric_quantization_config(is_per_channel=True, is_dynamic="static" not in flow, **w4))
        pm = prepare_pt2e(ep.module(), q)
        pm(x)
        cm = convert_pt2e(pm)
        return torch.export.export(cm, (x,))
    from torchao.quantization import Int8DynamicActivationIntxWeightConfig, quantize_
    from torchao.quantization.granularity import PerAxis, PerGroup

    gran = {"8da4w_g32": PerGroup(32), "8da4w_g128": PerGroup(128)}.get(flow, PerAxis(0))
    with torch.no_grad():
        quantize_(model, Int8DynamicActivationIntxWeightConfig(weight_dtype=torch.int4, weight_granularity=gran))
    return torch.export.export(model, (x,))


def build(name: str):
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.exir import to_edge_transform_and_lower
    from executorch.runtime import Runtime

    factory, shape, flow = MODELS.get(name) or NEXT.get(name) or REFUSED.get(name) or PROBE[name]
    seed = zlib.crc32(name.encode())
    torch.manual_seed(seed)
    model = factory().eval()
    g = torch.Generator().manual_seed(seed + 1)
    x = torch.randn(*shape, generator=g)
    eager = model(x).detach()

    ep = quantize(model, x, flow)
    lowered = to_edge_transform_and_lower(ep, partitioner=[XnnpackPartitioner()])
    outside = sorted(
        {getattr(n.target, "__name__", str(n.target)) for n in lowered.exported_program().graph.nodes
         if n.op == "call_function" and "getitem" not in str(n.target)}
    )
    et = lowered.to_executorch()

    d = OUT / name if name in MODELS else OUT.parent / "dynquant_next" / name
    if name in REFUSED:
        d = OUT.parent / "dynquant_refused" / name
    if name in PROBE:
        d = Path("/tmp/dynquant_probe") / name
    shutil.rmtree(d, ignore_errors=True)
    (d / "inputs").mkdir(parents=True)
    (d / "expected").mkdir(parents=True)
    pte = d / "xnnpack.pte"
    pte.write_bytes(et.buffer)
    np.save(d / "inputs" / "input_0.npy", x.numpy(), allow_pickle=False)

    method = Runtime.get().load_program(str(pte)).load_method("forward")
    outs = list(method.execute([x]))
    for i, o in enumerate(outs):
        np.save(d / "expected" / f"output_{i}.npy", np.ascontiguousarray(o.numpy()), allow_pickle=False)
    # Run again: the official runtime's own run-to-run variation, which bounds what a
    # comparison can demand (it is zero on one machine; the tolerance covers other kernels).
    again = list(Runtime.get().load_program(str(pte)).load_method("forward").execute([x]))
    rerun = max((a - b).abs().max().item() for a, b in zip(outs, again))
    if name in NONFINITE:
        xn = x.clone()
        if xn.dim() == 4:  # one image each: a NaN, a +Inf, a -Inf
            xn[0, 1, 2, 3], xn[1, 0, 5, 1], xn[2, 3, 0, 6] = float("nan"), float("inf"), float("-inf")
        else:
            xn[0, 3], xn[1, 5], xn[2, 7] = float("nan"), float("inf"), float("-inf")
        np.save(d / "inputs" / "nonfinite.npy", xn.numpy(), allow_pickle=False)
        on = list(Runtime.get().load_program(str(pte)).load_method("forward").execute([xn]))
        np.save(d / "expected" / "nonfinite.npy", np.ascontiguousarray(on[0].numpy()), allow_pickle=False)
    delegates = [dl.id for plan in et.executorch_program.execution_plan for dl in plan.delegates]
    info = {"flow": flow, "delegates": delegates, "targets_outside_delegates": outside}
    (d / "delegation.json").write_text(json.dumps(info, indent=1) + "\n")
    err = (outs[0] - eager).abs().max().item()
    print(f"{name}: {pte.stat().st_size} bytes, {len(delegates)} delegate(s), outside {outside}, "
          f"max |official - fp32 eager| = {err:.4g}, rerun diff {rerun:.3g}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    names = [n for n in args.only.split(",") if n] or list(MODELS) + list(NEXT) + list(REFUSED) + list(PROBE)
    for n in names:
        try:
            build(n)
        except Exception as e:  # report and go on: one flow's failure must not hide the others
            print(f"{n}: FAILED {type(e).__name__}: {e}")


if __name__ == "__main__":
    main()
