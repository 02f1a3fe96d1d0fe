"""The etgo model zoo: small models that together exercise what etgo must do.

Every model has fixed seeded weights and inputs, so generate_zoo.py rebuilds the same fixtures.
Each entry is a Spec: how to build the module, its inputs, and (optionally) dynamic shapes. The
`full` entries are the full-size torchvision models, generated only on request (--full) into an
ignored folder for benchmarks; the committed zoo holds reduced variants of the same architectures.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Spec:
    name: str
    description: str
    build: Callable[[], nn.Module]
    # Inputs the fixtures are run on (and, unless export_inputs is set, exported with).
    inputs: Callable[[torch.Generator], tuple]
    export_inputs: Optional[Callable[[torch.Generator], tuple]] = None
    dynamic_shapes: Optional[Callable[[], object]] = None
    full: bool = False  # full-size benchmark model: not committed
    tags: list = field(default_factory=list)


def randn(g: torch.Generator, *shape) -> torch.Tensor:
    return torch.randn(*shape, generator=g)


def randomize_batchnorm(m: nn.Module) -> nn.Module:
    """Give every BatchNorm non-trivial running statistics and affine parameters, so that folding
    or mis-applying them shows in the outputs. Uses the global RNG, seeded by the caller."""
    for mod in m.modules():
        if isinstance(mod, (nn.BatchNorm1d, nn.BatchNorm2d)):
            with torch.no_grad():
                mod.running_mean.copy_(torch.randn_like(mod.running_mean) * 0.1)
                mod.running_var.copy_(torch.rand_like(mod.running_var) * 0.5 + 0.75)
                mod.weight.copy_(torch.rand_like(mod.weight) * 0.5 + 0.75)
                mod.bias.copy_(torch.randn_like(mod.bias) * 0.1)
    return m


class Add(nn.Module):
    def forward(self, x, y):
        return x + y


class ConvReLU(nn.Module):
    """The seed's block: Conv2d(3, 8, 3, padding=1) + ReLU."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)

    def forward(self, x):
        return torch.relu(self.conv(x))


class MLP(nn.Module):
    def __init__(self, i=32, h=64, o=10):
        super().__init__()
        self.fc1 = nn.Linear(i, h)
        self.fc2 = nn.Linear(h, o)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


class LinearNoBias(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32, 16, bias=False)

    def forward(self, x):
        return self.fc(x)


class ResidualCNN(nn.Module):
    """Conv-BN-ReLU stem, MaxPool, a residual block with a skip add, AvgPool, mean over H,W."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU())
        self.pool = nn.MaxPool2d(2)
        self.conv1 = nn.Conv2d(16, 16, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.conv2 = nn.Conv2d(16, 16, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(16)
        self.avg = nn.AvgPool2d(2)

    def forward(self, x):
        x = self.pool(self.stem(x))
        y = torch.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        x = torch.relu(x + y)
        x = self.avg(x)
        return x.mean(dim=(2, 3))


class InvertedResidual(nn.Module):
    """MobileNetV2's block: 1x1 expand, depthwise 3x3, 1x1 project, ReLU6, residual."""

    def __init__(self, c=16, expand=4):
        super().__init__()
        h = c * expand
        self.expand = nn.Sequential(nn.Conv2d(c, h, 1, bias=False), nn.BatchNorm2d(h), nn.ReLU6())
        self.dw = nn.Sequential(nn.Conv2d(h, h, 3, padding=1, groups=h, bias=False), nn.BatchNorm2d(h), nn.ReLU6())
        self.project = nn.Sequential(nn.Conv2d(h, c, 1, bias=False), nn.BatchNorm2d(c))

    def forward(self, x):
        return x + self.project(self.dw(self.expand(x)))


class EncoderLayer(nn.Module):
    """A pre-norm transformer encoder layer: multi-head attention through
    scaled_dot_product_attention, LayerNorm, a GELU MLP, and an explicit softmax head."""

    def __init__(self, d=64, heads=4, ff=128):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.ff1 = nn.Linear(d, ff)
        self.ff2 = nn.Linear(ff, d)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).chunk(3, dim=-1)
        q, k, v = (z.reshape(b, t, self.heads, d // self.heads).transpose(1, 2) for z in (q, k, v))
        a = F.scaled_dot_product_attention(q, k, v)
        x = x + self.proj(a.transpose(1, 2).reshape(b, t, d))
        x = x + self.ff2(F.gelu(self.ff1(self.ln2(x))))
        return torch.softmax(x, dim=-1)


class SplitDelegation(nn.Module):
    """Supported ops around ops XNNPACK declines (cumsum, a hand-written erf GELU), so that
    delegation is split into several regions."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(32, 32)
        self.fc2 = nn.Linear(32, 32)
        self.fc3 = nn.Linear(32, 8)

    def forward(self, x):
        x = torch.relu(self.fc1(x))
        x = torch.cumsum(x, dim=-1)
        x = self.fc2(x)
        x = x * 0.5 * (1.0 + torch.erf(x / math.sqrt(2.0)))
        return self.fc3(x)


class ShapeOps(nn.Module):
    """Two outputs through permute, cat, slice, unsqueeze, view and a no-op expand."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x, y):
        a = self.fc(x).permute(0, 2, 1)            # 2x8x6
        b = torch.cat([a, y], dim=2)               # 2x8x10
        c = b[:, 2:6, 1:9]                         # 2x4x8
        d = c.unsqueeze(1)                         # 2x1x4x8
        e = d.expand(2, 1, 4, 8)                   # no-op expand
        f = torch.relu(e.reshape(2, 32))
        return f, b.view(2, 80) * 2.0


class NoopExpand(nn.Module):
    """A no-op expand between supported ops: XNNPACK declines expand_copy, so without
    RemoveNoopExpandCopyPass the delegation splits in two; with it, one region."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 16)
        self.fc2 = nn.Linear(16, 16)

    def forward(self, x):
        y = torch.relu(self.fc1(x))
        y = y.expand(4, 16)
        return self.fc2(y) + x


class IntBool(nn.Module):
    """Integer and boolean work: argmax, comparisons, where, casts."""

    def forward(self, x, t):
        idx = torch.argmax(x, dim=1)                       # int64
        tf = t.to(torch.float32)
        mask = x > tf                                      # bool
        both = mask & (t > 0)                              # bool
        sel = torch.where(mask, x, tf * 0.5)               # float
        count = both.to(torch.uint8).sum(dim=1, dtype=torch.int32)  # int32
        return idx, sel, both, count


class MaxDim(nn.Module):
    """torch.max over a dim twice: values only (XNNPACK takes it as a max pooling) and values with
    indices (XNNPACK declines it: its max pooling has no indices)."""

    def forward(self, x):
        values = torch.max(x, dim=2, keepdim=True).values
        v, i = torch.max(x, dim=3, keepdim=True)
        return values, v, i


class StandaloneBatchNorm(nn.Module):
    """Batch norms with no convolution or linear before them, which XNNPACK cannot fold: a
    BatchNorm2d followed by ReLU, a BatchNorm1d over [N, C] and one over [N, C, L]."""

    def __init__(self):
        super().__init__()
        self.bn2d = nn.BatchNorm2d(6)
        self.bn_nc = nn.BatchNorm1d(5)
        self.bn_ncl = nn.BatchNorm1d(3)

    def forward(self, x, y, z):
        return torch.relu(self.bn2d(x)), self.bn_nc(y), self.bn_ncl(z)


class DynamicBatch(MLP):
    """The MLP exported with a bounded dynamic batch dimension."""


def _mobilenet_v2(width, classes):
    from torchvision.models import mobilenet_v2

    return randomize_batchnorm(mobilenet_v2(weights=None, width_mult=width, num_classes=classes))


def _mobilenet_v3_small(width, classes):
    from torchvision.models import mobilenet_v3_small

    return randomize_batchnorm(mobilenet_v3_small(weights=None, width_mult=width, num_classes=classes))


def _resnet18(width_div, classes):
    """torchvision's ResNet-18 (BasicBlock, [2, 2, 2, 2]); width_div > 1 divides every stage's
    channel count, keeping the architecture."""
    from torchvision.models import resnet18
    from torchvision.models.resnet import BasicBlock, ResNet

    if width_div == 1:
        return randomize_batchnorm(resnet18(weights=None, num_classes=classes))

    class NarrowResNet(ResNet):
        def __init__(self):
            nn.Module.__init__(self)
            w = [64 // width_div, 128 // width_div, 256 // width_div, 512 // width_div]
            self._norm_layer = nn.BatchNorm2d
            self.inplanes = w[0]
            self.dilation = 1
            self.groups = 1
            self.base_width = 64
            self.conv1 = nn.Conv2d(3, w[0], kernel_size=7, stride=2, padding=3, bias=False)
            self.bn1 = nn.BatchNorm2d(w[0])
            self.relu = nn.ReLU(inplace=True)
            self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
            self.layer1 = self._make_layer(BasicBlock, w[0], 2)
            self.layer2 = self._make_layer(BasicBlock, w[1], 2, stride=2)
            self.layer3 = self._make_layer(BasicBlock, w[2], 2, stride=2)
            self.layer4 = self._make_layer(BasicBlock, w[3], 2, stride=2)
            self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
            self.fc = nn.Linear(w[3], classes)

    return randomize_batchnorm(NarrowResNet())


class MaskedAttention(nn.Module):
    """scaled_dot_product_attention three ways, with more keys than queries: causal, a bool mask
    (one row all False, so _safe_softmax's zero rows are exercised) and an additive float mask."""

    def forward(self, q, k, v, bool_mask, float_mask):
        return (F.scaled_dot_product_attention(q, k, v, is_causal=True),
                F.scaled_dot_product_attention(q, k, v, attn_mask=bool_mask),
                F.scaled_dot_product_attention(q, k, v, attn_mask=float_mask))


def _masked_attention_inputs(g):
    bool_mask = torch.rand(6, 9, generator=g) > 0.3
    bool_mask[2] = False
    return (randn(g, 1, 2, 6, 8), randn(g, 1, 2, 9, 8), randn(g, 1, 2, 9, 8), bool_mask, randn(g, 6, 9))


def _dynamic_batch_shapes():
    from torch.export import Dim

    return ({0: Dim("batch", min=1, max=8)},)


ZOO = [
    Spec("add", "x + y, two inputs", Add, lambda g: (randn(g, 1, 3, 8, 8), randn(g, 1, 3, 8, 8))),
    Spec("conv_relu", "the seed's Conv2d(3, 8, 3, padding=1) + ReLU", ConvReLU, lambda g: (randn(g, 1, 3, 32, 32),)),
    Spec("mlp", "linear + relu + linear, with bias", MLP, lambda g: (randn(g, 4, 32),)),
    Spec("linear_nobias", "one linear without bias", LinearNoBias, lambda g: (randn(g, 4, 32),)),
    Spec("residual_cnn", "conv/BN/ReLU, MaxPool, residual add, AvgPool, mean over H,W",
         lambda: randomize_batchnorm(ResidualCNN()), lambda g: (randn(g, 1, 3, 32, 32),)),
    Spec("inverted_residual", "MobileNetV2 inverted-residual block (1x1, depthwise 3x3, ReLU6)",
         lambda: randomize_batchnorm(InvertedResidual()), lambda g: (randn(g, 1, 16, 16, 16),)),
    Spec("transformer_encoder", "tiny encoder layer: SDPA attention, LayerNorm, GELU, softmax",
         EncoderLayer, lambda g: (randn(g, 1, 16, 64),)),
    Spec("masked_attention", "SDPA causal, with a bool mask (one row fully masked) and with a float mask",
         MaskedAttention, _masked_attention_inputs),
    Spec("split_delegation", "linear/relu around cumsum and an erf GELU, which XNNPACK declines",
         SplitDelegation, lambda g: (randn(g, 4, 32),)),
    Spec("shape_ops", "two outputs; permute, cat, slice, unsqueeze, view, no-op expand",
         ShapeOps, lambda g: (randn(g, 2, 6, 8), randn(g, 2, 8, 4))),
    Spec("noop_expand", "a no-op expand between linears: the transform passes join two regions",
         NoopExpand, lambda g: (randn(g, 4, 16),)),
    Spec("int_bool", "argmax, comparisons, where, int32/uint8/bool work",
         IntBool, lambda g: (randn(g, 4, 10), torch.randint(-2, 3, (4, 10), generator=g, dtype=torch.int32))),
    Spec("dynamic_batch", "the MLP with a dynamic batch dimension in [1, 8], run at batch 3",
         DynamicBatch, lambda g: (randn(g, 3, 32),), export_inputs=lambda g: (randn(g, 5, 32),),
         dynamic_shapes=_dynamic_batch_shapes),
    Spec("max_dim", "torch.max over a dim: values only (delegated), values and indices (not)",
         MaxDim, lambda g: (randn(g, 1, 3, 4, 5),)),
    Spec("batchnorm_standalone", "batch norms with nothing to fold into (2d + ReLU, 1d over NC and NCL)",
         lambda: randomize_batchnorm(StandaloneBatchNorm()), lambda g: (randn(g, 2, 6, 5, 5), randn(g, 4, 5), randn(g, 2, 3, 7))),
    Spec("mobilenet_v2_small", "torchvision mobilenet_v2, width 0.25, 10 classes, 64x64",
         lambda: _mobilenet_v2(0.25, 10), lambda g: (randn(g, 1, 3, 64, 64),)),
    Spec("mobilenet_v3_small_small", "torchvision mobilenet_v3_small, width 0.25, 10 classes, 64x64",
         lambda: _mobilenet_v3_small(0.25, 10), lambda g: (randn(g, 1, 3, 64, 64),)),
    Spec("resnet18_small", "torchvision ResNet-18 architecture at 1/8 width, 10 classes, 64x64",
         lambda: _resnet18(8, 10), lambda g: (randn(g, 1, 3, 64, 64),)),
    # Full-size benchmark models: generated with --full into an ignored folder.
    Spec("mobilenet_v2", "torchvision mobilenet_v2, full width, 224x224",
         lambda: _mobilenet_v2(1.0, 1000), lambda g: (randn(g, 1, 3, 224, 224),), full=True),
    Spec("mobilenet_v3_small", "torchvision mobilenet_v3_small, full width, 224x224",
         lambda: _mobilenet_v3_small(1.0, 1000), lambda g: (randn(g, 1, 3, 224, 224),), full=True),
    Spec("resnet18", "torchvision resnet18, 224x224",
         lambda: _resnet18(1, 1000), lambda g: (randn(g, 1, 3, 224, 224),), full=True),
]
