"""The public model corpus: every torchvision model, ExecuTorch's example models and Hugging Face
transformers models, built from their constructors or configs with seeded random weights.

generate_corpus.py drives the official toolchain over this list. Each Spec builds a model at one of
two sizes: reduced (the committed fixtures: few channels and layers, 10 classes, 32-80 px inputs,
so that each model's files stay around a few hundred KB) or full (the published configuration,
generated on request into an ignored folder). Nothing is downloaded: where an example model of
ExecuTorch needs pretrained weights or a package the wheel does not ship (timm), the equivalent
architecture is built from torchvision, torchaudio, torchsr or transformers, as each description
says.

Reductions keep each architecture's structure: the reduced model is the torchvision (or other)
constructor's model with every channel count divided (`remap_channels`, which rebuilds each
convolution, linear and normalisation layer with the new counts, keeping groups and depthwise
convolutions) and each stage's repeated blocks truncated (`truncate`), or the constructor called
with small arguments where it takes them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial
from typing import Callable

import torch
import torch.nn as nn
from torch.utils._pytree import tree_leaves

NUM_CLASSES = 10


@dataclass
class Spec:
    name: str
    source: str  # a key of SOURCES
    description: str
    # build(full) returns the module (any mode; the generator puts it in eval mode).
    build: Callable[[bool], nn.Module]
    # inputs(generator, full) returns the positional inputs, all tensors.
    inputs: Callable[[torch.Generator, bool], tuple]


SOURCES = {
    "torchvision.classification": "torchvision.models.list_models(torchvision.models)",
    "torchvision.segmentation": "torchvision.models.list_models(torchvision.models.segmentation)",
    "torchvision.optical_flow": "torchvision.models.list_models(torchvision.models.optical_flow)",
    "torchvision.video": "torchvision.models.list_models(torchvision.models.video)",
    "torchvision.detection": "torchvision.models.list_models(torchvision.models.detection)",
    "executorch.examples": "executorch.examples.models (the wheel's example models)",
    "transformers": "Hugging Face transformers, from small configs",
}


class Flat(nn.Module):
    """Wraps a model so that its outputs are a flat tuple of tensors (torch.export flattens
    nested outputs the same way; this makes eager's order explicit). `call` adapts the
    positional tensors to the model's signature."""

    def __init__(self, model: nn.Module, call: Callable | None = None):
        super().__init__()
        self.model = model
        self.call = call

    def forward(self, *xs):
        out = self.call(self.model, *xs) if self.call else self.model(*xs)
        return tuple(t for t in tree_leaves(out) if isinstance(t, torch.Tensor))


def randn(g: torch.Generator, *shape) -> torch.Tensor:
    return torch.randn(*shape, generator=g)


def image(size, channels=3, batch=1):
    return lambda g, full: (randn(g, batch, channels, *(size(full) if callable(size) else size)),)


def img(reduced: int, full: int = 224):
    return lambda g, f: (randn(g, 1, 3, full, full) if f else randn(g, 1, 3, reduced, reduced),)


def tokens(vocab: int, length: int):
    return lambda g, full: (torch.randint(0, vocab, (1, length), generator=g),)


def randomize_norms(m: nn.Module) -> nn.Module:
    """Give every batch norm non-trivial statistics and affine parameters, so that folding or
    mis-applying them shows in the outputs. Uses the global RNG, seeded by the caller."""
    for mod in m.modules():
        if isinstance(mod, nn.modules.batchnorm._BatchNorm) and mod.running_mean is not None:
            with torch.no_grad():
                mod.running_mean.copy_(torch.randn_like(mod.running_mean) * 0.1)
                mod.running_var.copy_(torch.rand_like(mod.running_var) * 0.5 + 0.75)
                if mod.affine:
                    mod.weight.copy_(torch.rand_like(mod.weight) * 0.5 + 0.75)
                    mod.bias.copy_(torch.randn_like(mod.bias) * 0.1)
    return m


# ---------------------------------------------------------------------------------------------
# Reductions


def divide(div: int, keep=(3, NUM_CLASSES), special: dict | None = None):
    """A channel map: every count divided by div (at least 1), except the image channels and
    the class count, and the counts in special mapped as given."""
    special = special or {}

    def f(c: int) -> int:
        if c in special:
            return special[c]
        if c in keep:
            return c
        return max(1, c // div)

    return f


def remap_channels(model: nn.Module, f: Callable[[int], int], linear: Callable[[int], int] | None = None) -> nn.Module:
    """Rebuild every convolution, linear and normalisation layer with its channel counts mapped
    by f (linear features by `linear`, default f), keeping kernel, stride, padding, dilation and
    bias; a depthwise convolution stays depthwise and a grouped one keeps its groups where the
    new counts allow (else the largest common divisor). New layers have fresh default weights."""
    linear = linear or f
    for parent in list(model.modules()):
        for name, c in list(parent.named_children()):
            new = None
            if isinstance(c, (nn.Conv1d, nn.Conv2d, nn.Conv3d)):
                cin, cout = f(c.in_channels), f(c.out_channels)
                if c.groups > 1 and c.groups == c.in_channels:
                    g = cin
                    if cout % g:
                        cout = g * max(1, cout // g)
                elif c.groups > 1:
                    g = c.groups if cin % c.groups == 0 and cout % c.groups == 0 else math.gcd(math.gcd(cin, cout), c.groups)
                else:
                    g = 1
                # The torch class itself: subclasses (torchvision's Conv3DSimple, …) take other arguments.
                cls = next(b for b in type(c).__mro__ if b in (nn.Conv1d, nn.Conv2d, nn.Conv3d))
                new = cls(cin, cout, c.kernel_size, c.stride, c.padding, c.dilation, g, c.bias is not None, c.padding_mode)
            elif isinstance(c, nn.Linear):
                new = nn.Linear(linear(c.in_features), linear(c.out_features), c.bias is not None)
            elif isinstance(c, nn.modules.batchnorm._BatchNorm):
                cls = next(b for b in type(c).__mro__ if b in (nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d))
                new = cls(f(c.num_features), c.eps, c.momentum, c.affine, c.track_running_stats)
            elif isinstance(c, nn.GroupNorm):
                # At least two channels per group where possible: a group of one channel on a
                # 1x1 map has nothing to normalise (torch refuses it).
                n = f(c.num_channels)
                new = nn.GroupNorm(math.gcd(c.num_groups, max(1, n // 2)), n, c.eps, c.affine)
            if new is not None:
                setattr(parent, name, new)
    return model


def truncate(seq: nn.Sequential, n: int) -> nn.Sequential:
    """Keep the first n blocks of a stage (the first changes shape; the rest repeat it)."""
    return nn.Sequential(*list(seq.children())[:max(1, n)])


def half(n: int) -> int:
    return max(1, math.ceil(n / 2))


def third(n: int) -> int:
    return max(1, math.ceil(n / 3))


def tv(name: str, **kw) -> nn.Module:
    import torchvision

    return torchvision.models.get_model(name, weights=None, **kw)


# ---------------------------------------------------------------------------------------------
# torchvision classification


def _alexnet(full):
    if full:
        return tv("alexnet")
    return remap_channels(tv("alexnet", num_classes=NUM_CLASSES), divide(16, special={4096: 32}))


def _vgg(name):
    def build(full):
        if full:
            return randomize_norms(tv(name))
        m = remap_channels(tv(name, num_classes=NUM_CLASSES, init_weights=False), divide(64, special={4096: 32}))
        return randomize_norms(m)
    return build


def _squeezenet(name):
    return lambda full: tv(name) if full else remap_channels(tv(name, num_classes=NUM_CLASSES), divide(16))


def _googlenet(full):
    if full:
        return randomize_norms(tv("googlenet", aux_logits=False, init_weights=True))
    m = tv("googlenet", num_classes=NUM_CLASSES, aux_logits=False, init_weights=False)
    return randomize_norms(remap_channels(m, divide(16)))


def _inception_v3(full):
    if full:
        return randomize_norms(tv("inception_v3", aux_logits=False, init_weights=True))
    m = tv("inception_v3", num_classes=NUM_CLASSES, aux_logits=False, init_weights=False)
    return randomize_norms(remap_channels(m, divide(32)))


def _resnet(name):
    # Basic-block variants: channels /16; bottleneck ones (4x wider outputs) /32; the deep
    # variants (34 and up, but 50) keep a third of their blocks, the others half.
    depth = third if any(n in name for n in ("34", "101", "152")) else half
    div = 16 if name in ("resnet18", "resnet34") else 64 if name.startswith("wide") else 32

    def build(full):
        if full:
            return randomize_norms(tv(name))
        m = tv(name, num_classes=NUM_CLASSES)
        for s in ("layer1", "layer2", "layer3", "layer4"):
            setattr(m, s, truncate(getattr(m, s), depth(len(getattr(m, s)))))
        return randomize_norms(remap_channels(m, divide(div)))
    return build


_DENSENET = {  # growth rate, blocks, initial features (torchvision's densenet configurations)
    "densenet121": (32, (6, 12, 24, 16), 64),
    "densenet161": (48, (6, 12, 36, 24), 96),
    "densenet169": (32, (6, 12, 32, 32), 64),
    "densenet201": (32, (6, 12, 48, 32), 64),
}


def _densenet(name):
    def build(full):
        if full:
            return randomize_norms(tv(name))
        from torchvision.models.densenet import DenseNet

        growth, blocks, init = _DENSENET[name]
        return randomize_norms(DenseNet(growth // 8, tuple(max(1, b // 6) for b in blocks), init // 8, 4, 0, NUM_CLASSES))
    return build


_EFFICIENTNET = {"b0": (1.0, 1.0), "b1": (1.0, 1.1), "b2": (1.1, 1.2), "b3": (1.2, 1.4),
                 "b4": (1.4, 1.8), "b5": (1.6, 2.2), "b6": (1.8, 2.6), "b7": (2.0, 3.1)}


def _efficientnet(name):
    def build(full):
        if full:
            return randomize_norms(tv(name))
        from torchvision.models import efficientnet as E

        if name.startswith("efficientnet_b"):
            w, d = _EFFICIENTNET[name.removeprefix("efficientnet_")]
            setting, last = E._efficientnet_conf(name, width_mult=w / 8, depth_mult=d / (4 if d < 1.5 else 8))
            norm = None
        else:
            base, _ = E._efficientnet_conf(name)
            setting = []
            for c in base:
                if isinstance(c, E.MBConvConfig):
                    setting.append(E.MBConvConfig(c.expand_ratio, c.kernel, c.stride, c.input_channels,
                                                  c.out_channels, c.num_layers, width_mult=0.125, depth_mult=0.125))
                else:
                    setting.append(E.FusedMBConvConfig(c.expand_ratio, c.kernel, c.stride,
                                                       E._make_divisible(c.input_channels / 8, 8),
                                                       E._make_divisible(c.out_channels / 8, 8),
                                                       math.ceil(c.num_layers / 8)))
            last = 160
            norm = partial(nn.BatchNorm2d, eps=1e-03)
        m = E.EfficientNet(setting, 0.2, num_classes=NUM_CLASSES, norm_layer=norm, last_channel=last)
        div = 2 if name in ("efficientnet_b0", "efficientnet_b1", "efficientnet_b2", "efficientnet_v2_s") else 4
        return randomize_norms(remap_channels(m, divide(div)))
    return build


def _maxvit(full):
    if full:
        return randomize_norms(tv("maxvit_t"))
    from torchvision.models.maxvit import MaxVit

    return randomize_norms(MaxVit(input_size=(64, 64), stem_channels=8, partition_size=2, block_channels=[4, 8, 16],
                                  block_layers=[1, 1, 1], head_dim=4, stochastic_depth_prob=0.0, num_classes=NUM_CLASSES))


def _mnasnet(name):
    def build(full):
        if full:
            return randomize_norms(tv(name))
        return randomize_norms(remap_channels(tv(name, num_classes=NUM_CLASSES), divide(16, special={1280: 32})))
    return build


def _mobilenet_v2(full):
    if full:
        return randomize_norms(tv("mobilenet_v2"))
    m = tv("mobilenet_v2", num_classes=NUM_CLASSES, width_mult=0.25)
    return randomize_norms(remap_channels(m, divide(4, special={1280: 32})))


def _mobilenet_v3(name):
    def build(full):
        if full:
            return randomize_norms(tv(name))
        m = tv(name, num_classes=NUM_CLASSES, width_mult=0.25, reduced_tail=True)
        return randomize_norms(remap_channels(m, divide(4 if name == "mobilenet_v3_large" else 2)))
    return build


_REGNET = {  # depth, w_0, w_a, w_m, group width, squeeze-excitation (torchvision's configurations)
    "regnet_y_400mf": (16, 48, 27.89, 2.09, 8, 0.25),
    "regnet_y_800mf": (14, 56, 38.84, 2.4, 16, 0.25),
    "regnet_y_1_6gf": (27, 48, 20.71, 2.65, 24, 0.25),
    "regnet_y_3_2gf": (21, 80, 42.63, 2.66, 24, 0.25),
    "regnet_y_8gf": (17, 192, 76.82, 2.19, 56, 0.25),
    "regnet_y_16gf": (18, 200, 106.23, 2.48, 112, 0.25),
    "regnet_y_32gf": (20, 232, 115.89, 2.53, 232, 0.25),
    "regnet_y_128gf": (27, 456, 160.83, 2.52, 264, 0.25),
    "regnet_x_400mf": (22, 24, 24.48, 2.54, 16, None),
    "regnet_x_800mf": (16, 56, 35.73, 2.28, 16, None),
    "regnet_x_1_6gf": (18, 80, 34.01, 2.25, 24, None),
    "regnet_x_3_2gf": (25, 88, 26.31, 2.25, 48, None),
    "regnet_x_8gf": (23, 80, 49.56, 2.88, 120, None),
    "regnet_x_16gf": (22, 216, 55.59, 2.1, 128, None),
    "regnet_x_32gf": (23, 320, 69.86, 2.0, 168, None),
}


def _regnet(name):
    def build(full):
        if full:
            return randomize_norms(tv(name))
        from torchvision.models.regnet import BlockParams, RegNet

        depth, w0, wa, wm, gw, se = _REGNET[name]
        # A third of the depth; the first width 8 (RegNet's quantum), the slope and group width
        # scaled with it.
        params = BlockParams.from_init_params(depth=third(depth), w_0=8, w_a=wa * 8 / w0, w_m=wm,
                                              group_width=max(1, gw * 8 // w0), se_ratio=se)
        return randomize_norms(RegNet(params, num_classes=NUM_CLASSES, stem_width=8,
                                      norm_layer=partial(nn.BatchNorm2d, eps=1e-05, momentum=0.1)))
    return build


_SHUFFLENET = {"shufflenet_v2_x0_5": [24, 48, 96, 192, 1024], "shufflenet_v2_x1_0": [24, 116, 232, 464, 1024],
               "shufflenet_v2_x1_5": [24, 176, 352, 704, 1024], "shufflenet_v2_x2_0": [24, 244, 488, 976, 2048]}


def _shufflenet(name):
    def build(full):
        if full:
            return randomize_norms(tv(name))
        from torchvision.models.shufflenetv2 import ShuffleNetV2

        ch = _SHUFFLENET[name]
        div = 16 if name in ("shufflenet_v2_x1_5", "shufflenet_v2_x2_0") else 8
        even = lambda c: max(2, c // div // 2 * 2)  # noqa: E731  (branches split channels in two)
        return randomize_norms(ShuffleNetV2([2, 4, 2], [8] + [even(c) for c in ch[1:4]] + [ch[4] // 16], NUM_CLASSES))
    return build


_SWIN = {  # reduced: embed dim, depths (three stages), heads, v2
    "swin_t": (8, [1, 1, 1], [1, 2, 4], False),
    "swin_s": (8, [1, 1, 2], [1, 2, 4], False),
    "swin_b": (8, [1, 1, 1], [2, 4, 8], False),
    "swin_v2_t": (8, [1, 1, 1], [1, 2, 4], True),
    "swin_v2_s": (8, [1, 1, 2], [1, 2, 4], True),
    "swin_v2_b": (8, [1, 1, 1], [2, 4, 8], True),
}


def _swin(name):
    def build(full):
        if full:
            return tv(name)
        from torchvision.models import swin_transformer as S

        dim, depths, heads, v2 = _SWIN[name]
        kw = dict(block=S.SwinTransformerBlockV2, downsample_layer=S.PatchMergingV2) if v2 else {}
        return S.SwinTransformer(patch_size=[2, 2], embed_dim=dim, depths=depths, num_heads=heads, window_size=[4, 4],
                                 mlp_ratio=2.0, stochastic_depth_prob=0.0, num_classes=NUM_CLASSES, **kw)
    return build


_VIT = {  # reduced: image, patch, layers, heads, hidden, mlp; full input size
    "vit_b_16": (32, 8, 2, 2, 32, 64, 224),
    "vit_b_32": (32, 16, 2, 2, 16, 32, 224),
    "vit_l_16": (32, 8, 3, 4, 32, 64, 224),
    "vit_l_32": (32, 16, 3, 4, 16, 32, 224),
    "vit_h_14": (28, 7, 4, 4, 32, 64, 224),
}


def _vit(name):
    def build(full):
        if full:
            return tv(name)
        from torchvision.models.vision_transformer import VisionTransformer

        size, patch, layers, heads, hidden, mlp, _ = _VIT[name]
        return VisionTransformer(size, patch, layers, heads, hidden, mlp, num_classes=NUM_CLASSES)
    return build


_CONVNEXT = {"convnext_tiny": ([4, 8, 16, 32], [1, 1, 3, 1]), "convnext_small": ([4, 8, 16, 32], [1, 1, 6, 1]),
             "convnext_base": ([6, 12, 18, 28], [1, 1, 3, 1]), "convnext_large": ([8, 12, 24, 32], [1, 1, 3, 1])}


def _convnext(name):
    def build(full):
        if full:
            return tv(name)
        from torchvision.models.convnext import CNBlockConfig, ConvNeXt

        w, d = _CONVNEXT[name]
        cfg = [CNBlockConfig(w[i], w[i + 1] if i < 3 else None, d[i]) for i in range(4)]
        return ConvNeXt(cfg, stochastic_depth_prob=0.0, num_classes=NUM_CLASSES)
    return build


def _classification_specs():
    import torchvision

    specs = []
    for name in torchvision.models.list_models(module=torchvision.models):
        size, full_size = 64, 224
        if name == "alexnet":
            build, what = _alexnet, "channels /16, classifier 32 wide"
        elif name.startswith("vgg"):
            build, what, size = _vgg(name), "channels /64, classifier 32 wide", 32
        elif name.startswith("squeezenet"):
            build, what, size = _squeezenet(name), "channels /16", 32
        elif name == "googlenet":
            build, what, size = _googlenet, "channels /16, no auxiliary heads", 32
        elif name == "inception_v3":
            build, what, size, full_size = _inception_v3, "channels /32, no auxiliary head", 80, 299
        elif name.startswith(("resnet", "resnext", "wide_resnet")):
            build, what, size = _resnet(name), "channels /16 (bottleneck variants /32, wide /64), half the blocks per stage (a third for 34/101/152)", 32
        elif name.startswith("densenet"):
            build, what, size = _densenet(name), "growth and initial features /8, a sixth of the layers", 32
        elif name.startswith("efficientnet"):
            build, what, size = _efficientnet(name), "width multiplier /16 (/32 from b3 and v2_m), depth /4 (/8 from b3, v2)", 32
        elif name == "maxvit_t":
            build, what = _maxvit, "three stages of 4-16 channels, partition 2, one layer each"
        elif name.startswith("mnasnet"):
            build, what, size = _mnasnet(name), "channels /16, last conv 32", 32
        elif name == "mobilenet_v2":
            build, what, size = _mobilenet_v2, "width 1/16, last conv 32", 32
        elif name.startswith("mobilenet_v3"):
            build, what, size = _mobilenet_v3(name), "width 0.125 (large: 1/16), reduced tail", 32
        elif name.startswith("regnet"):
            build, what, size = _regnet(name), "first width 8, a third of the depth", 32
        elif name.startswith("shufflenet"):
            build, what, size = _shufflenet(name), "channels /8 (x1.5, x2: /16; last conv /16), repeats [2,4,2]", 32
        elif name.startswith("swin"):
            build, what, size = _swin(name), "embed 8, three stages, patch 2, window 4, MLP ratio 2, fewer blocks (b: more heads)", 32
        elif name.startswith("vit"):
            build, what = _vit(name), "hidden 32 (patch-32 variants 16), 2-4 layers, patch / image halved"
            size = _VIT[name][0]
        elif name.startswith("convnext"):
            build, what, size = _convnext(name), "channels /24 (about), fewer blocks", 32
        else:
            raise ValueError(f"corpus: no reduction for torchvision model {name}")
        specs.append(Spec(name, "torchvision.classification", f"torchvision {name}; reduced: {what}, {NUM_CLASSES} classes, {size}x{size}",
                          build, img(size, full_size)))
    return specs


# ---------------------------------------------------------------------------------------------
# torchvision segmentation, optical flow, video, detection


def _segmentation(name):
    def build(full):
        if full:
            return Flat(tv(name, weights_backbone=None))
        m = tv(name, weights_backbone=None, num_classes=NUM_CLASSES, aux_loss=False)
        if "resnet" in name:
            for s in ("layer1", "layer2", "layer3", "layer4"):
                setattr(m.backbone, s, truncate(getattr(m.backbone, s), third(len(getattr(m.backbone, s)))))
            m = remap_channels(m, divide(32))
        else:
            m = remap_channels(m, divide(32 if name.startswith("deeplab") else 16))
        return Flat(randomize_norms(m))
    return build


def _raft(name):
    class Raft(nn.Module):
        def __init__(self, m, updates):
            super().__init__()
            self.m, self.updates = m, updates

        def forward(self, a, b):
            return tuple(self.m(a, b, num_flow_updates=self.updates))

    def build(full):
        if full:
            return Raft(tv(name), 12)
        from torchvision.models.optical_flow import raft as R

        if name == "raft_large":
            m = R._raft(feature_encoder_layers=(4, 4, 8, 8, 16), feature_encoder_block=R.ResidualBlock,
                        feature_encoder_norm_layer=R.InstanceNorm2d, context_encoder_layers=(4, 4, 8, 8, 16),
                        context_encoder_block=R.ResidualBlock, context_encoder_norm_layer=R.BatchNorm2d,
                        corr_block_num_levels=2, corr_block_radius=2, motion_encoder_corr_layers=(16, 12),
                        motion_encoder_flow_layers=(8, 4), motion_encoder_out_channels=8,
                        recurrent_block_hidden_state_size=8, recurrent_block_kernel_size=((1, 5), (5, 1)),
                        recurrent_block_padding=((0, 2), (2, 0)), flow_head_hidden_size=8, use_mask_predictor=True)
        else:
            m = R._raft(feature_encoder_layers=(8, 8, 12, 16, 24), feature_encoder_block=R.BottleneckBlock,
                        feature_encoder_norm_layer=R.InstanceNorm2d, context_encoder_layers=(8, 8, 12, 16, 32),
                        context_encoder_block=R.BottleneckBlock, context_encoder_norm_layer=None,
                        corr_block_num_levels=2, corr_block_radius=2, motion_encoder_corr_layers=(24,),
                        motion_encoder_flow_layers=(16, 8), motion_encoder_out_channels=14,
                        recurrent_block_hidden_state_size=12, recurrent_block_kernel_size=(3,),
                        recurrent_block_padding=(1,), flow_head_hidden_size=16, use_mask_predictor=False)
        # The upsampling mask predictor's 256-wide hidden layer shrinks too.
        return Raft(randomize_norms(remap_channels(m, divide(1, special={256: 8}))), 2)
    return build


def _video_resnet(name):
    def build(full):
        if full:
            return randomize_norms(tv(name))
        m = tv(name, num_classes=NUM_CLASSES)
        for s in ("layer1", "layer2", "layer3", "layer4"):
            setattr(m, s, truncate(getattr(m, s), 1))
        return randomize_norms(remap_channels(m, divide(16 if name == "mc3_18" else 32)))
    return build


def _s3d(full):
    if full:
        return randomize_norms(tv("s3d"))
    m = remap_channels(tv("s3d", num_classes=NUM_CLASSES), divide(16))
    m.avgpool = nn.AvgPool3d(kernel_size=(1, 1, 1), stride=1)  # the 2x7x7 pool needs 16x224x224 inputs
    return randomize_norms(m)


def _mvit(name):
    def build(full):
        if full:
            return tv(name)
        from torchvision.models.video.mvit import MViT, MSBlockConfig

        if name == "mvit_v1_b":
            heads, cin, cout = [1, 2, 2, 4], [8, 16, 16, 32], [16, 16, 32, 32]
            flags = dict(residual_pool=False, residual_with_cls_embed=False, rel_pos_embed=False, proj_after_attn=False)
        else:
            heads, cin, cout = [1, 2, 2, 4], [8, 8, 16, 16], [8, 16, 16, 32]
            flags = dict(residual_pool=True, residual_with_cls_embed=False, rel_pos_embed=True, proj_after_attn=True)
        kq = [[], [3, 3, 3], [], [3, 3, 3]] if name == "mvit_v1_b" else [[3, 3, 3]] * 4
        sq = [[], [1, 2, 2], [], [1, 2, 2]] if name == "mvit_v1_b" else [[1, 1, 1], [1, 2, 2], [1, 1, 1], [1, 2, 2]]
        skv = [[1, 4, 4], [1, 2, 2], [1, 2, 2], [1, 1, 1]]
        setting = [MSBlockConfig(heads[i], cin[i], cout[i], kq[i], [3, 3, 3], sq[i], skv[i]) for i in range(4)]
        return MViT(spatial_size=(32, 32), temporal_size=4, block_setting=setting, num_classes=NUM_CLASSES, **flags)
    return build


_SWIN3D = {"swin3d_t": (8, [1, 1, 1], [1, 2, 4]), "swin3d_s": (8, [1, 1, 2], [1, 2, 4]),
           "swin3d_b": (8, [1, 1, 1], [2, 4, 8])}


def _swin3d(name):
    def build(full):
        if full:
            return tv(name)
        from torchvision.models.video.swin_transformer import SwinTransformer3d

        dim, depths, heads = _SWIN3D[name]
        return SwinTransformer3d(patch_size=[2, 4, 4], embed_dim=dim, depths=depths, num_heads=heads,
                                 window_size=[2, 4, 4], mlp_ratio=2.0, stochastic_depth_prob=0.0, num_classes=NUM_CLASSES)
    return build


def _video_inputs(t, size, full_t=16, full_size=112):
    return lambda g, full: (randn(g, 1, 3, full_t, full_size, full_size) if full else randn(g, 1, 3, t, size, size),)


def _detection(name):
    def call(m, x):
        return m(list(x.unbind(0)))

    def build(full):
        kw = {} if full or "ssd" in name else dict(min_size=64, max_size=64)
        return Flat(tv(name, weights_backbone=None, num_classes=91 if full else NUM_CLASSES, **kw), call)
    return build


def _detection_inputs(name):
    def inputs(g, full):
        if "ssd300" in name:
            s = 300
        elif "ssdlite" in name:
            s = 320
        else:
            s = 224 if full else 64
        return (torch.rand(1, 3, s, s, generator=g),)
    return inputs


class _Dense(nn.Module):
    """A detector's dense part: the backbone with its feature pyramid and the head (for two-stage
    detectors the region proposal network's head), without anchors, box decoding and NMS, whose
    data-dependent sizes torch.export cannot trace."""

    def __init__(self, m, rpn: bool):
        super().__init__()
        self.backbone = m.backbone
        self.head = m.rpn.head if rpn else m.head

    def forward(self, x):
        return tuple(tree_leaves(self.head(list(self.backbone(x).values()))))


_DENSE = ["retinanet_resnet50_fpn", "retinanet_resnet50_fpn_v2", "fcos_resnet50_fpn", "fasterrcnn_resnet50_fpn",
          "fasterrcnn_mobilenet_v3_large_fpn"]


def _detection_dense(name):
    def build(full):
        rpn = name.startswith("fasterrcnn")
        m = _Dense(tv(name, weights_backbone=None, num_classes=91 if full else NUM_CLASSES), rpn)
        if full:
            return randomize_norms(m)
        body = m.backbone.body
        if hasattr(body, "layer3"):
            for s in ("layer1", "layer2", "layer3", "layer4"):
                setattr(body, s, truncate(getattr(body, s), third(len(getattr(body, s)))))
        # The prediction convolutions' widths encode anchors x classes (or x 4 box coordinates).
        keep = {3} | {c.out_channels for n, c in m.head.named_modules()
                      if n.split(".")[-1] in ("cls_logits", "bbox_reg", "bbox_pred", "bbox_ctrness")}
        return randomize_norms(remap_channels(m, divide(32 if hasattr(body, "layer3") else 16, keep=tuple(keep))))
    return build


def _vision_task_specs():
    import torchvision.models as M

    specs = []
    for name in M.list_models(module=M.segmentation):
        what = "channels /32, a third of the backbone's blocks" if "resnet" in name else "channels /32 (lraspp /16)"
        specs.append(Spec(name, "torchvision.segmentation", f"torchvision {name}; reduced: {what}, {NUM_CLASSES} classes, 32x32",
                          _segmentation(name), img(32, 224)))
    for name in M.list_models(module=M.optical_flow):
        specs.append(Spec(name, "torchvision.optical_flow",
                          f"torchvision {name}; reduced: channels 4-32, 2 correlation levels of radius 2, 2 flow updates, 32x32 pairs",
                          _raft(name), lambda g, full: tuple(randn(g, 1, 3, 224, 224) if full else randn(g, 1, 3, 32, 32) for _ in range(2))))
    for name in M.list_models(module=M.video):
        if name in ("r3d_18", "mc3_18", "r2plus1d_18"):
            build, what, inputs = _video_resnet(name), "channels /32 (mc3: /16), one block per stage", _video_inputs(4, 32)
        elif name == "s3d":
            build, what, inputs = _s3d, "channels /16, 8x32x32 clips, final pool 1x1x1", _video_inputs(8, 32, 16, 224)
        elif name.startswith("mvit"):
            build, what, inputs = _mvit(name), "4 blocks of 8-32 channels, 4x32x32 clips", _video_inputs(4, 32, 16, 224)
        else:
            build, what, inputs = _swin3d(name), "embed 8, three stages, window 2x4x4, MLP ratio 2, fewer blocks (b: more heads)", _video_inputs(4, 32, 16, 224)
        specs.append(Spec(name, "torchvision.video", f"torchvision {name}; reduced: {what}, {NUM_CLASSES} classes", build, inputs))
    for name in M.list_models(module=M.detection):
        specs.append(Spec(name, "torchvision.detection",
                          f"torchvision {name} end to end (images in, boxes out); reduced: 64 px images (SSD: its fixed size), {NUM_CLASSES} classes",
                          _detection(name), _detection_inputs(name)))
    for name in _DENSE:
        specs.append(Spec(f"{name}_dense", "torchvision.detection",
                          f"torchvision {name}'s dense part: backbone, FPN and {'RPN ' if name.startswith('fasterrcnn') else ''}head, "
                          f"no anchors or NMS; reduced: channels /32 (MobileNet /16), a third of the ResNet blocks, {NUM_CLASSES} classes, 32x32",
                          _detection_dense(name), img(32, 224)))
    return specs


# ---------------------------------------------------------------------------------------------
# ExecuTorch's example models (executorch.examples.models)


class _Tupled(nn.Module):
    """ExecuTorch's emformer and LSTM examples take nested tuples; this takes flat tensors."""

    def __init__(self, model, pack):
        super().__init__()
        self.model, self.pack = model, pack

    def forward(self, *xs):
        return tuple(t for t in tree_leaves(self.model(*self.pack(*xs))) if isinstance(t, torch.Tensor))


def _et_toy(cls_name):
    def build(full):
        from executorch.examples.models import toy_model

        return getattr(toy_model, cls_name)()
    return build


def _et_toy_inputs(cls_name):
    def inputs(g, full):
        from executorch.examples.models import toy_model

        example = getattr(toy_model, cls_name)().get_example_inputs()
        if cls_name == "SdpaModule" and not full:  # shipped: 3 x 2x8x128x64 bfloat16
            return tuple(randn(g, 1, 2, 16, 8) for _ in example)
        return tuple(randn(g, *t.shape).to(t.dtype) for t in example)
    return inputs


_MLPERF_DIV = {"deep_autoencoder": 4, "ds_cnn": 1, "mobilenet_v1_025": 4, "resnet8": 4}


def _et_mlperf(module, cls_name):
    def build(full):
        import importlib

        m = getattr(importlib.import_module(f"executorch.examples.models.mlperf_tiny.{module}"), cls_name)()
        if not full and _MLPERF_DIV[module] > 1:
            # Inner widths only: the input features (640 for the autoencoder) and classes stay.
            m = remap_channels(m, divide(_MLPERF_DIV[module], keep=(1, 2, 3, 10, 12, 640)))
        return randomize_norms(m)
    return build


def _et_mlperf_inputs(module, cls_name):
    def inputs(g, full):
        import importlib

        mod = importlib.import_module(f"executorch.examples.models.mlperf_tiny.{module}")
        example = getattr(mod, cls_name + "Model")().get_example_inputs()
        return tuple(torch.rand(*t.shape, generator=g) * 2 - 1 for t in example)
    return inputs


def _et_lstm(full):
    from executorch.examples.models.lstm import LSTMModel

    return _Tupled(LSTMModel().get_eager_model(), lambda x, h, c: (x, (h, c)))


class InceptionV4(nn.Module):
    """Inception-v4 (Szegedy et al. 2016, figures 3-9) with every width divided by `div`: stem,
    4 Inception-A, Reduction-A, 7 Inception-B, Reduction-B, 3 Inception-C (`blocks` scales the
    counts of A, B, C), average pool, linear. Written from the paper, as the wheel's example
    needs timm."""

    def __init__(self, div=1, blocks=(4, 7, 3), num_classes=1000):
        super().__init__()
        c = lambda n: max(1, n // div)  # noqa: E731

        def conv(i, o, k, s=1, p=0):
            return nn.Sequential(nn.Conv2d(i, o, k, s, p, bias=False), nn.BatchNorm2d(o, eps=1e-3), nn.ReLU(inplace=True))

        class Cat(nn.Module):
            def __init__(self, *branches):
                super().__init__()
                self.branches = nn.ModuleList(branches)

            def forward(self, x):
                return torch.cat([b(x) for b in self.branches], 1)

        class Stem(nn.Module):
            def __init__(self):
                super().__init__()
                self.a = nn.Sequential(conv(3, c(32), 3, 2), conv(c(32), c(32), 3), conv(c(32), c(64), 3, p=1))
                self.b = Cat(nn.MaxPool2d(3, 2), conv(c(64), c(96), 3, 2))
                self.c = Cat(nn.Sequential(conv(c(160), c(64), 1), conv(c(64), c(96), 3)),
                             nn.Sequential(conv(c(160), c(64), 1), conv(c(64), c(64), (1, 7), p=(0, 3)),
                                           conv(c(64), c(64), (7, 1), p=(3, 0)), conv(c(64), c(96), 3)))
                self.d = Cat(conv(c(192), c(192), 3, 2), nn.MaxPool2d(3, 2))

            def forward(self, x):
                return self.d(self.c(self.b(self.a(x))))

        def block_a():
            i = c(384)
            return Cat(nn.Sequential(nn.AvgPool2d(3, 1, 1, count_include_pad=False), conv(i, c(96), 1)), conv(i, c(96), 1),
                       nn.Sequential(conv(i, c(64), 1), conv(c(64), c(96), 3, p=1)),
                       nn.Sequential(conv(i, c(64), 1), conv(c(64), c(96), 3, p=1), conv(c(96), c(96), 3, p=1)))

        def reduction_a():
            i = c(384)
            return Cat(nn.MaxPool2d(3, 2), conv(i, c(384), 3, 2),
                       nn.Sequential(conv(i, c(192), 1), conv(c(192), c(224), 3, p=1), conv(c(224), c(256), 3, 2)))

        def block_b():
            i = c(1024)
            return Cat(nn.Sequential(nn.AvgPool2d(3, 1, 1, count_include_pad=False), conv(i, c(128), 1)), conv(i, c(384), 1),
                       nn.Sequential(conv(i, c(192), 1), conv(c(192), c(224), (1, 7), p=(0, 3)), conv(c(224), c(256), (7, 1), p=(3, 0))),
                       nn.Sequential(conv(i, c(192), 1), conv(c(192), c(192), (1, 7), p=(0, 3)), conv(c(192), c(224), (7, 1), p=(3, 0)),
                                     conv(c(224), c(224), (1, 7), p=(0, 3)), conv(c(224), c(256), (7, 1), p=(3, 0))))

        def reduction_b():
            i = c(1024)
            return Cat(nn.MaxPool2d(3, 2), nn.Sequential(conv(i, c(192), 1), conv(c(192), c(192), 3, 2)),
                       nn.Sequential(conv(i, c(256), 1), conv(c(256), c(256), (1, 7), p=(0, 3)),
                                     conv(c(256), c(320), (7, 1), p=(3, 0)), conv(c(320), c(320), 3, 2)))

        class BlockC(nn.Module):
            def __init__(self):
                super().__init__()
                i = c(1536)
                self.pool = nn.Sequential(nn.AvgPool2d(3, 1, 1, count_include_pad=False), conv(i, c(256), 1))
                self.one = conv(i, c(256), 1)
                self.b3 = conv(i, c(384), 1)
                self.b3a, self.b3b = conv(c(384), c(256), (1, 3), p=(0, 1)), conv(c(384), c(256), (3, 1), p=(1, 0))
                self.b5 = nn.Sequential(conv(i, c(384), 1), conv(c(384), c(448), (1, 3), p=(0, 1)), conv(c(448), c(512), (3, 1), p=(1, 0)))
                self.b5a, self.b5b = conv(c(512), c(256), (3, 1), p=(1, 0)), conv(c(512), c(256), (1, 3), p=(0, 1))

            def forward(self, x):
                y3, y5 = self.b3(x), self.b5(x)
                return torch.cat([self.pool(x), self.one(x), self.b3a(y3), self.b3b(y3), self.b5a(y5), self.b5b(y5)], 1)

        na, nb, nc = blocks
        self.features = nn.Sequential(Stem(), *[block_a() for _ in range(na)], reduction_a(),
                                      *[block_b() for _ in range(nb)], reduction_b(), *[BlockC() for _ in range(nc)])
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(c(1536), num_classes)

    def forward(self, x):
        return self.fc(torch.flatten(self.pool(self.features(x)), 1))


def _et_ic4(full):
    if full:
        return randomize_norms(InceptionV4())
    return randomize_norms(InceptionV4(div=32, blocks=(1, 2, 1), num_classes=NUM_CLASSES))


def _et_edsr(full):
    from torchsr.models.edsr import EDSR

    # edsr_r16f64(2) is EDSR(16 residual blocks, 64 features, scale 2, res_scale 1.0)
    return EDSR(16, 64, 2, 1.0) if full else EDSR(2, 8, 2, 1.0)


def _emformer_rnnt(full):
    from torchaudio.models import emformer_rnnt_base, emformer_rnnt_model

    if full:
        return emformer_rnnt_base(num_symbols=4097)
    return emformer_rnnt_model(
        input_dim=16, encoding_dim=32, num_symbols=64, segment_length=4, right_context_length=1,
        time_reduction_input_dim=16, time_reduction_stride=4, transformer_num_heads=2, transformer_ffn_dim=64,
        transformer_num_layers=2, transformer_dropout=0.1, transformer_activation="gelu",
        transformer_left_context_length=4, transformer_max_memory_size=0,
        transformer_weight_init_scale_strategy="depthwise", transformer_tanh_on_mem=True, symbol_embedding_dim=16,
        num_lstm_layers=1, lstm_layer_norm=True, lstm_layer_norm_epsilon=1e-3, lstm_dropout=0.3)


class _EmformerPart(nn.Module):
    """What the example's wrappers call (RNNT.transcribe, .predict with no state, .join), holding
    only the part they use so that the program carries only its weights."""

    def __init__(self, rnnt, part):
        super().__init__()
        self.part = part
        self.m = {"transcribe": rnnt.transcriber, "predict": rnnt.predictor, "join": rnnt.joiner}[part]

    def forward(self, *xs):
        if self.part == "transcribe":
            out = self.m(xs[0], xs[1])
        elif self.part == "predict":
            out = self.m(input=xs[0], lengths=xs[1], state=None)
        else:
            out = self.m(*xs)
        return tuple(t for t in tree_leaves(out) if isinstance(t, torch.Tensor))


def _emformer_inputs(part):
    def inputs(g, full):
        t, feat, enc, frames = (128, 80, 1024, 128) if full else (32, 16, 32, 8)
        if part == "transcribe":
            return (randn(g, 1, t, feat), torch.tensor([t]))
        if part == "predict":
            return (torch.randint(0, 64, (1, frames), generator=g), torch.tensor([frames]))
        return (torch.rand(1, frames, enc, generator=g), torch.tensor([frames]), torch.rand(1, frames, enc, generator=g), torch.tensor([frames]))
    return inputs


def _et_wav2letter(full):
    from torchaudio.models import Wav2Letter

    if full:
        return Wav2Letter(num_classes=4096)
    return remap_channels(Wav2Letter(num_classes=NUM_CLASSES), divide(32, keep=(1, NUM_CLASSES)))


def _et_llama(full):
    from executorch.examples.models.llama.llama_transformer import construct_transformer
    from executorch.examples.models.llama.model_args import ModelArgs

    if full:  # stories110M's shape
        args = ModelArgs(dim=768, n_layers=12, n_heads=12, vocab_size=32000, max_seq_len=128, max_context_len=128, use_kv_cache=False)
    else:
        args = ModelArgs(dim=32, n_layers=2, n_heads=4, n_kv_heads=2, vocab_size=64, hidden_dim=64, max_seq_len=16,
                         max_context_len=16, use_kv_cache=False)
    return construct_transformer(args)


def _et_mobilebert(full):
    from transformers import MobileBertConfig, MobileBertModel

    cfg = MobileBertConfig() if full else MobileBertConfig(
        vocab_size=128, hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=32,
        embedding_size=16, intra_bottleneck_size=16, true_hidden_size=16, num_feedforward_networks=2,
        max_position_embeddings=64)
    return Flat(MobileBertModel(cfg, add_pooling_layer=False), lambda m, ids: m(input_ids=ids).last_hidden_state)


def _et_deit(full):
    from transformers import DeiTConfig, DeiTForImageClassification

    cfg = DeiTConfig(hidden_size=192, num_hidden_layers=12, num_attention_heads=3, intermediate_size=768) if full else DeiTConfig(
        hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64, image_size=32, patch_size=8,
        num_labels=NUM_CLASSES)
    return Flat(DeiTForImageClassification(cfg), lambda m, x: m(pixel_values=x).logits)


def _et_specs():
    import torchvision  # noqa: F401  (the equivalents below)

    ex = "executorch.examples"
    specs = []
    for cls_name, short in (("MulModule", "mul"), ("LinearModule", "linear"), ("AddModule", "add"), ("AddMulModule", "add_mul"),
                            ("SoftmaxModule", "softmax"), ("Conv1dModule", "conv1d"), ("SdpaModule", "sdpa")):
        what = "; reduced: 1x2x16x8 float32 inputs (shipped: 2x8x128x64 bfloat16)" if short == "sdpa" else ""
        specs.append(Spec(f"et_toy_{short}", ex, f"executorch.examples.models.toy_model.{cls_name}, as shipped{what}",
                          _et_toy(cls_name), _et_toy_inputs(cls_name)))
    for module, cls_name in (("deep_autoencoder", "DeepAutoEncoder"), ("ds_cnn", "DSCNNKWS"),
                             ("mobilenet_v1_025", "MobileNetV1025"), ("resnet8", "ResNet8")):
        what = f"; reduced: inner widths /{_MLPERF_DIV[module]}" if _MLPERF_DIV[module] > 1 else ", as shipped"
        specs.append(Spec(f"et_mlperf_{module}", ex, f"executorch.examples.models.mlperf_tiny.{module}.{cls_name}{what}",
                          _et_mlperf(module, cls_name), _et_mlperf_inputs(module, cls_name)))
    specs += [
        Spec("et_lstm", ex, "executorch.examples.models.lstm: torch.nn.quantizable LSTM(10, 20, 2), as shipped",
             _et_lstm, lambda g, full: (randn(g, 5, 3, 10), randn(g, 2, 3, 20), randn(g, 2, 3, 20))),
        Spec("et_mv2", ex, "executorch.examples.models.mobilenet_v2 (pretrained in the example): torchvision mobilenet_v2, "
             "random weights; reduced: width 1/16, last conv 32, 10 classes, 32x32",
             _mobilenet_v2, img(32, 224)),
        Spec("et_mv3", ex, "executorch.examples.models.mobilenet_v3 (pretrained mobilenet_v3_small in the example): random weights; "
             "reduced: width 0.125, reduced tail, 10 classes, 32x32",
             _mobilenet_v3("mobilenet_v3_small"), img(32, 224)),
        Spec("et_resnet18", ex, "executorch.examples.models.resnet ResNet18Model (pretrained in the example): torchvision resnet18, "
             "random weights; reduced: channels /16, one block per stage, 32x32", _resnet("resnet18"), img(32, 224)),
        Spec("et_resnet50", ex, "executorch.examples.models.resnet ResNet50Model (pretrained in the example): torchvision resnet50, "
             "random weights; reduced: channels /16, half the blocks, 32x32", _resnet("resnet50"), img(32, 224)),
        Spec("et_vit", ex, "executorch.examples.models.torchvision_vit (pretrained vit_b_16 in the example): random weights; "
             "reduced: hidden 32, 2 layers, patch 8, 32x32", _vit("vit_b_16"), img(32, 224)),
        Spec("et_ic3", ex, "executorch.examples.models.inception_v3 (pretrained in the example): torchvision inception_v3, random "
             "weights; reduced: channels /32, 80x80 (full: the example's 224x224)", _inception_v3, img(80, 224)),
        Spec("et_ic4", ex, "executorch.examples.models.inception_v4 needs timm (not shipped): Inception-v4 written from the paper; "
             "reduced: widths /32, blocks A/B/C 1/2/1, 96x96 (full: 299x299)", _et_ic4, img(96, 299)),
        Spec("et_deit_tiny", ex, "executorch.examples.models.deit_tiny needs timm (not shipped): transformers DeiT at deit-tiny's "
             "shape (192 hidden, 12 layers, 3 heads); reduced: hidden 32, 2 layers, patch 8, 32x32", _et_deit, img(32, 224)),
        Spec("et_edsr", ex, "executorch.examples.models.edsr (pretrained edsr_r16f64 in the example): torchsr EDSR, random weights; "
             "reduced: 2 residual blocks of 8 features, x2, 32x32", _et_edsr, img(32, 224)),
        Spec("et_emformer_transcribe", ex, "executorch.examples.models.emformer_rnnt transcriber (pretrained in the example): "
             "torchaudio emformer_rnnt_model; reduced: 32-dim encoding, 2 layers, 16 features, 32 frames",
             lambda full: _EmformerPart(_emformer_rnnt(full), "transcribe"), _emformer_inputs("transcribe")),
        Spec("et_emformer_predict", ex, "executorch.examples.models.emformer_rnnt predictor; reduced: 64 symbols, 16-dim embedding, 1 LSTM layer",
             lambda full: _EmformerPart(_emformer_rnnt(full), "predict"), _emformer_inputs("predict")),
        Spec("et_emformer_join", ex, "executorch.examples.models.emformer_rnnt joiner; reduced: 32-dim encodings, 8 frames",
             lambda full: _EmformerPart(_emformer_rnnt(full), "join"), _emformer_inputs("join")),
        Spec("et_wav2letter", ex, "executorch.examples.models.wav2letter: torchaudio Wav2Letter; reduced: channels /32, 10 classes, "
             "2x1x700 waveforms (full: 4096 classes, 10x1x700)", _et_wav2letter,
             lambda g, full: (randn(g, 10 if full else 2, 1, 700),)),
        Spec("et_mobilebert", ex, "executorch.examples.models.mobilebert (pretrained in the example): transformers MobileBert; "
             "reduced: hidden 32, 2 layers, 16 tokens", _et_mobilebert, tokens(128, 16)),
        Spec("et_llama", ex, "executorch.examples.models.llama's Transformer without KV cache; reduced: dim 32, 2 layers, 4 heads "
             "(2 KV heads), vocab 64, 8 tokens (full: stories110M's shape)", _et_llama,
             lambda g, full: (torch.randint(0, 32000 if full else 64, (1, 8), generator=g),)),
    ]
    return specs


# ---------------------------------------------------------------------------------------------
# Hugging Face transformers, from small configs


def _hf(config_cls, model_cls, small: dict, call, part: str | None = None):
    """A transformers model from its config: the class's defaults (the published base size) when
    full, `small` otherwise; `part` names a submodule to keep alone (an encoder)."""
    def build(full):
        import transformers

        cfg = getattr(transformers, config_cls)() if full else getattr(transformers, config_cls)(**small)
        m = getattr(transformers, model_cls)(cfg)
        if part:
            m = getattr(m, part)()
        return Flat(m, call)
    return build


_IDS = dict(pad_token_id=0, bos_token_id=1, eos_token_id=2)
_TEXT = dict(vocab_size=128, hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
             max_position_embeddings=64, **_IDS)
_DECODER = dict(_TEXT, num_key_value_heads=1, use_cache=False, tie_word_embeddings=False)
_VISION = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64, image_size=32, patch_size=8)


def _hidden(m, ids):
    return m(input_ids=ids).last_hidden_state


def _logits(m, ids):
    return m(input_ids=ids).logits


def _pixels(m, x):
    out = m(pixel_values=x)
    return out.logits if hasattr(out, "logits") else out.last_hidden_state


def _hf_specs():
    hf = "transformers"
    T = tokens(128, 16)
    I32 = img(32, 224)

    def s(name, desc, build, inputs):
        return Spec(f"hf_{name}", hf, f"transformers {desc}", build, inputs)

    return [
        s("bert", "BertModel; small: hidden 32, 2 layers, 2 heads, 16 tokens", _hf("BertConfig", "BertModel", _TEXT, _hidden), T),
        s("distilbert", "DistilBertModel; small: dim 32, 2 layers", _hf("DistilBertConfig", "DistilBertModel",
          dict(vocab_size=128, dim=32, n_layers=2, n_heads=2, hidden_dim=64, max_position_embeddings=64, pad_token_id=0), _hidden), T),
        s("roberta", "RobertaModel; small: hidden 32, 2 layers", _hf("RobertaConfig", "RobertaModel", _TEXT, _hidden), T),
        s("albert", "AlbertModel; small: hidden 32, embedding 16, 2 layers", _hf("AlbertConfig", "AlbertModel",
          dict(_TEXT, embedding_size=16), _hidden), T),
        s("electra", "ElectraModel; small: hidden 32, embedding 16, 2 layers", _hf("ElectraConfig", "ElectraModel",
          dict(_TEXT, embedding_size=16), _hidden), T),
        s("gpt2", "GPT2LMHeadModel; small: 32 wide, 2 layers", _hf("GPT2Config", "GPT2LMHeadModel",
          dict(vocab_size=128, n_positions=64, n_embd=32, n_layer=2, n_head=2, use_cache=False, **_IDS), _logits), T),
        s("gpt_neox", "GPTNeoXForCausalLM; small: hidden 32, 2 layers", _hf("GPTNeoXConfig", "GPTNeoXForCausalLM",
          dict(_TEXT, use_cache=False), _logits), T),
        s("opt", "OPTForCausalLM; small: hidden 32, 2 layers", _hf("OPTConfig", "OPTForCausalLM",
          dict(vocab_size=128, hidden_size=32, num_hidden_layers=2, ffn_dim=64, num_attention_heads=2, max_position_embeddings=64,
               word_embed_proj_dim=32, use_cache=False, **_IDS), _logits), T),
        s("bloom", "BloomForCausalLM (ALiBi); small: hidden 32, 2 layers", _hf("BloomConfig", "BloomForCausalLM",
          dict(vocab_size=128, hidden_size=32, n_layer=2, n_head=2, use_cache=False, **_IDS), _logits), T),
        s("llama", "LlamaForCausalLM; small: hidden 32, 2 layers, 2 heads, 1 KV head", _hf("LlamaConfig", "LlamaForCausalLM", _DECODER, _logits), T),
        s("qwen2", "Qwen2ForCausalLM; small: hidden 32, 2 layers, 1 KV head", _hf("Qwen2Config", "Qwen2ForCausalLM", _DECODER, _logits), T),
        s("qwen3", "Qwen3ForCausalLM (QK norm); small: hidden 32, 2 layers", _hf("Qwen3Config", "Qwen3ForCausalLM",
          dict(_DECODER, head_dim=16), _logits), T),
        s("mistral", "MistralForCausalLM (sliding window); small: hidden 32, 2 layers", _hf("MistralConfig", "MistralForCausalLM",
          dict(_DECODER, sliding_window=8), _logits), T),
        s("phi", "PhiForCausalLM (partial rotary); small: hidden 32, 2 layers", _hf("PhiConfig", "PhiForCausalLM",
          dict(_DECODER, num_key_value_heads=2), _logits), T),
        s("gemma", "GemmaForCausalLM; small: hidden 32, 2 layers", _hf("GemmaConfig", "GemmaForCausalLM",
          dict(_DECODER, head_dim=16), _logits), T),
        s("t5_encoder", "T5EncoderModel; small: d_model 32, 2 layers", _hf("T5Config", "T5EncoderModel",
          dict(vocab_size=128, d_model=32, d_kv=16, d_ff=64, num_layers=2, num_heads=2, use_cache=False, pad_token_id=0,
               eos_token_id=1, decoder_start_token_id=0), _hidden), T),
        s("bart_encoder", "BartModel's encoder; small: d_model 32, 2 layers",
          _hf("BartConfig", "BartModel", dict(vocab_size=128, d_model=32, encoder_layers=2, decoder_layers=1, encoder_attention_heads=2,
              decoder_attention_heads=2, encoder_ffn_dim=64, decoder_ffn_dim=64, max_position_embeddings=64, **_IDS,
              decoder_start_token_id=2, forced_eos_token_id=2), _hidden, part="get_encoder"), T),
        s("whisper_encoder", "WhisperModel's encoder; small: d_model 32, 2 layers, 16 mel bins, 64 frames",
          _hf("WhisperConfig", "WhisperModel", dict(vocab_size=128, num_mel_bins=16, d_model=32, encoder_layers=2, decoder_layers=1,
              encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=64, decoder_ffn_dim=64,
              max_source_positions=32, max_target_positions=32, pad_token_id=0, bos_token_id=1, eos_token_id=2,
              decoder_start_token_id=1), lambda m, x: m(input_features=x).last_hidden_state, part="get_encoder"),
          lambda g, full: (randn(g, 1, 80, 3000) if full else randn(g, 1, 16, 64),)),
        s("wav2vec2", "Wav2Vec2Model; small: hidden 32, 2 layers, 2 conv layers, 400 samples",
          _hf("Wav2Vec2Config", "Wav2Vec2Model", dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
              conv_dim=(16, 16), conv_stride=(5, 2), conv_kernel=(10, 3), num_conv_pos_embeddings=16, num_conv_pos_embedding_groups=4),
              lambda m, x: m(input_values=x).last_hidden_state),
          lambda g, full: (randn(g, 1, 16000) if full else randn(g, 1, 400),)),
        s("vit", "ViTForImageClassification; small: hidden 32, 2 layers, patch 8, 32x32", _hf("ViTConfig", "ViTForImageClassification",
          dict(_VISION, num_labels=NUM_CLASSES), _pixels), I32),
        s("dinov2", "Dinov2Model; small: hidden 32, 2 layers, patch 8, 32x32", _hf("Dinov2Config", "Dinov2Model", _VISION, _pixels), I32),
        s("beit", "BeitForImageClassification (relative position bias); small: hidden 32, 2 layers, 32x32",
          _hf("BeitConfig", "BeitForImageClassification", dict(_VISION, num_labels=NUM_CLASSES, use_relative_position_bias=True), _pixels), I32),
        s("clip_vision", "CLIPVisionModel; small: hidden 32, 2 layers, 32x32", _hf("CLIPVisionConfig", "CLIPVisionModel", _VISION, _pixels), I32),
        s("clip_text", "CLIPTextModel; small: hidden 32, 2 layers, 16 tokens", _hf("CLIPTextConfig", "CLIPTextModel",
          _TEXT, _hidden), T),
        s("swin", "SwinForImageClassification; small: embed 16, depths [1,1], 32x32", _hf("SwinConfig", "SwinForImageClassification",
          dict(image_size=32, patch_size=2, embed_dim=16, depths=[1, 1], num_heads=[1, 2], window_size=4, num_labels=NUM_CLASSES), _pixels), I32),
        s("convnext", "ConvNextForImageClassification; small: 8-32 channels, 32x32", _hf("ConvNextConfig", "ConvNextForImageClassification",
          dict(hidden_sizes=[8, 16, 32], depths=[1, 1, 1], num_stages=3, num_labels=NUM_CLASSES), _pixels), I32),
        s("resnet", "ResNetForImageClassification; small: 8-32 channels, 32x32", _hf("ResNetConfig", "ResNetForImageClassification",
          dict(embedding_size=8, hidden_sizes=[8, 16, 32], depths=[1, 1, 1], num_labels=NUM_CLASSES), _pixels), I32),
        s("mobilevit", "MobileViTForImageClassification; small: 32x32", _hf("MobileViTConfig", "MobileViTForImageClassification",
          dict(image_size=32, hidden_sizes=[8, 8, 12], neck_hidden_sizes=[4, 8, 8, 8, 16, 16, 24], expand_ratio=2.0,
               num_labels=NUM_CLASSES), _pixels), I32),
        s("segformer", "SegformerForSemanticSegmentation; small: 8-32 channels, 32x32", _hf("SegformerConfig", "SegformerForSemanticSegmentation",
          dict(num_encoder_blocks=2, depths=[1, 1], sr_ratios=[2, 1], hidden_sizes=[8, 16], patch_sizes=[7, 3], strides=[4, 2],
               num_attention_heads=[1, 2], mlp_ratios=[2, 2], decoder_hidden_size=16, num_labels=NUM_CLASSES), _pixels), I32),
        s("levit", "LevitForImageClassification; small: 32x32", _hf("LevitConfig", "LevitForImageClassification",
          dict(image_size=32, hidden_sizes=[16, 24, 32], num_attention_heads=[1, 2, 2], depths=[1, 1, 1], key_dim=[8, 8, 8],
               num_labels=NUM_CLASSES), _pixels), I32),
    ]


def all_specs() -> list[Spec]:
    specs = _classification_specs() + _vision_task_specs() + _et_specs() + _hf_specs()
    names = [s.name for s in specs]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise ValueError(f"corpus: duplicate names {sorted(dup)}")
    return specs
