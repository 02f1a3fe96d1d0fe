#!/usr/bin/env python3
"""Build the fixtures etgo's lowering of quantized programs is held to (issue #15, "Lowering").

Each model is quantized by one of the flows the ExecuTorch 1.5.1 XNNPACK docs describe, exported
(torch.export) and lowered by the official toolchain. The folders use the zoo's layout
(internal/zoo reads them), under testdata/quantlower/<model>/:
  model.pt2                      torch.export.save of the quantized exported program: what
                                 `etgo lower` reads
  portable.pte                   to_edge + to_executorch, no partitioner (q/dq as
                                 quantized_decomposed kernels)
  xnnpack.pte                    to_edge_transform_and_lower([XnnpackPartitioner()]) + to_executorch
  inputs/input_<i>.npy           the seeded input (also the calibration input)
  expected/eager/output_<i>.npy  the quantized (fake-quant) module run eagerly
  expected/portable/...          the official runtime running portable.pte
  expected/xnnpack/...           the official runtime running xnnpack.pte
  delegation.json                the official delegation record (generate_zoo.delegation_record),
                                 plus the flow and the official runtime's rerun difference
4-bit (qcint4) programs the official toolchain lowers but its runtime refuses or misreads go to
testdata/quantlower_edge/<model>/ (EDGE: no portable.pte; delegation.json "official_runtime"
says what the official runtime does with xnnpack.pte, expected/xnnpack exists when it runs), and
those it refuses to lower to testdata/quantlower_refused/<model>/ (REFUSED: model.pt2 and
refusal.json with the official error).
torchao programs go to testdata/quantlower_ao/<model>/ without portable.pte and its outputs: the
official to_edge without a partitioner refuses them (delegation.json "portable_error").
Flows:
  static    XNNPACKQuantizer + get_symmetric_quantization_config(is_per_channel=...) (PT2E)
  qat       the same with is_qat=True, prepare_qat_pt2e, one training-mode pass, convert
  dynamic   get_symmetric_quantization_config(is_per_channel=True, is_dynamic=True)
  8da4w_gN  torchao quantize_(Int8DynamicActivationIntxWeightConfig(weight_dtype=torch.int4,
            weight_granularity=PerGroup(N))), what Int8DynamicActivationInt4WeightConfig became
  8da8w     torchao quantize_(Int8DynamicActivationInt8WeightConfig())
  8da4w_channel  the same with weight_granularity=PerAxis(0) (written as qbint4, one block a row)
  static_4w, dynamic_4w  the static / dynamic flows with weight_qmin=-8, weight_qmax=7: 4-bit
            per-channel weights, written as qcint4 (quant_params.is_qc4w)
  fp32      not quantized (a control beside a quantized program of the same module)

With --check-etgo ETGO (an etgo binary), every model.pt2 is also lowered by etgo
(`etgo lower model.pt2 -o …`), the result is run by the official runtime, and the verdict
(loads, outputs identical to the official xnnpack.pte's) is written to
testdata/quantlower/etgo_check.json.

Usage:
  ~/.venvs/et/bin/python tools/reference/generate_quant_lower_fixtures.py [--only add,conv_relu]
  ~/.venvs/et/bin/python tools/reference/generate_quant_lower_fixtures.py --check-etgo /tmp/bin/etgo
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate_zoo as gz  # noqa: E402
import zoo  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "testdata" / "quantlower"
# torchao programs: the official to_edge without a partitioner refuses them ("Missing out
# variants: torchao::quantize_affine, …"), so their folders have no portable.pte and live apart.
OUT_AO = REPO / "testdata" / "quantlower_ao"


class Conv(nn.Module):
    """A convolution with an optional fused activation ("relu", "relu6", "hardtanh")."""

    def __init__(self, cin=3, cout=8, k=3, stride=1, groups=1, act=None, bias=True):
        super().__init__()
        self.c = nn.Conv2d(cin, cout, k, stride=stride, padding=k // 2, groups=groups, bias=bias)
        self.act = act

    def forward(self, x):
        y = self.c(x)
        if self.act == "relu":
            y = torch.relu(y)
        elif self.act == "relu6":
            y = nn.functional.relu6(y)
        elif self.act == "hardtanh":
            y = nn.functional.hardtanh(y, -0.5, 0.5)
        return y


class ConvBN(nn.Module):
    """conv + batch norm + relu: what QAT folds."""

    def __init__(self):
        super().__init__()
        self.c = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)

    def forward(self, x):
        return torch.relu(self.bn(self.c(x)))


class Linear(nn.Module):
    def __init__(self, i=16, o=8, bias=True, act=None):
        super().__init__()
        self.fc = nn.Linear(i, o, bias=bias)
        self.act = act

    def forward(self, x):
        y = self.fc(x)
        return torch.relu(y) if self.act == "relu" else y


class Binary(nn.Module):
    """Two convolutions combined by add or mul (optionally relu after an add)."""

    def __init__(self, op, relu=False):
        super().__init__()
        self.a = nn.Conv2d(3, 4, 3, padding=1)
        self.b = nn.Conv2d(3, 4, 1)
        self.op, self.relu = op, relu

    def forward(self, x):
        a, b = self.a(x), self.b(x)
        y = a + b if self.op == "add" else a * b
        return torch.relu(y) if self.relu else y


class Pool(nn.Module):
    def __init__(self, kind):
        super().__init__()
        self.c = nn.Conv2d(3, 8, 3, padding=1)
        self.kind = kind

    def forward(self, x):
        y = self.c(x)
        if self.kind == "max":
            return nn.functional.max_pool2d(y, 2)
        if self.kind == "avg":
            return nn.functional.avg_pool2d(y, 2)
        if self.kind == "adaptive":
            return nn.functional.adaptive_avg_pool2d(y, 1)
        return y.mean((2, 3), keepdim=True)


class Cat(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Conv2d(3, 4, 3, padding=1)
        self.b = nn.Conv2d(3, 2, 1)

    def forward(self, x):
        return torch.cat([self.a(x), self.b(x)], 1)


class Hardtanh(nn.Module):
    """A standalone hardtanh and relu after a non-fusing op (a max pool)."""

    def __init__(self):
        super().__init__()
        self.c = nn.Conv2d(3, 4, 3, padding=1)

    def forward(self, x):
        y = nn.functional.max_pool2d(self.c(x), 2)
        return nn.functional.hardtanh(y, -0.3, 0.3) + torch.relu(y)


class Flatten(nn.Module):
    """conv, flatten, linear: a quantized classifier head (view_copy between q/dq)."""

    def __init__(self):
        super().__init__()
        self.c = nn.Conv2d(3, 4, 3, padding=1)
        self.fc = nn.Linear(4 * 4 * 4, 5)

    def forward(self, x):
        return self.fc(torch.flatten(torch.relu(self.c(x)), 1))


class ResBlock(nn.Module):
    """A ResNet basic block with a projection shortcut and a classifier."""

    def __init__(self, c=8):
        super().__init__()
        self.stem = nn.Conv2d(3, c, 3, padding=1, bias=False)
        self.bn0 = nn.BatchNorm2d(c)
        self.c1 = nn.Conv2d(c, c, 3, stride=2, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.c2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c)
        self.down = nn.Conv2d(c, c, 1, stride=2, bias=False)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(c, 4)

    def forward(self, x):
        x = torch.relu(self.bn0(self.stem(x)))
        y = torch.relu(self.bn1(self.c1(x)))
        y = self.bn2(self.c2(y))
        y = torch.relu(y + self.down(x))
        return self.fc(torch.flatten(self.pool(y), 1))


class MeanNoKeep(nn.Module):
    """conv + relu, add, mean over H, W without keepdim (XNNPACK declines it), linear: two
    delegates with the mean between them."""

    def __init__(self):
        super().__init__()
        self.c = nn.Conv2d(3, 8, 3, padding=1)
        self.fc = nn.Linear(8, 4)

    def forward(self, x):
        y = torch.relu(self.c(x))
        y = y + y
        return self.fc(y.mean((2, 3)))


class Unsupported(nn.Module):
    """conv, then a cumsum (no XNNPACK config) and a flip, then conv: the quantizer leaves the
    middle fp32, so dq/q around it are claimed alone as Converts."""

    def __init__(self):
        super().__init__()
        self.a = nn.Conv2d(3, 4, 3, padding=1)
        self.b = nn.Conv2d(4, 4, 1)

    def forward(self, x):
        y = torch.relu(self.a(x))
        y = torch.cumsum(y, dim=3).flip(2)
        return self.b(y)


class GroupedTranspose(nn.Module):
    """conv, then a grouped transposed conv: with per-channel weights the official partitioner
    declines it (XNNPACK has no per-channel quantization for transposed convs with groups > 1),
    so its weight's dequantize_per_channel stays outside, for the quantized kernel library."""

    def __init__(self):
        super().__init__()
        self.a = nn.Conv2d(3, 4, 3, padding=1)
        self.t = nn.ConvTranspose2d(4, 4, 3, stride=2, padding=1, groups=2)

    def forward(self, x):
        return self.t(torch.relu(self.a(x)))


class SharedSource(nn.Module):
    """The input feeds a broadcast add or mul first (with a per-channel constant of the given
    shape, or with its own relu) and a convolution after it. With the dynamic flow, the
    convolution's input_to_nhwc traces back to the input and makes every user of it read the
    NHWC copy (replace_all_uses_with), the already-processed binary op too:
    ChannelsLastTaggedReshapePass's final step re-converges that op's operands."""

    def __init__(self, op="mul", const=(1, 3, 1, 1)):
        super().__init__()
        self.op = op
        self.p = nn.Parameter(torch.randn(*const)) if const else None
        self.conv = nn.Conv2d(3, 3, 3, padding=1)

    def forward(self, x):
        other = self.p if self.p is not None else torch.relu(x)
        y = {"mul": torch.mul, "add": torch.add, "sub": torch.sub, "div": torch.div}[self.op](x, other)
        return self.conv(x) + y


def zoo_spec(name):
    return next(s for s in zoo.ZOO if s.name == name)


def mobilenet_v2_tiny():
    from torchvision.models.mobilenetv2 import MobileNetV2

    setting = [[1, 8, 1, 1], [6, 12, 2, 2]]
    return zoo.randomize_batchnorm(MobileNetV2(num_classes=5, width_mult=0.25, inverted_residual_setting=setting))


def resblock():
    return zoo.randomize_batchnorm(ResBlock())


# name: (factory, input shape, flow, per-channel, dynamic dims {input dim: (name, min, max)}, description)
MODELS = {
    "conv_relu": (lambda: Conv(act="relu"), (1, 3, 6, 6), "static", True, None, "conv2d + relu, per-channel"),
    "conv_per_tensor": (lambda: Conv(act="relu"), (1, 3, 6, 6), "static", False, None, "conv2d + relu, per-tensor weights"),
    "conv_relu6": (lambda: Conv(act="relu6", stride=2), (1, 3, 7, 7), "static", True, None, "strided conv2d + relu6 (hardtanh fusion)"),
    "conv_hardtanh": (lambda: Conv(act="hardtanh", bias=False), (1, 3, 5, 5), "static", True, None, "conv2d without bias + hardtanh(-0.5, 0.5)"),
    "dwconv": (lambda: Conv(cin=6, cout=6, groups=6, act="relu6"), (1, 6, 6, 6), "static", True, None, "depthwise conv2d + relu6"),
    "linear": (lambda: Linear(), (2, 16), "static", True, None, "linear, per-channel"),
    "linear_per_tensor": (lambda: Linear(act="relu"), (3, 16), "static", False, None, "linear + relu, per-tensor weights"),
    "linear_nobias": (lambda: Linear(bias=False), (2, 16), "static", True, None, "linear without bias"),
    "add": (lambda: Binary("add"), (1, 3, 5, 5), "static", True, None, "conv + conv, add"),
    "add_relu": (lambda: Binary("add", relu=True), (1, 3, 5, 5), "static", True, None, "conv + conv, add + relu"),
    "mul": (lambda: Binary("mul"), (1, 3, 5, 5), "static", True, None, "conv * conv"),
    "maxpool": (lambda: Pool("max"), (1, 3, 6, 6), "static", True, None, "conv, max_pool2d"),
    "avgpool": (lambda: Pool("avg"), (1, 3, 6, 6), "static", True, None, "conv, avg_pool2d"),
    "adaptive_avgpool": (lambda: Pool("adaptive"), (1, 3, 6, 6), "static", True, None, "conv, adaptive_avg_pool2d to 1x1"),
    "mean": (lambda: Pool("mean"), (1, 3, 6, 6), "static", True, None, "conv, mean over H, W (keepdim)"),
    "cat": (Cat, (1, 3, 5, 5), "static", True, None, "two convs concatenated along channels"),
    "hardtanh": (Hardtanh, (1, 3, 6, 6), "static", True, None, "max pool, then a standalone hardtanh and relu, added"),
    "flatten_linear": (Flatten, (1, 3, 4, 4), "static", True, None, "conv, relu, flatten, linear"),
    "qat_conv_bn": (ConvBN, (1, 3, 6, 6), "qat", True, None, "conv + batch norm + relu, QAT"),
    "resblock": (resblock, (1, 3, 8, 8), "static", True, None, "a ResNet basic block with a projection shortcut"),
    "mobilenet_v2_tiny": (mobilenet_v2_tiny, (1, 3, 16, 16), "static", True, None, "torchvision MobileNetV2, width 0.25, two stages"),
    "mean_nokeep": (MeanNoKeep, (1, 3, 8, 8), "static", True, None, "mean without keepdim declined between two delegates"),
    "unsupported_mid": (Unsupported, (1, 3, 6, 6), "static", True, None, "cumsum and flip between quantized convs"),
    "convt_groups": (GroupedTranspose, (1, 3, 4, 4), "static", True, None, "grouped transposed conv declined, its weight dq left outside"),
    # zoo models (tools/reference/zoo.py) through the static per-channel flow: whatever the
    # quantizer annotates on them, and what the partitioner then declines.
    "zoo_mlp": ("zoo", "mlp", "static", True, None, "zoo mlp, quantized"),
    "zoo_residual_cnn": ("zoo", "residual_cnn", "static", True, None, "zoo residual_cnn, quantized"),
    "zoo_inverted_residual": ("zoo", "inverted_residual", "static", True, None, "zoo inverted_residual, quantized"),
    "zoo_split_delegation": ("zoo", "split_delegation", "static", True, None, "zoo split_delegation (cumsum, erf), quantized"),
    "zoo_transformer_encoder": ("zoo", "transformer_encoder", "static", True, None, "zoo transformer_encoder, quantized"),
    "zoo_max_dim": ("zoo", "max_dim", "static", True, None, "zoo max_dim, quantized"),
    # Larger zoo models, not committed (a few MB each): --only them with --out.
    "zoo_mobilenet_v2_small": ("zoo", "mobilenet_v2_small", "static", True, None, "zoo mobilenet_v2_small, quantized"),
    "zoo_mobilenet_v3_small_small": ("zoo", "mobilenet_v3_small_small", "static", True, None, "zoo mobilenet_v3_small_small, quantized"),
    "zoo_resnet18_small": ("zoo", "resnet18_small", "static", True, None, "zoo resnet18_small, quantized"),
    "dyn_linear_2d": (lambda: Linear(32, 12), (4, 32), "dynamic", True, None, "dynamically quantized linear, 2-D"),
    "dyn_linear_3d": (lambda: Linear(32, 12), (2, 3, 32), "dynamic", True, None, "dynamically quantized linear, 3-D"),
    "dyn_linear_3d_sym": (lambda: Linear(32, 12), (2, 3, 32), "dynamic", True, {1: ("seq", 1, 16)}, "dynamically quantized linear, 3-D, symbolic seq"),
    "dyn_conv2d": (lambda: Conv(act="relu"), (1, 3, 6, 6), "dynamic", True, None, "the dynamic config on conv2d + relu (ExecuTorch 1.5.1: left fp32)"),
    # Dynamically quantized convolutions (the dynamic config annotates a conv2d not followed by
    # an activation): ChannelsLastTaggedReshapePass's dynamic path puts the NHWC copy before the
    # per-image quantization (traced back to the activation's source), not after the dq.
    "dyn_conv2d_plain": (lambda: Conv(), (1, 3, 6, 6), "dynamic", True, None, "dynamically quantized conv2d"),
    "dyn_conv2d_pointwise": (lambda: Conv(cin=16, cout=24, k=1), (2, 16, 5, 5), "dynamic", True, None, "dynamically quantized 1x1 conv2d, batch 2"),
    "dyn_conv2d_strided": (lambda: Conv(cin=4, cout=6, stride=2), (3, 4, 7, 7), "dynamic", True, None, "dynamically quantized strided conv2d, batch 3"),
    "dyn_conv2d_grouped": (lambda: Conv(cin=8, cout=12, groups=2, bias=False), (1, 8, 6, 7), "dynamic", True, None, "dynamically quantized grouped conv2d without bias"),
    "dyn_add": (lambda: Binary("add"), (1, 3, 5, 5), "dynamic", True, None, "two dynamically quantized convs of one input, added"),
    "dyn_cat": (Cat, (1, 3, 5, 5), "dynamic", True, None, "two dynamically quantized convs of one input, concatenated"),
    "dyn_two_convs": (lambda: nn.Sequential(Conv(cin=3, cout=4), Conv(cin=4, cout=5)), (1, 3, 6, 6), "dynamic", True, None, "a dynamically quantized conv reading another's output"),
    "dyn_pool_conv": (lambda: nn.Sequential(nn.MaxPool2d(2), Conv(cin=3, cout=4)), (1, 3, 8, 8), "dynamic", True, None, "max pool, then a dynamically quantized conv"),
    "dyn_conv_flatten_linear": (lambda: nn.Sequential(Conv(cin=3, cout=4), nn.Flatten(), nn.Linear(4 * 4 * 4, 5)), (1, 3, 4, 4), "dynamic", True, None, "dynamically quantized conv, flatten, dynamically quantized linear"),
    # ChannelsLastTaggedReshapePass's re-converge step: the dynamic conv's source also feeds a
    # binary op processed before it (SharedSource); the fp32 control never needs the step.
    "dyn_shared_mul_const": (lambda: SharedSource("mul", (1, 3, 1, 1)), (1, 3, 5, 5), "dynamic", True, None, "input * per-channel [1,C,1,1] constant, then a dynamically quantized conv of the input: re-converged to NCHW"),
    "dyn_shared_add_const3d": (lambda: SharedSource("add", (3, 1, 1)), (1, 3, 5, 5), "dynamic", True, None, "input + [C,1,1] constant (not 4-D), then a dynamically quantized conv: re-converged to NCHW"),
    "dyn_shared_div_const": (lambda: SharedSource("div", (1, 3, 1, 1)), (2, 3, 5, 5), "dynamic", True, None, "input / per-channel constant, batch 2, then a dynamically quantized conv"),
    "fp32_shared_mul_const": (lambda: SharedSource("mul", (1, 3, 1, 1)), (1, 3, 5, 5), "fp32", True, None, "dyn_shared_mul_const unquantized: the step finds nothing"),
    "ao_8da4w_g32": (lambda: Linear(64, 16), (3, 64), "8da4w_g32", True, None, "torchao 8da4w, group 32"),
    "ao_8da4w_g128": (lambda: Linear(256, 16, bias=False), (2, 256), "8da4w_g128", True, None, "torchao 8da4w, group 128"),
    # 4-bit per-channel weights (qcint4): XNNPACKQuantizer with weight_qmin=-8, weight_qmax=7,
    # dynamic (qd8×qc4w) and static (qs8×qc4w) linears.
    "dyn4w_linear": (lambda: Linear(64, 24), (3, 64), "dynamic_4w", True, None, "qd8×qc4w linear, 2-D"),
    "dyn4w_linear_3d_nobias": (lambda: Linear(40, 12, bias=False), (2, 3, 40), "dynamic_4w", True, None, "qd8×qc4w linear without bias, 3-D"),
    "dyn4w_linear_3d_sym": (lambda: Linear(32, 12), (2, 3, 32), "dynamic_4w", True, {1: ("seq", 1, 16)}, "qd8×qc4w linear, 3-D, symbolic seq"),
    "dyn4w_mlp": ("zoo", "mlp", "dynamic_4w", True, None, "zoo mlp, qd8×qc4w"),
    "static4w_linear": (lambda: Linear(64, 24), (3, 64), "static_4w", True, None, "qs8×qc4w linear"),
    "static4w_linear_relu": (lambda: Linear(32, 10, act="relu"), (4, 32), "static_4w", True, None, "qs8×qc4w linear + relu"),
    "static4w_mlp": ("zoo", "mlp", "static_4w", True, None, "zoo mlp, qs8×qc4w"),
    "static4w_linear_n1": (lambda: Linear(16, 1), (2, 16), "static_4w", True, None, "qs8×qc4w linear, one output channel (a [1, K] weight, not squeezed)"),
    "ao_8da4w_channel": (lambda: Linear(64, 16), (3, 64), "8da4w_channel", True, None, "torchao 8da4w, one scale per channel"),
    # torchao's 8-bit weights through the same config (weight_dtype=torch.int8): one scale per
    # channel, and groups of 32.
    "ao_8da8w_channel": (lambda: Linear(64, 16), (3, 64), "8da8w_intx_channel", True, None, "torchao 8-bit dynamic activations x 8-bit weights, one scale per channel"),
    # Int8DynamicActivationInt8WeightConfig is left out: its linear exports as aten._int_mm,
    # which the official to_edge_transform_and_lower refuses ("aten._int_mm.default is not in
    # Core ATen opset"), so there is no official file to match.
}


# 4-bit programs the official toolchain lowers but its runtime refuses or runs wrongly
# (testdata/quantlower_edge/<model>: model.pt2, xnnpack.pte, inputs, delegation.json with the
# official runtime's verdict, and expected/xnnpack when it runs). etgo lowers them to the
# official graph and its runtime refuses them by name.
EDGE = {
    # convert_to_qc4w squeezes the [6, 4, 1, 1] filter to [6, 4] and packs it; XNNPACK's
    # convolution takes no qcint4 filter, so the official runtime fails to load the method.
    "static4w_conv1x1": (lambda: Conv(cin=4, cout=6, k=1), (1, 4, 5, 5), "static_4w", True, None, "qs8×qc4w 1×1 conv2d + relu"),
    "dyn4w_conv1x1": (lambda: Conv(cin=4, cout=6, k=1, act=None), (1, 4, 5, 5), "dynamic_4w", True, None, "qd8×qc4w 1×1 conv2d"),
    # An odd number of input channels: rows padded to whole bytes; the official runtime reads
    # the activation rows rounded up to even too (each later row shifted), far from eager.
    "dyn4w_linear_odd": (lambda: Linear(47, 20), (4, 47), "dynamic_4w", True, None, "qd8×qc4w linear, 47 input channels"),
    "static4w_linear_k1": (lambda: Linear(1, 8), (2, 1), "static_4w", True, None, "qs8×qc4w linear, one input channel"),
    # ChannelsLastTaggedReshapePass re-converges the sub to NHWC (both operands are 4-D
    # activations), converting relu's output, which the replace_all_uses_with made read NHWC
    # data under its NCHW tag: the official runtime fails to execute it (error 0x1).
    "dyn_shared_sub_relu": (lambda: SharedSource("sub", None), (1, 3, 5, 5), "dynamic", True, None, "input - relu(input), then a dynamically quantized conv: re-converged to NHWC"),
}
OUT_EDGE = REPO / "testdata" / "quantlower_edge"

# 4-bit programs the official toolchain refuses to lower (testdata/quantlower_refused/<model>:
# model.pt2 and refusal.json with the official error); etgo refuses them at the same stage.
REFUSED = {
    # "convert_to_qc4w: expecting input tensor to be 2d, got 4": a 3×3 filter does not squeeze.
    "static4w_conv3x3": (lambda: Conv(act="relu"), (1, 3, 6, 6), "static_4w", True, None, "qs8×qc4w 3×3 conv2d + relu"),
    "static4w_flatten_linear": (Flatten, (1, 3, 4, 4), "static_4w", True, None, "conv, relu, flatten, linear with 4-bit weights"),
    # "Only 4b group quantization is supported": torchao's groupwise 8-bit weights (the
    # partitioner takes the linear; its preprocess asserts).
    "ao_8da8w_g32": (lambda: Linear(64, 16), (3, 64), "8da8w_intx_g32", True, None, "torchao 8-bit dynamic activations x 8-bit weights, group 32"),
}
OUT_REFUSED = REPO / "testdata" / "quantlower_refused"

ALL = {**MODELS, **EDGE, **REFUSED}


# Models a full run leaves out (their fixtures would be several MB): generated with --only.
LARGE = {"zoo_mobilenet_v2_small", "zoo_mobilenet_v3_small_small", "zoo_resnet18_small"}


def quantize(model, x, flow, per_channel, dynamic_shapes):
    from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import (
        XNNPACKQuantizer,
        get_symmetric_quantization_config,
    )
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e, prepare_qat_pt2e

    if flow == "fp32":
        return model, torch.export.export(model, (x,), dynamic_shapes=dynamic_shapes)
    if flow in ("static", "qat", "dynamic", "static_4w", "dynamic_4w"):
        ep = torch.export.export(model, (x,), dynamic_shapes=dynamic_shapes)
        # The _4w flows: 4-bit per-channel weights (test_linear.py's _get_4b_dqconfig), which
        # the preprocess writes as qcint4 (quant_params.is_qc4w: per channel, static, [-8, 7]).
        w4 = {"weight_qmin": -8, "weight_qmax": 7} if flow.endswith("_4w") else {}
        cfg = get_symmetric_quantization_config(is_per_channel=per_channel, is_qat=flow == "qat",
                                                is_dynamic=flow.startswith("dynamic"), **w4)
        q = XNNPACKQuantizer().set_global(cfg)
        if flow == "qat":
            pm = prepare_qat_pt2e(ep.module(), q)
            pm(x)  # one training-mode pass: observers and batch-norm statistics
            from torchao.quantization.pt2e import move_exported_model_to_eval

            move_exported_model_to_eval(pm)
        else:
            pm = prepare_pt2e(ep.module(), q)
        pm(x)
        cm = convert_pt2e(pm)
        return cm, torch.export.export(cm, (x,), dynamic_shapes=dynamic_shapes)
    from torchao.quantization import (
        Int8DynamicActivationInt8WeightConfig,
        Int8DynamicActivationIntxWeightConfig,
        quantize_,
    )
    from torchao.quantization.granularity import PerGroup

    if flow == "8da8w":
        cfg = Int8DynamicActivationInt8WeightConfig()
    elif flow == "8da4w_channel":  # one scale per output channel (PerAxis(0))
        from torchao.quantization.granularity import PerAxis

        cfg = Int8DynamicActivationIntxWeightConfig(weight_dtype=torch.int4, weight_granularity=PerAxis(0))
    elif flow == "8da8w_intx_channel":
        from torchao.quantization.granularity import PerAxis

        cfg = Int8DynamicActivationIntxWeightConfig(weight_dtype=torch.int8, weight_granularity=PerAxis(0))
    elif flow == "8da8w_intx_g32":
        cfg = Int8DynamicActivationIntxWeightConfig(weight_dtype=torch.int8, weight_granularity=PerGroup(32))
    else:  # torchao 0.15's spelling of Int8DynamicActivationInt4WeightConfig(group_size=N)
        cfg = Int8DynamicActivationIntxWeightConfig(weight_dtype=torch.int4, weight_granularity=PerGroup(int(flow.split("_g")[1])))
    from torchao.utils import unwrap_tensor_subclass

    with torch.no_grad():
        quantize_(model, cfg)
        # As ExecuTorch's llama export does: plain int8 parameters and affine q/dq operators in
        # the graph, instead of pickled tensor subclasses.
        model = unwrap_tensor_subclass(model)
    return model, torch.export.export(model, (x,), dynamic_shapes=dynamic_shapes)


def build(name: str) -> dict:
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.exir import to_edge, to_edge_transform_and_lower
    import executorch.kernels.quantized  # noqa: F401  the quantized_decomposed out variants

    factory, shape, flow, per_channel, dyn, description = ALL[name]
    seed = gz.seed_of(name)
    torch.manual_seed(seed)
    if factory == "zoo":
        spec = zoo_spec(shape)
        model = spec.build()
        x = spec.inputs(torch.Generator().manual_seed(seed + 1))[0]
    else:
        model = factory()
        x = torch.randn(*shape, generator=torch.Generator().manual_seed(seed + 1))
    model = model.train() if flow == "qat" else model.eval()
    dynamic_shapes = None
    if dyn:
        dynamic_shapes = ({d: torch.export.Dim(n, min=lo, max=hi) for d, (n, lo, hi) in dyn.items()},)
    qmodel, ep = quantize(model, x, flow, per_channel, dynamic_shapes)

    torchao = flow.startswith("8da")
    d = (OUT_AO if torchao else OUT) / name
    if name in EDGE:
        d = OUT_EDGE / name
    if name in REFUSED:
        d = OUT_REFUSED / name
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    with torch.no_grad():
        eager = gz.as_tuple(qmodel(x))
    torch.export.save(ep, d / "model.pt2")
    if name in REFUSED:
        return build_refused(d, ep, description, flow)
    gz.save_npys(d / "inputs", "input", [x])
    if name in EDGE:
        return build_edge(d, ep, x, eager, description, flow)
    gz.save_npys(d / "expected" / "eager", "output", eager)

    portable, portable_error = None, None
    try:
        portable = to_edge(ep).to_executorch()
        (d / "portable.pte").write_bytes(portable.buffer)
    except Exception as e:  # RuntimeError (missing out variants) or SpecViolationError (_int_mm)
        if not torchao:
            raise
        portable_error = f"{type(e).__name__}: {str(e).strip().splitlines()[0]}"
    edge = to_edge_transform_and_lower(ep, partitioner=[XnnpackPartitioner()])
    record = gz.delegation_record(edge)
    xnn = edge.to_executorch()
    (d / "xnnpack.pte").write_bytes(xnn.buffer)
    record["operators"] = {"xnnpack": gz.operator_names(xnn)}
    record["delegates"] = {"xnnpack": gz.delegate_ids(xnn)}
    if portable is not None:
        record["operators"]["portable"] = gz.operator_names(portable)
        record["delegates"]["portable"] = gz.delegate_ids(portable)
    else:
        record["portable_error"] = portable_error
    diffs = {}
    for variant in ("portable", "xnnpack") if portable is not None else ("xnnpack",):
        outs = gz.run_official(d / f"{variant}.pte", [x])
        gz.save_npys(d / "expected" / variant, "output", outs)
        diffs[variant] = max(gz.max_abs_diff(o, e) for o, e in zip(outs, eager))
        if variant == "xnnpack":
            again = gz.run_official(d / "xnnpack.pte", [x])
            record["xnnpack_rerun_max_abs_diff"] = max(gz.max_abs_diff(a, b) for a, b in zip(outs, again))
    record["max_abs_diff_to_eager"] = diffs
    record["model"] = {"description": description, "seed": seed, "dynamic": dynamic_shapes is not None}
    record["flow"] = flow
    (d / "delegation.json").write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")
    return record


def build_refused(d: Path, ep, description: str, flow: str) -> dict:
    """Record where and how the official toolchain refuses to lower ep."""
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.exir import to_edge_transform_and_lower

    try:
        to_edge_transform_and_lower(ep, partitioner=[XnnpackPartitioner()]).to_executorch()
    except Exception as e:
        msg = str(e).strip().splitlines()
        record = {"official_error": f"{type(e).__name__}: {msg[-1] if msg else ''}"[:300],
                  "stage": "to_edge_transform_and_lower", "description": description, "flow": flow}
        (d / "refusal.json").write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")
        return record
    raise SystemExit(f"{d.name}: the official toolchain lowers it now; move it out of REFUSED")


def build_edge(d: Path, ep, x, eager, description: str, flow: str) -> dict:
    """Lower ep officially, record the plan and what the official runtime makes of it."""
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.exir import to_edge_transform_and_lower

    lowered = to_edge_transform_and_lower(ep, partitioner=[XnnpackPartitioner()])
    record = gz.delegation_record(lowered)
    xnn = lowered.to_executorch()
    (d / "xnnpack.pte").write_bytes(xnn.buffer)
    record["operators"] = {"xnnpack": gz.operator_names(xnn)}
    record["delegates"] = {"xnnpack": gz.delegate_ids(xnn)}
    try:
        outs = gz.run_official(d / "xnnpack.pte", [x])
        gz.save_npys(d / "expected" / "xnnpack", "output", outs)
        record["official_runtime"] = "runs"
        record["max_abs_diff_to_eager"] = {"xnnpack": max(gz.max_abs_diff(o, e) for o, e in zip(outs, eager))}
    except Exception as e:
        record["official_runtime"] = f"refuses: {type(e).__name__}: {str(e).strip()}"[:300]
    record["model"] = {"description": description, "seed": gz.seed_of(d.name), "dynamic": False}
    record["flow"] = flow
    (d / "delegation.json").write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")
    return record


def check_etgo(etgo: str, names) -> dict:
    """Lower every model.pt2 with etgo, run the result in the official runtime, compare with the
    official xnnpack.pte's outputs (bit for bit)."""
    import executorch.kernels.quantized  # noqa: F401  the runtime's quantized_decomposed kernels

    verdicts = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            d = (OUT_AO if ALL[name][2].startswith("8da") else OUT) / name
            d = OUT_EDGE / name if name in EDGE else OUT_REFUSED / name if name in REFUSED else d
            out = Path(tmp) / f"{name}.pte"
            r = subprocess.run([etgo, "lower", str(d / "model.pt2"), "-o", str(out)], capture_output=True, text=True)
            if r.returncode != 0:
                verdicts[name] = {"lowered": False, "error": (r.stderr or r.stdout).strip().splitlines()[-1][:300]}
                continue
            if name in REFUSED:
                verdicts[name] = {"lowered": True, "error": "the official toolchain refuses it; etgo lowered it"}
                continue
            x = [torch.from_numpy(np.load(d / "inputs" / "input_0.npy"))]
            try:
                outs = gz.run_official(out, x)
            except Exception as e:  # the verdict is the point: record it
                verdicts[name] = {"lowered": True, "official_runs": False, "error": f"{type(e).__name__}: {e}"[:300]}
                if name in EDGE:  # the official file is refused the same way?
                    try:
                        gz.run_official(d / "xnnpack.pte", x)
                        verdicts[name]["official_file_runs"] = True
                    except Exception as e2:
                        verdicts[name]["official_file_runs"] = False
                        verdicts[name]["same_refusal"] = str(e2) == str(e)
                continue
            want = [np.load(p) for p in sorted((d / "expected" / "xnnpack").glob("output_*.npy"))]
            diff = max(gz.max_abs_diff(o, w) for o, w in zip(outs, want))
            same_bytes = out.read_bytes() == (d / "xnnpack.pte").read_bytes()
            verdicts[name] = {"lowered": True, "official_runs": True, "max_abs_diff_to_official": diff,
                              "identical_outputs": diff == 0.0, "identical_pte": same_bytes}
            # Without a partitioner: every q/dq is a quantized_decomposed kernel call (etgo has
            # no such kernels yet, hence --allow-missing-kernels); the official runtime runs it.
            if (d / "portable.pte").exists():
                pout = Path(tmp) / f"{name}_portable.pte"
                r = subprocess.run([etgo, "lower", str(d / "model.pt2"), "--partitioner", "none", "--allow-missing-kernels",
                                    "-o", str(pout)], capture_output=True, text=True)
                if r.returncode != 0:
                    verdicts[name]["portable"] = {"lowered": False, "error": (r.stderr or r.stdout).strip().splitlines()[-1][:300]}
                    continue
                try:
                    pouts = gz.run_official(pout, x)
                except Exception as e:
                    verdicts[name]["portable"] = {"lowered": True, "official_runs": False, "error": f"{type(e).__name__}: {e}"[:300]}
                    continue
                pwant = [np.load(p) for p in sorted((d / "expected" / "portable").glob("output_*.npy"))]
                pdiff = max(gz.max_abs_diff(o, w) for o, w in zip(pouts, pwant))
                verdicts[name]["portable"] = {"lowered": True, "official_runs": True, "max_abs_diff_to_official": pdiff,
                                              "identical_outputs": pdiff == 0.0}
    return verdicts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="", help="comma-separated model names")
    ap.add_argument("--out", default="", help="write the PT2E fixtures here instead of testdata/quantlower")
    ap.add_argument("--check-etgo", default="", help="an etgo binary: lower every model with it and run the result officially")
    args = ap.parse_args()
    global OUT
    if args.out:
        OUT = Path(args.out)
    only = [s for s in args.only.split(",") if s]
    if set(only) - set(ALL):
        sys.exit(f"unknown model(s): {sorted(set(only) - set(ALL))}")
    names = only or [n for n in ALL if n not in LARGE]
    if args.check_etgo:
        verdicts = check_etgo(args.check_etgo, names)
        path = OUT / "etgo_check.json"
        old = json.loads(path.read_text()) if path.exists() and only else {}
        old.update(verdicts)
        path.write_text(json.dumps(old, indent=2, sort_keys=True) + "\n")
        gz.write_manifest(OUT)  # the manifest holds etgo_check.json's hash too
        for n, v in verdicts.items():
            print(f"{n:22} {v}")
        return
    OUT.mkdir(parents=True, exist_ok=True)
    if not only:
        for root in (OUT, OUT_AO, OUT_EDGE, OUT_REFUSED):
            for p in root.iterdir() if root.exists() else ():
                if p.is_dir() and p.name not in ALL:
                    shutil.rmtree(p)
    for name in names:
        r = build(name)
        if name in REFUSED:
            print(f"{name:22} official refusal: {r['official_error']}", flush=True)
            continue
        if name in EDGE:
            print(f"{name:22} {r['num_delegated_subgraphs']} region(s); official runtime {r['official_runtime']}", flush=True)
            continue
        nd = ", ".join(f"{k}×{v}" for k, v in r["non_delegated_targets"].items()) or "-"
        print(f"{name:22} {r['num_delegated_subgraphs']} region(s), {r['num_delegated_nodes']} delegated; "
              f"max|Δ eager| portable {r['max_abs_diff_to_eager'].get('portable', float('nan')):.2e} xnnpack "
              f"{r['max_abs_diff_to_eager']['xnnpack']:.2e}; outside: {nd}", flush=True)
    gz.write_manifest(OUT)
    if OUT_AO.exists():
        gz.write_manifest(OUT_AO)


if __name__ == "__main__":
    main()
