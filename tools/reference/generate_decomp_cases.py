#!/usr/bin/env python3
"""The decomposition oracle: torch's Edge conversion, operator by operator.

ExecuTorch's to_edge decomposes every operator outside core ATen with the table
executorch.exir.tracer._default_decomposition_table() (torch.export.default_decompositions()
plus ExecuTorch's additions), then runs its own Edge-time rewrites (view to copy, dim-order ops,
scalars to tensors, …). etgo's passes.ToEdge must produce the same graph node for node.

Cases come from two sources:
  * torch's OpInfo database (torch.testing._internal.common_methods_invocations.op_db): for every
    OpInfo, a few of its sample inputs (the argument, shape and dtype variants its own tests use,
    which is where decompositions branch), each wrapped in a module that calls the operator and
    exported with torch.export. A case is kept when its exported graph calls an operator of the
    decomposition table, or one outside core ATen.
  * EXTRA below: module-level cases OpInfo does not reach (nn layers, functional forms).

For every case this records the exported program (cases/<name>.pt2, sample inputs stripped) and
the official Edge graph twice: to_edge(ep), and the graph the XNNPACK partitioner is handed by
to_edge_transform_and_lower (its ops_to_not_decompose honoured), in a canonical form the Go test
reads (passes/decomp_oracle_test.go): nodes in order with every schema argument (defaults filled
in), tensor arguments as references (i<k> for the k-th graph input, n<i>.<j> for output j of
node i; getitems resolved), output dtypes and shapes. report.json lists, for every operator of
the table, whether export can emit it and how many cases exercise it; the Go test fills in
edge_equal from etgo's side.

  ~/.venvs/et/bin/python tools/reference/generate_decomp_cases.py [--only SUBSTR,...] [--limit N]
"""

from __future__ import annotations

import argparse
import io
import json
import math
import multiprocessing as mp
import re
import sys
import traceback
import warnings
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "testdata" / "decomp"
SAMPLES_PER_OPINFO = 4
MAX_INPUT_ELEMENTS = 4096


def target_name(t) -> str:
    sch = getattr(t, "_schema", None)
    if sch is not None:
        ns, op = sch.name.split("::")
        return f"{ns}.{op}.{sch.overload_name or 'default'}"
    return f"{getattr(t, '__module__', '?')}.{getattr(t, '__name__', str(t))}"


def enc_number(v):
    if isinstance(v, bool):
        return {"b": v}
    if isinstance(v, int):
        return {"i": v}
    if math.isnan(v) or math.isinf(v):
        return {"f": str(v)}
    return {"f": v}


def enc(v, refs):
    import torch
    import torch.fx

    if isinstance(v, torch.fx.Node):
        return {"ref": refs[v]}
    if v is None:
        return None
    if isinstance(v, (bool, int, float)):
        return enc_number(v)
    if isinstance(v, torch.dtype):
        return {"dtype": str(v).removeprefix("torch.")}
    if isinstance(v, torch.memory_format):
        return {"memory_format": str(v).removeprefix("torch.")}
    if isinstance(v, torch.layout):
        return {"layout": str(v).removeprefix("torch.")}
    if isinstance(v, torch.device):
        return {"device": str(v)}
    if isinstance(v, str):
        return {"s": v}
    if isinstance(v, (list, tuple)):
        return {"list": [enc(x, refs) for x in v]}
    if isinstance(v, (torch.SymInt, torch.SymFloat, torch.SymBool)):
        return {"sym": str(v)}
    raise TypeError(f"cannot encode argument {type(v).__name__}")


def enc_val(val):
    import torch

    if isinstance(val, torch.Tensor):
        return {"dtype": str(val.dtype).removeprefix("torch."),
                "shape": [int(d) if isinstance(d, int) or not hasattr(d, "node") else str(d) for d in val.shape]}
    if isinstance(val, (list, tuple)):
        return {"list": [enc_val(x) for x in val]}
    if isinstance(val, (torch.SymInt, int)):
        return {"symint": str(val)}
    if isinstance(val, (torch.SymFloat, float)):
        return {"symfloat": str(val)}
    if isinstance(val, (torch.SymBool, bool)):
        return {"symbool": str(val)}
    return None


def canonical(ep) -> dict:
    """The exported program's graph in the form the Go test compares."""
    import torch

    gm = ep.graph_module
    refs = {}
    inputs = []
    kinds = {s.arg.name: s for s in ep.graph_signature.input_specs if hasattr(s.arg, "name")}
    nodes = []
    outputs = []
    schemas = {}
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    for k, n in enumerate(placeholders):
        refs[n] = f"i{k}"
        spec = kinds.get(n.name)
        entry = {"kind": spec.kind.name.lower() if spec else "user_input"}
        entry.update(enc_val(n.meta.get("val")) or {})
        if spec is not None and spec.kind.name in ("CONSTANT_TENSOR", "PARAMETER", "BUFFER"):
            t = ep.constants.get(spec.target) if spec.kind.name == "CONSTANT_TENSOR" else ep.state_dict.get(spec.target)
            if t is not None and t.numel() <= 16:
                entry["value"] = [enc_number(x) for x in t.flatten().tolist()]
        inputs.append(entry)
    for n in gm.graph.nodes:
        if n.op == "call_function" and n.target.__name__ == "getitem" and isinstance(n.args[0], torch.fx.Node) \
                and n.args[0] in refs and refs[n.args[0]].startswith("n"):
            src = refs[n.args[0]].split(".")[0]
            refs[n] = f"{src}.{n.args[1]}"
            continue
        if n.op == "call_function":
            idx = len(nodes)
            refs[n] = f"n{idx}.0"
            name = target_name(n.target)
            sch = getattr(n.target, "_schema", None)
            args = []
            if sch is not None:
                if name not in schemas:
                    schemas[name] = [{"name": a.name, "default": enc(a.default_value, {}) if a.has_default_value() else None,
                                      "has_default": a.has_default_value(), "kwarg_only": a.kwarg_only}
                                     for a in sch.arguments]
                for pos, a in enumerate(sch.arguments):
                    if pos < len(n.args) and not a.kwarg_only:
                        v = n.args[pos]
                    elif a.name in n.kwargs:
                        v = n.kwargs[a.name]
                    elif a.has_default_value():
                        v = a.default_value
                    else:
                        v = None
                    args.append([a.name, enc(v, refs)])
            else:
                args = [[f"a{i}", enc(v, refs)] for i, v in enumerate(n.args)]
            nodes.append({"target": name, "args": args, "val": enc_val(n.meta.get("val"))})
        elif n.op == "output":
            for o in n.args[0]:
                outputs.append(enc(o, refs))
    return {"inputs": inputs, "nodes": nodes, "outputs": outputs, "schemas": schemas}


def strip_pt2(path: Path):
    """Drops the sample inputs torch.export.save stores (etgo does not read them)."""
    data = path.read_bytes()
    src = zipfile.ZipFile(io.BytesIO(data))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as dst:
        for info in src.infolist():
            if "/sample_inputs/" in info.filename:
                continue
            dst.writestr(info, src.read(info.filename))
    path.write_bytes(buf.getvalue())


def flat_tensors(obj, out):
    import torch

    if isinstance(obj, torch.Tensor):
        out.append(obj)
        return ("T", len(out) - 1)
    if isinstance(obj, (list, tuple)):
        return (type(obj).__name__, [flat_tensors(x, out) for x in obj])
    if isinstance(obj, dict):
        return ("dict", {k: flat_tensors(v, out) for k, v in obj.items()})
    return ("C", obj)


def rebuild(tree, tensors):
    kind, v = tree
    if kind == "T":
        return tensors[v]
    if kind == "list":
        return [rebuild(x, tensors) for x in v]
    if kind == "tuple":
        return tuple(rebuild(x, tensors) for x in v)
    if kind == "dict":
        return {k: rebuild(x, tensors) for k, x in v.items()}
    return v


def opinfo_cases(only, exact=None):
    """(name, operator, argument tree, tensors) for every usable OpInfo sample."""
    import torch
    from torch.testing._internal.common_methods_invocations import op_db

    for info in op_db:
        base = info.name + (("." + info.variant_test_name) if info.variant_test_name else "")
        if (exact is not None and base != exact) or (only and not any(s in base for s in only)):
            continue
        dtypes = info.supported_dtypes("cpu")
        dtype = torch.float32 if torch.float32 in dtypes else next(
            (d for d in (torch.int64, torch.int32, torch.bool, torch.uint8) if d in dtypes), None)
        if dtype is None:
            continue
        try:
            samples = list(info.sample_inputs("cpu", dtype, requires_grad=False))
        except Exception:
            continue
        picked = 0
        for i, s in enumerate(samples):
            if picked >= SAMPLES_PER_OPINFO:
                break
            tensors = []
            tree = flat_tensors((s.input, s.args, s.kwargs), tensors)
            if not tensors or any(t.numel() > MAX_INPUT_ELEMENTS or t.is_complex() or t.layout != torch.strided
                                  for t in tensors):
                continue
            picked += 1
            yield f"{base}.{i}", info.op, tree, tensors


class OpModule:
    @staticmethod
    def make(fn, tree):
        import torch

        class M(torch.nn.Module):
            def forward(self, *tensors):
                inp, args, kwargs = rebuild(tree, list(tensors))
                return fn(inp, *args, **kwargs)

        return M()


def extra_cases():
    """Module-level cases OpInfo does not reach: (name, module, inputs)."""
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    torch.manual_seed(0)
    x4 = torch.randn(1, 3, 8, 8)
    cases = [
        ("nn.silu", nn.SiLU(), (x4,)),
        ("nn.conv2d_same", nn.Conv2d(3, 4, 3, padding="same"), (x4,)),
        ("nn.conv2d_same_even", nn.Conv2d(3, 4, 4, padding="same", dilation=2), (x4,)),
        ("nn.conv_transpose2d", nn.ConvTranspose2d(3, 4, 3, stride=2, padding=1, output_padding=1), (x4,)),
        ("nn.conv_transpose1d", nn.ConvTranspose1d(3, 4, 3, stride=2), (torch.randn(1, 3, 10),)),
        ("nn.pad_reflect", _Fn(lambda x: F.pad(x, (1, 2, 2, 1), mode="reflect")), (x4,)),
        ("nn.pad_replicate", _Fn(lambda x: F.pad(x, (1, 2, 2, 1), mode="replicate")), (x4,)),
        ("nn.pad_constant", _Fn(lambda x: F.pad(x, (1, 2, 2, 1), value=0.5)), (x4,)),
        ("nn.pad_circular", _Fn(lambda x: F.pad(x, (1, 2, 2, 1), mode="circular")), (x4,)),
        ("nn.square", _Fn(lambda x: torch.square(x)), (x4,)),
        ("nn.zeros_state", _Fn(lambda x: x + torch.zeros(1, 3, 8, 8)), (x4,)),
        ("nn.ones_like", _Fn(lambda x: x * torch.ones_like(x)), (x4,)),
        ("nn.to_dtype_layout", _Fn(lambda x: x.to(torch.float64, copy=False).to(dtype=torch.float32, layout=torch.strided)), (x4,)),
        ("nn.interpolate_aa", _Fn(lambda x: F.interpolate(x, size=(5, 5), mode="bilinear", antialias=True)), (x4,)),
        ("nn.interpolate_nearest", _Fn(lambda x: F.interpolate(x, scale_factor=2.0, mode="nearest")), (x4,)),
        ("nn.interpolate_bilinear_ac", _Fn(lambda x: F.interpolate(x, scale_factor=2.0, mode="bilinear", align_corners=True)), (x4,)),
        ("nn.contiguous", _Fn(lambda x: x.transpose(2, 3).contiguous() + 1), (x4,)),
        ("nn.clone_channels_last", _Fn(lambda x: x.clone(memory_format=torch.channels_last)), (x4,)),
        ("nn.contiguous_channels_last", _Fn(lambda x: x.contiguous(memory_format=torch.channels_last) * 2), (x4,)),
        ("nn.unflatten", _Fn(lambda x: x.unflatten(1, (3, 1)) + 1), (x4,)),
        ("nn.embedding", nn.Embedding(10, 4), (torch.tensor([[1, 2, 3]]),)),
        ("nn.lstm", nn.LSTM(4, 5, batch_first=True), (torch.randn(2, 3, 4),)),
        ("nn.gru", nn.GRU(4, 5), (torch.randn(3, 2, 4),)),
        ("nn.group_norm", nn.GroupNorm(1, 3), (x4,)),
        ("nn.instance_norm", nn.InstanceNorm2d(3, affine=True), (x4,)),
        ("nn.pixel_shuffle", nn.PixelShuffle(2), (torch.randn(1, 8, 4, 4),)),
        ("nn.upsample", nn.Upsample(scale_factor=2, mode="bilinear"), (x4,)),
        ("nn.adaptive_avg_pool2d_3", nn.AdaptiveAvgPool2d(3), (x4,)),
        ("nn.adaptive_max_pool2d", nn.AdaptiveMaxPool2d(2), (x4,)),
        ("nn.max_dim", _Fn(lambda x: torch.max(x, 1)[0]), (x4,)),
        ("nn.batch_norm2d", nn.BatchNorm2d(3).eval(), (x4,)),
        ("nn.mha", nn.MultiheadAttention(8, 2, batch_first=True), (torch.randn(1, 4, 8),) * 3),
        ("nn.transformer_layer", nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True), (torch.randn(1, 4, 8),)),
        ("nn.linear_3d", nn.Linear(4, 5), (torch.randn(2, 3, 4),)),
        ("nn.gelu_tanh", nn.GELU(approximate="tanh"), (x4,)),
        ("nn.mish", nn.Mish(), (x4,)),
        ("nn.softplus", nn.Softplus(beta=2.0), (x4,)),
        ("nn.hardswish", nn.Hardswish(), (x4,)),
        ("nn.log_softmax", nn.LogSoftmax(1), (x4,)),
        ("nn.flatten", nn.Flatten(), (x4,)),
        ("nn.arange", _Fn(lambda x: x + torch.arange(8, dtype=torch.float32)), (x4,)),
        ("nn.full", _Fn(lambda x: x + torch.full((8,), 2.0)), (x4,)),
        ("nn.masked_fill", _Fn(lambda x: x.masked_fill(x > 0, -1.0)), (x4,)),
        ("nn.rsub", _Fn(lambda x: 1.0 - x), (x4,)),
        ("nn.norm", _Fn(lambda x: x / x.norm(dim=1, keepdim=True)), (x4,)),
        ("nn.var", _Fn(lambda x: x.var(dim=(2, 3))), (x4,)),
        ("nn.std", _Fn(lambda x: x.std(dim=1, keepdim=True)), (x4,)),
        ("nn.einsum", _Fn(lambda x, y: torch.einsum("bchw,bchw->bc", x, y)), (x4, x4)),
        ("nn.matmul_3d", _Fn(lambda x, y: x @ y), (torch.randn(2, 3, 4), torch.randn(4, 5))),
        ("nn.split", _Fn(lambda x: [t * 2 for t in x.split(2, dim=2)]), (x4,)),
        ("nn.unbind", _Fn(lambda x: [t + 1 for t in x.unbind(1)]), (x4,)),
        ("nn.repeat", _Fn(lambda x: x.repeat(1, 2, 1, 1)), (x4,)),
        ("nn.expand_as", _Fn(lambda x, y: x.expand_as(y) + y), (torch.randn(1, 3, 1, 8), x4)),
        # Operators the public model corpus stopped at (testdata/corpus/report.md).
        # where with a Python number (hf_bloom, hf_t5_encoder: a causal mask filled with float32's lowest).
        ("corpus.where_scalar_other", _Fn(lambda x: torch.where(x > 0, x, -3.4028234663852886e+38)), (x4,)),
        ("corpus.where_scalar_other_0d", _Fn(lambda x: torch.where(x > 0, torch.zeros(()), -3.4028234663852886e+38)), (x4,)),
        ("corpus.where_scalar_other_int", _Fn(lambda x: torch.where(x > 0, x, 2)), (torch.randint(-5, 5, (2, 6)),)),
        ("corpus.where_scalar_other_promote", _Fn(lambda x: torch.where(x > 0, x, 2.5)), (torch.randint(-5, 5, (2, 6)),)),
        ("corpus.where_scalar_other_bool", _Fn(lambda x: torch.where(x > 0, x, True)), (torch.randn(2, 6) > 0.5,)),
        ("corpus.where_scalar_self", _Fn(lambda x: torch.where(x > 0, 0.5, x)), (x4,)),
        ("corpus.where_scalar_self_int", _Fn(lambda x: torch.where(x > 0, 1.5, x)), (torch.randint(-5, 5, (2, 6)),)),
        ("corpus.where_scalar", _Fn(lambda x: torch.where(x > 0, 1.0, 0.0)), (x4,)),
        ("corpus.where_scalar_int", _Fn(lambda x: torch.where(x > 0, 1, 0)), (x4,)),
        ("corpus.where_scalar_mixed", _Fn(lambda x: torch.where(x > 0, 1, 0.5)), (x4,)),
        # linspace with number bounds (raft: torch.linspace(-r, r, 2 * r + 1)).
        ("corpus.linspace_int_bounds", _Fn(lambda x: x + torch.linspace(-2, 2, 5)), (torch.randn(3, 5),)),
        ("corpus.linspace_float", _Fn(lambda x: x + torch.linspace(0.0, 1.0, 7)), (torch.randn(7),)),
        ("corpus.linspace_odd", _Fn(lambda x: x + torch.linspace(-1.5, 3.25, 6)), (torch.randn(6),)),
        ("corpus.linspace_int_dtype", _Fn(lambda x: x + torch.linspace(0, 10, 4, dtype=torch.int64)), (torch.randint(0, 5, (4,)),)),
        ("corpus.linspace_one", _Fn(lambda x: x + torch.linspace(2.0, 5.0, 1)), (torch.randn(3),)),
        ("corpus.linspace_float64", _Fn(lambda x: x + torch.linspace(-1, 1, 5, dtype=torch.float64)), (torch.randn(5, dtype=torch.float64),)),
        ("corpus.logspace", _Fn(lambda x: x + torch.logspace(0, 2, 5)), (torch.randn(5),)),
        ("corpus.logspace_base2", _Fn(lambda x: x + torch.logspace(-1.0, 1.5, 4, base=2)), (torch.randn(4),)),
        # tensor_split (mvit: the class token split off with indices=(1,)).
        ("corpus.tensor_split_indices", _Fn(lambda x: [t * 2 for t in torch.tensor_split(x, (1,), dim=2)]), (torch.randn(1, 1, 9, 8),)),
        ("corpus.tensor_split_indices_many", _Fn(lambda x: [t * 2 for t in torch.tensor_split(x, (1, 3, 3, 10), dim=-1)]), (torch.randn(2, 6),)),
        ("corpus.tensor_split_indices_desc", _Fn(lambda x: [t * 2 for t in torch.tensor_split(x, (4, 2), dim=1)]), (torch.randn(2, 6),)),
        ("corpus.tensor_split_sections", _Fn(lambda x: [t * 2 for t in torch.tensor_split(x, 4, dim=1)]), (torch.randn(2, 10),)),
        ("corpus.tensor_split_sections_even", _Fn(lambda x: [t * 2 for t in torch.tensor_split(x, 3)]), (torch.randn(6, 2),)),
        # weight norm (hf_wav2vec2: parametrizations.weight_norm on a Conv1d over dim 2).
        ("corpus.weight_norm_conv1d_dim2", nn.utils.parametrizations.weight_norm(nn.Conv1d(8, 8, 5, padding=2, groups=2), name="weight", dim=2), (torch.randn(1, 8, 12),)),
        ("corpus.weight_norm_linear", nn.utils.parametrizations.weight_norm(nn.Linear(4, 5)), (torch.randn(2, 4),)),
        ("corpus.weight_norm_linear_none", nn.utils.parametrizations.weight_norm(nn.Linear(4, 5), dim=None), (torch.randn(2, 4),)),
        ("corpus.weight_norm_conv2d_last", nn.utils.parametrizations.weight_norm(nn.Conv2d(3, 4, 3), dim=-1), (x4,)),
        # copy_ into a view of a fresh tensor (hf_beit's relative position index: coords[:, :, 0] += k).
        ("corpus.copy_beit_index", _Fn(_beit_index), (torch.randn(16, 16),)),
        ("corpus.copy_slice_assign", _Fn(_slice_assign), (torch.randn(2, 3),)),
        ("corpus.copy_whole", _Fn(lambda x: torch.zeros(2, 3).copy_(x) + 1), (torch.randn(2, 3),)),
        ("corpus.dropout_inplace_eval_view", _DropoutView(), (torch.randn(2, 3, 4),)),
        # Elementwise results keep their inputs' layout (TensorIterator), so contiguous() of one
        # computed from a permuted tensor is a copy (hf_t5_encoder's masked position bias).
        ("corpus.where_permuted_contiguous", _Fn(lambda x: torch.where(x.permute(0, 2, 1, 3) > 0, x.permute(0, 2, 1, 3), -3.4028234663852886e+38).contiguous() + 1), (torch.randn(1, 4, 2, 4),)),
        ("corpus.add_permuted_contiguous", _Fn(lambda x, y: (x.transpose(1, 2) + y).contiguous().view(2, -1)), (torch.randn(2, 3, 4), torch.randn(4, 1))),
        ("corpus.copy_broadcast_dtype", _Fn(lambda x: torch.zeros(4, 3, dtype=torch.float32).copy_(x) * 2), (torch.randint(0, 9, (3,)),)),
        # Global average pooling of a channels-last result is mean + as_strided (ConvNeXt's
        # permuted blocks, Swin3D's permuted features); of a contiguous one, the mean alone.
        ("layout.adaptive_avg_pool2d_channels_last", _Fn(lambda x: nn.functional.adaptive_avg_pool2d(x.permute(0, 3, 1, 2) * 2, 1) + 1), (torch.randn(1, 3, 3, 4),)),
        ("layout.adaptive_avg_pool2d_channels_last_1x1", _Fn(lambda x: nn.functional.adaptive_avg_pool2d(x.permute(0, 3, 1, 2) * 2, 1) + 1), (torch.randn(1, 1, 1, 4),)),
        ("layout.adaptive_avg_pool3d_channels_last", _Fn(lambda x: nn.functional.adaptive_avg_pool3d(x.permute(0, 4, 1, 2, 3) * 2, 1) + 1), (torch.randn(1, 2, 3, 3, 4),)),
        ("layout.adaptive_avg_pool2d_contiguous", _Fn(lambda x: nn.functional.adaptive_avg_pool2d(x * 2, 1) + 1), (torch.randn(1, 4, 3, 3),)),
        # SDPA on permuted q/k/v: matmul reshapes copy; one head makes the output's contiguous() a no-op.
        ("layout.sdpa_permuted_heads", _Fn(lambda q, k, v: nn.functional.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)).transpose(1, 2).contiguous().view(1, 4, -1)), (torch.randn(1, 4, 2, 8), torch.randn(1, 4, 2, 8), torch.randn(1, 4, 2, 8))),
        ("layout.sdpa_one_head", _Fn(lambda q, k, v: nn.functional.scaled_dot_product_attention(q, k, v).transpose(1, 2).contiguous().view(1, 4, -1)), (torch.randn(1, 1, 4, 8), torch.randn(1, 1, 4, 8), torch.randn(1, 1, 4, 8))),
    ]
    # Programs with a symbolic dim (a fourth entry: torch.export's dynamic_shapes).
    from torch.export import Dim
    batch = Dim("batch", min=1, max=8)
    cases += [
        ("dyn.linear_3d", nn.Linear(4, 5), (torch.randn(2, 3, 4),), ({0: batch},)),
        ("dyn.linear_3d_inner", nn.Linear(4, 5), (torch.randn(3, 2, 4),), ({1: batch},)),
        ("dyn.linear_2d", nn.Linear(4, 5), (torch.randn(2, 4),), ({0: batch},)),
        ("dyn.silu_view", nn.Sequential(nn.SiLU(), nn.Flatten(1)), (torch.randn(2, 3, 4),), ({0: batch},)),
    ]
    return cases


def _beit_index(x):
    """transformers' BeitRelativePositionBias.generate_relative_position_index, 4×4 window."""
    import torch

    coords = torch.stack(torch.meshgrid(torch.arange(4), torch.arange(4), indexing="ij"))
    flat = torch.flatten(coords, 1)
    rel = (flat[:, :, None] - flat[:, None, :]).permute(1, 2, 0).contiguous()
    rel[:, :, 0] += 3
    rel[:, :, 1] += 3
    rel[:, :, 0] *= 7
    index = torch.zeros(size=(17, 17), dtype=rel.dtype)
    index[1:, 1:] = rel.sum(-1)
    index[0, 0:] = 49
    index[0:, 0] = 50
    index[0, 0] = 51
    return x + index[1:, 1:].to(x.dtype)


def _slice_assign(x):
    import torch

    t = torch.zeros(4, 5)
    t[1:3, :3] = x
    t[0] = 1.0
    return t * 2


class _DropoutView:
    """mvit's nn.Dropout(inplace=True) in eval mode on a view (a no-op)."""

    def __new__(cls):
        import torch

        class D(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.drop = torch.nn.Dropout(0.5, inplace=True)

            def forward(self, x):
                t = x * 2
                y = self.drop(t[:, 0])
                return t + 1, y

        return D()


class _Fn:
    """A module from a function (defined at module level so cases pickle)."""

    def __new__(cls, fn):
        import torch

        class F(torch.nn.Module):
            def forward(self, *xs):
                return fn(*xs)

        return F()


def xnnpack_edge(ep):
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.exir import EdgeCompileConfig
    from executorch.exir.program._program import _gen_edge_manager_for_partitioners

    m = _gen_edge_manager_for_partitioners({"forward": [XnnpackPartitioner()]}, {"forward": ep},
                                           EdgeCompileConfig(), None)
    return m.exported_program()


def run_case(args):
    """Exports one case and records its official Edge graphs (in a worker process)."""
    name, make = args
    import copy

    import torch
    from executorch.exir import to_edge

    warnings.filterwarnings("ignore")
    table = {target_name(k) for k in _table()}
    try:
        module, inputs, dynamic = make()
        module = module.eval()
        with torch.no_grad():
            eager = module(*inputs)
        leaves = []
        flat_tensors(eager, leaves)
        if not leaves:
            return name, None, "no tensor output"
        ep = torch.export.export(module, tuple(inputs), dynamic_shapes=dynamic, strict=False)
    except Exception as e:
        return name, None, "export: " + first_line(e)
    aten_ops = sorted({target_name(n.target) for n in ep.graph.nodes if n.op == "call_function"})
    rec = {"name": name, "exported_ops": aten_ops}
    try:
        rec["edge"] = canonical(to_edge(copy.deepcopy(ep)).exported_program())
    except Exception as e:
        rec["edge_error"] = first_line(e)
    # A case is kept when the Edge conversion changes something beyond renaming views to their
    # copies: a decomposition, a dim-order rewrite, a lifted scalar.
    before = [target_name(n.target) for n in ep.graph.nodes if n.op == "call_function" and n.target.__name__ != "getitem"]
    after = [n["target"] for n in rec.get("edge", {}).get("nodes", [])]
    if "edge" in rec and not any(op in table or not _is_core(op) for op in aten_ops) \
            and [re.sub(r"_copy(\.|$)", r"\1", t) for t in after] == before \
            and len(rec["edge"]["inputs"]) == len(ep.graph_signature.input_specs):
        return name, None, "the Edge conversion leaves it as it is"
    if not any(op in XNNPACK_KEEPS or op.split(".")[1] in MAY_EMIT_KEPT for op in aten_ops):
        # The partitioner keeps none of the graph's operators whole, so it is handed exactly
        # to_edge's graph; recorded once.
        rec["edge_xnnpack_same"] = True
    else:
        try:
            rec["edge_xnnpack"] = canonical(xnnpack_edge(copy.deepcopy(ep)))
        except Exception as e:
            rec["edge_xnnpack_error"] = first_line(e)
    path = OUT / "cases" / (safe(name) + ".pt2")
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.export.save(ep, path)
    strip_pt2(path)
    rec["pt2"] = path.name
    return name, rec, None


_TABLE = None

# Operators whose decomposition can produce one XNNPACK keeps whole (the recurrent layers'
# decompositions call linear): for these the partitioner's graph is computed, not assumed.
MAY_EMIT_KEPT = {"lstm", "gru", "rnn_tanh", "rnn_relu", "lstm_cell", "gru_cell", "rnn_tanh_cell", "rnn_relu_cell",
                 "bilinear", "multi_head_attention_forward", "transformer_encoder_layer_fwd"}

# XnnpackPartitioner().ops_to_not_decompose's operators (executorch 1.5.1).
XNNPACK_KEEPS = {"aten.hardswish.default", "aten.linear.default", "aten.max_pool2d.default", "aten.prelu.default",
                 "aten.upsample_bilinear2d.vec", "torchao.choose_qparams_affine.default",
                 "torchao.dequantize_affine.default", "torchao.quantize_affine.default"}


def _table():
    global _TABLE
    if _TABLE is None:
        from executorch.exir.tracer import _default_decomposition_table
        _TABLE = _default_decomposition_table()
    return _TABLE


def _is_core(op: str) -> bool:
    import torch

    ns, name, overload = (op.split(".") + ["", ""])[:3]
    if ns != "aten":
        return True  # prims, sym arithmetic, ExecuTorch ops: not the table's business
    try:
        o = getattr(getattr(torch.ops.aten, name), overload)
    except AttributeError:
        return False
    return torch.Tag.core in o.tags


def first_line(e: Exception) -> str:
    s = str(e).strip().splitlines()
    return f"{type(e).__name__}: {s[0] if s else ''}"[:300]


def safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)


# Case factories must be picklable: they are (kind, key) pairs resolved in the worker.
def make_factory(kind, key):
    def make():
        if kind == "extra":
            for case in extra_cases():
                if case[0] == key:
                    return case[1], case[2], (case[3] if len(case) > 3 else None)
            raise KeyError(key)
        import torch
        for n, fn, tree, tensors in opinfo_cases([], exact=key.rsplit(".", 1)[0]):
            if n == key:
                torch.manual_seed(0)
                return OpModule.make(fn, tree), tensors, None
        raise KeyError(key)
    return make


class Factory:
    def __init__(self, kind, key):
        self.kind, self.key = kind, key

    def __call__(self):
        return make_factory(self.kind, self.key)()


def worker_init():
    warnings.filterwarnings("ignore")
    cache_cia_ops()


def cache_cia_ops():
    """torch recomputes the set of CompositeImplicitAutograd operators on every
    run_decompositions (~0.4 s of a 1 s to_edge on a tiny graph); the set cannot change while
    this script runs (it registers no operators), so it is computed once per process."""
    import functools

    import torch._export.utils as tu
    import torch.export.decomp_utils as du
    import torch.export.exported_program as xp

    cached = functools.lru_cache(maxsize=None)(lambda: tuple(tu._collect_all_valid_cia_ops()))
    patched = lambda: set(cached())  # noqa: E731
    xp._collect_all_valid_cia_ops = patched
    du._collect_all_valid_cia_ops = patched


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="", help="comma list of substrings of case names")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    only = [s for s in a.only.split(",") if s]

    import torch

    names = [("extra", c[0]) for c in extra_cases() if not only or any(s in c[0] for s in only)]
    names += [("opinfo", n) for n, _, _, _ in opinfo_cases(only)]
    if a.limit:
        names = names[: a.limit]
    print(f"{len(names)} candidate cases", file=sys.stderr)

    expected_path = OUT / "expected.json"
    old = json.loads(expected_path.read_text()) if expected_path.exists() and only else {"cases": []}
    records = {c["name"]: c for c in old["cases"] if not any(s in c["name"] for s in only)}
    skipped_path = OUT / "skipped.json"
    skipped = {}
    if only and skipped_path.exists():
        skipped = {k: v for k, v in json.loads(skipped_path.read_text()).items() if not any(s in k for s in only)}
    ctx = mp.get_context("spawn")
    with ctx.Pool(a.jobs, initializer=worker_init, maxtasksperchild=50) as pool:
        for i, (name, rec, why) in enumerate(pool.imap_unordered(run_case, [(n, Factory(k, n)) for k, n in names])):
            if rec is None:
                skipped[name] = why
            else:
                records[name] = rec
            if i % 50 == 0:
                print(f"{i}/{len(names)} kept {len(records)}", file=sys.stderr)

    # Remove stale case files.
    keep = {r["pt2"] for r in records.values()}
    for p in (OUT / "cases").glob("*.pt2"):
        if p.name not in keep:
            p.unlink()
    cases = [records[k] for k in sorted(records)]
    expected_path.write_text(json.dumps({"torch": torch.__version__, "cases": cases}, indent=None, separators=(",", ":")) + "\n")

    # Every operator of the table: can export emit it, and which cases exercise it.
    exercised = {}
    for c in cases:
        for op in c["exported_ops"]:
            exercised.setdefault(op, []).append(c["name"])
    ops = []
    for k in sorted({target_name(k) for k in _table()}):
        _, name, overload = k.split(".", 2)
        row = {"op": k, "cases": len(exercised.get(k, []))}
        if row["cases"]:
            row["exportable"] = True
        else:
            row["exportable"] = False
            if overload.startswith("out") or overload.endswith("_out") or overload in ("grad_input", "values", "output"):
                row["why"] = "out variant: export functionalizes programs, so only functional overloads appear"
            elif name.endswith("_") and not name.startswith("__"):
                row["why"] = "in-place variant: export functionalizes it to the functional form"
            elif "backward" in name:
                row["why"] = "backward operator: an exported inference program has no autograd graph"
            else:
                row["why"] = "no OpInfo sample or extra case exports to it"
        ops.append(row)
    (OUT / "ops.json").write_text(json.dumps({"torch": torch.__version__, "table_size": len(ops), "ops": ops}, indent=1) + "\n")
    skipped_path.write_text(json.dumps(dict(sorted(skipped.items())), indent=1) + "\n")
    print(f"kept {len(cases)} cases; {sum(r['exportable'] for r in ops)} of {len(ops)} table ops exercised", file=sys.stderr)


if __name__ == "__main__":
    main()
