#!/usr/bin/env python3
"""Build statically quantized XNNPACK fixtures with the official ExecuTorch toolchain.

Each model goes through the standard 8-bit PT2E flow (XNNPACKQuantizer with
get_symmetric_quantization_config(is_per_channel=True): per-channel int8 weights, per-tensor
int8 activations; conv_linear_per_tensor uses the default, per-tensor weights),
is lowered with the XnnpackPartitioner, and is run by the official runtime. Under
testdata/quant/<model>/ this writes:
  xnnpack.pte               to_edge_transform_and_lower([XnnpackPartitioner()]).to_executorch()
  inputs/input_0.npy        the seeded input (the calibration input, scaled for "saturated")
  expected/output_0.npy     the official runtime (executorch.runtime) running xnnpack.pte
  delegation.json           delegate count and the operators left outside the delegates

Usage:
  ~/.venvs/et/bin/python tools/reference/generate_quant_fixtures.py [--only conv_linear,...]
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
OUT = REPO / "testdata" / "quant"


class ConvLinear(nn.Module):
    """conv(3->8, 3x3, pad 1) + ReLU, flatten, Linear."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.fc = nn.Linear(8 * 6 * 6, 10)

    def forward(self, x):
        return self.fc(torch.flatten(torch.relu(self.conv(x)), 1))


class DwResidual(nn.Module):
    """A depthwise + pointwise block with a residual add."""

    def __init__(self, c=8):
        super().__init__()
        self.stem = nn.Conv2d(3, c, 3, padding=1)
        self.dw = nn.Conv2d(c, c, 3, padding=1, groups=c)
        self.pw = nn.Conv2d(c, c, 1)

    def forward(self, x):
        y = torch.relu(self.stem(x))
        return y + self.pw(torch.relu(self.dw(y)))


class Pools(nn.Module):
    """conv, max pool, conv, average pool."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 8, 3, padding=1)
        self.c2 = nn.Conv2d(8, 8, 3, padding=1)
        self.mp = nn.MaxPool2d(2)
        self.ap = nn.AvgPool2d(2)

    def forward(self, x):
        return self.ap(self.c2(self.mp(torch.relu(self.c1(x)))))


class Blocks(nn.Module):
    """What a small quantized CNN adds: ReLU6 (hardtanh), a channel concatenation, a strided
    convolution, global average pooling (mean) and a classifier."""

    def __init__(self):
        super().__init__()
        self.a = nn.Conv2d(3, 4, 3, padding=1)
        self.b = nn.Conv2d(3, 4, 1)
        self.down = nn.Conv2d(8, 8, 3, stride=2, padding=1)
        self.fc = nn.Linear(8, 5)

    def forward(self, x):
        y = torch.cat([nn.functional.hardtanh(self.a(x), 0.0, 6.0), torch.relu(self.b(x))], 1)
        y = torch.relu(self.down(y))
        return self.fc(y.mean((2, 3)))


class Gated(nn.Module):
    """Quantized elementwise ops: a product of two convolutions, a residual add, a broadcast add
    of a per-channel constant, a channel slice."""

    def __init__(self):
        super().__init__()
        self.a = nn.Conv2d(3, 6, 3, padding=1)
        self.b = nn.Conv2d(3, 6, 1)
        self.shift = nn.Parameter(torch.randn(1, 6, 1, 1))

    def forward(self, x):
        a = self.a(x)
        y = a * self.b(x) + a
        return (y + self.shift)[:, 1:5]


class Up(nn.Module):
    """A transposed convolution, a max pool with padding, a linear layer on a 4-d input.
    (A constant pad is left out: the official runtime 1.5.1 fails to load the quantized
    StaticConstantPad the partitioner emits, "Failed to create StaticConstantPad node ... with
    code: xnn_status_invalid_parameter".)"""

    def __init__(self):
        super().__init__()
        self.up = nn.ConvTranspose2d(3, 4, 3, stride=2, padding=1, output_padding=1)
        self.mp = nn.MaxPool2d(3, stride=2, padding=1)
        self.fc = nn.Linear(4, 3)

    def forward(self, x):
        y = torch.relu(self.up(x))
        y = self.mp(y)
        return self.fc(y)


class Diff(nn.Module):
    """A difference of two convolutions, a three-way concatenation, a hardtanh."""

    def __init__(self):
        super().__init__()
        self.a = nn.Conv2d(3, 4, 3, padding=1)
        self.b = nn.Conv2d(3, 4, 1)
        self.c = nn.Conv2d(3, 2, 1)

    def forward(self, x):
        a, b = self.a(x), self.b(x)
        return nn.functional.hardtanh(torch.cat([a - b, b, self.c(x)], 1), -1.0, 1.0)


class Pad(nn.Module):
    """Two zero constant pads between convolutions, spatial then along channels. ExecuTorch
    1.5.1's InsertPadQDQPass quantizes a zero pad that reads a dequantize; in this chain the
    first pad still reads the dequantized fp32 value and writes qint8, and the second reads
    qint8 and writes fp32: StaticConstantPads across datatypes, which XNNPACK refuses. (One zero
    pad alone stays fp32 between a dequantize and a quantize and runs; so does a pad with another
    value; a quantized pad as the delegate's output makes a blob with no graph output.)"""

    def __init__(self):
        super().__init__()
        self.a = nn.Conv2d(3, 4, 3)
        self.b = nn.Conv2d(6, 5, 3)

    def forward(self, x):
        y = nn.functional.pad(self.a(x), (1, 2, 0, 1))
        return self.b(nn.functional.pad(y, (0, 0, 0, 0, 1, 1)))


class VitBlock(nn.Module):
    """A DeiT-class ViT at toy size: two torchvision encoder blocks (pre-norm LayerNorm,
    multi-head attention over 3 heads, GELU MLP, residual adds) on 5 tokens of width 24, then
    the final LayerNorm. The quantizer leaves the layer norms in fp32 on the portable kernel
    between the int8 delegates; their float32 statistics are where etgo once drifted from the
    official runtime on int8 DeiT-tiny (issue #15)."""

    def __init__(self):
        super().__init__()
        from functools import partial

        from torchvision.models.vision_transformer import EncoderBlock

        norm = partial(nn.LayerNorm, eps=1e-6)
        self.blocks = nn.Sequential(*[EncoderBlock(3, 24, 48, 0.0, 0.0, norm) for _ in range(2)])
        self.ln = norm(24)

    def forward(self, x):
        return self.ln(self.blocks(x))


def mobilenet_v2_tiny():
    """torchvision's MobileNetV2 (width 0.25, three inverted-residual stages, 10 classes) with
    randomised BatchNorm statistics: ReLU6, depthwise stride 2, residual adds, the 1280-channel
    head, global average pooling and the classifier, as the standard flow quantizes them."""
    import sys

    from torchvision.models.mobilenetv2 import MobileNetV2

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import zoo

    setting = [[1, 16, 1, 1], [6, 24, 2, 2], [6, 32, 3, 2]]
    return zoo.randomize_batchnorm(MobileNetV2(num_classes=10, width_mult=0.25, inverted_residual_setting=setting))


# name: (module, input shape, per-channel weights, input scale after calibration)
# The fixture input is the calibration input times the last field: "saturated" runs 4x outside
# the calibrated ranges, so quantize and requantize saturate.
MODELS = {
    "conv_linear": (ConvLinear, (1, 3, 6, 6), True, 1),
    "conv_linear_per_tensor": (ConvLinear, (1, 3, 6, 6), False, 1),
    "dw_residual": (DwResidual, (1, 3, 8, 8), True, 1),
    "dw_residual_saturated": (DwResidual, (1, 3, 8, 8), True, 4),
    "pools": (Pools, (1, 3, 8, 8), True, 1),
    "blocks": (Blocks, (1, 3, 8, 8), True, 1),
    "gated": (Gated, (1, 3, 6, 6), True, 1),
    "up": (Up, (1, 3, 4, 4), True, 1),
    "mobilenet_v2_tiny": (mobilenet_v2_tiny, (1, 3, 32, 32), True, 1),
    "diff": (Diff, (1, 3, 5, 5), True, 1),
    "vit_block": (VitBlock, (1, 5, 24), True, 1),
}

# What the official toolchain lowers but its runtime refuses at load, which etgo must refuse too
# (testdata/quant_refused/<model>: the .pte, the input, and refusal.txt with the official error).
REFUSED = {
    # Pads from fp32 to qint8 and back (Pad's docstring), which XNNPACK refuses ("Failed to
    # create StaticConstantPad node").
    "pad": (Pad, (1, 3, 7, 7), True, 1),
}


def build(name: str):
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import (
        XNNPACKQuantizer,
        get_symmetric_quantization_config,
    )
    from executorch.exir import to_edge_transform_and_lower
    from executorch.runtime import Runtime
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    cls, shape, per_channel, input_scale = MODELS.get(name) or REFUSED[name]
    seed = zlib.crc32(name.encode())
    torch.manual_seed(seed)
    model = cls().eval()
    g = torch.Generator().manual_seed(seed + 1)
    x = torch.randn(*shape, generator=g)

    ep = torch.export.export(model, (x,))
    q = XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=per_channel))
    pm = prepare_pt2e(ep.module(), q)
    pm(x)  # calibrate on the fixture input
    cm = convert_pt2e(pm)
    ep2 = torch.export.export(cm, (x,))
    lowered = to_edge_transform_and_lower(ep2, partitioner=[XnnpackPartitioner()])
    outside = sorted(
        {getattr(n.target, "__name__", str(n.target)) for n in lowered.exported_program().graph.nodes
         if n.op == "call_function" and "getitem" not in str(n.target)}
    )
    et = lowered.to_executorch()
    x = x * input_scale

    d = OUT / name if name in MODELS else OUT.parent / "quant_refused" / name
    shutil.rmtree(d, ignore_errors=True)
    (d / "inputs").mkdir(parents=True)
    (d / "expected").mkdir(parents=True)
    pte = d / "xnnpack.pte"
    pte.write_bytes(et.buffer)
    np.save(d / "inputs" / "input_0.npy", x.numpy(), allow_pickle=False)

    if name in REFUSED:
        try:
            Runtime.get().load_program(str(pte)).load_method("forward")
        except RuntimeError as e:
            (d / "refusal.txt").write_text(f"{e}\n")
            print(f"{name}: {pte.stat().st_size} bytes, refused by the official runtime: {e}")
            return
        raise SystemExit(f"{name}: the official runtime now loads it; move it to MODELS")
    method = Runtime.get().load_program(str(pte)).load_method("forward")
    outs = list(method.execute([x]))
    for i, o in enumerate(outs):
        np.save(d / "expected" / f"output_{i}.npy", np.ascontiguousarray(o.numpy()), allow_pickle=False)
    delegates = [
        dl.id for plan in et.executorch_program.execution_plan for dl in plan.delegates
    ]
    info = {"delegates": delegates, "targets_outside_delegates": outside}
    (d / "delegation.json").write_text(json.dumps(info, indent=1) + "\n")
    eager = model(x)
    err = (outs[0] - eager).abs().max().item()
    print(f"{name}: {pte.stat().st_size} bytes, {len(delegates)} delegate(s), outside {outside}, max |official - fp32 eager| = {err:.4g}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    names = [n for n in args.only.split(",") if n] or list(MODELS) + list(REFUSED)
    for n in names:
        build(n)


if __name__ == "__main__":
    main()
