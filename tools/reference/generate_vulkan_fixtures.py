#!/usr/bin/env python3
"""Lower every zoo model with the official Vulkan partitioner, alone and ahead of XNNPACK.

For every testdata/zoo/<model>/model.pt2 this writes, under testdata/vulkan/<model>/:
  vulkan.json          to_edge_transform_and_lower(ep, partitioner=[VulkanPartitioner()]): the
                       delegation record (as generate_zoo.py writes it) and, per delegate, the
                       backend id, the blob's size and sha256, its VK00 graph decoded by the
                       official flatc (vulkan_graph_serialize.flatbuffer_to_vk_graph) and the
                       sha256 of each constant it stores inline or names
  vulkan_xnnpack.json  the same for [VulkanPartitioner(), XnnpackPartitioner()] with XNNPACK's
                       transform passes (what `etgo lower --partitioner vulkan --partitioner
                       xnnpack` runs: the union of each backend's recommended passes; Vulkan
                       recommends none)
  vulkan_noconv_xnnpack.json, vulkan_small.json
                       for the convolution models (CONV_MODELS): [VulkanPartitioner(
                       operator_blocklist=[convolution]), XnnpackPartitioner()] (a program with
                       delegates of both backends), and [VulkanPartitioner({"small_texture_limits":
                       True})]
  <variant>.pte        the official files, for the models whose .pte is under --max-pte bytes
and testdata/vulkan/manifest.json (versions, sha256 and size of every file).

A model the Vulkan lowering refuses is recorded with the error instead ("error").

Usage:
  python tools/reference/generate_vulkan_fixtures.py
  python tools/reference/generate_vulkan_fixtures.py --only add,mlp
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import importlib.metadata
import json
import shutil
import sys
import traceback
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate_zoo import delegate_ids, delegation_record, operator_names  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


def sha(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()


def to_jsonable(x):
    if dataclasses.is_dataclass(x):
        d = {"__type": type(x).__name__}
        for f in dataclasses.fields(x):
            d[f.name] = to_jsonable(getattr(x, f.name))
        return d
    if isinstance(x, (list, tuple)):
        return [to_jsonable(v) for v in x]
    if hasattr(x, "value") and hasattr(x, "name") and not isinstance(x, (int, float, str, bool)):
        return int(x.value)  # enums
    if isinstance(x, float) and (x != x or x in (float("inf"), float("-inf"))):
        return str(x)
    return x


def decode_graph(fb: bytes):
    """flatbuffer_to_vk_graph, but reading flatc's inf/nan doubles (masked_fill's -inf), which
    the official helper's json.load refuses."""
    import importlib.resources as resources
    import os
    import re
    import tempfile

    import executorch.backends.vulkan.serialization as serialization_package
    from executorch.backends.vulkan.serialization.vulkan_graph_schema import VkGraph
    from executorch.exir._serialize._dataclass import _json_to_dataclass
    from executorch.exir._serialize._flatbuffer import _flatc_decompile

    with tempfile.TemporaryDirectory() as d:
        schema = os.path.join(d, "schema.fbs")
        with open(schema, "wb") as f:
            f.write(resources.read_binary(serialization_package, "schema.fbs"))
        with open(os.path.join(d, "schema.bin"), "wb") as f:
            f.write(fb)
        _flatc_decompile(d, schema, os.path.join(d, "schema.bin"), ["--raw-binary"])
        text = open(os.path.join(d, "schema.json")).read()
    text = re.sub(r"(?<![A-Za-z_\"])(-?)inf(?![A-Za-z_\"])", lambda m: m.group(1) + "Infinity", text)
    text = re.sub(r"(?<![A-Za-z_\"])-?nan(?![A-Za-z_\"])", "NaN", text)
    return _json_to_dataclass(json.loads(text), VkGraph)


def describe_blob(blob: bytes, named: dict) -> dict:
    from executorch.backends.vulkan.serialization.vulkan_graph_serialize import (
        VulkanDelegateHeader,
    )

    h = VulkanDelegateHeader.from_bytes(blob[: VulkanDelegateHeader.EXPECTED_LENGTH])
    fb = blob[h.flatbuffer_offset : h.flatbuffer_offset + h.flatbuffer_size]
    raw = blob[h.bytes_offset : h.bytes_offset + h.bytes_size]
    g = decode_graph(fb)
    consts = []
    for c in g.constants:
        if c.named_key:
            data = named.get(c.named_key)
            consts.append({"named_key": c.named_key, "length": c.length,
                           "sha256": sha(data) if data is not None else None})
        else:
            consts.append({"offset": c.offset, "length": c.length,
                           "sha256": sha(raw[c.offset : c.offset + c.length])})
    return {
        "header": {"flatbuffer_offset": h.flatbuffer_offset, "flatbuffer_size": h.flatbuffer_size,
                   "bytes_offset": h.bytes_offset, "bytes_size": h.bytes_size},
        "flatbuffer_sha256": sha(fb),
        "graph": to_jsonable(g),
        "constants": consts,
    }


def named_data_of(edge) -> dict:
    # The named data every lowered module put in the program's store (weights by key).
    out = {}
    gm = edge.exported_program().graph_module
    for node in gm.graph.nodes:
        if node.op == "get_attr" and node.name.startswith("lowered_module_"):
            lm = getattr(gm, node.name)
            store = getattr(lm, "named_data_store_output", None)
            if store is None:
                continue
            for key, entry in store.pte_data.items():
                out[key] = bytes(store.buffers[entry.buffer_index])
    return out


def partitioners(variant: str):
    """The partitioner list and transform passes of a variant."""
    from executorch.backends.vulkan.partitioner.vulkan_partitioner import VulkanPartitioner
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.backends.xnnpack.utils.configs import get_transform_passes
    from executorch.exir.dialects._ops import ops as exir_ops

    if variant == "vulkan":
        return [VulkanPartitioner()], None
    if variant == "vulkan_xnnpack":
        return [VulkanPartitioner(), XnnpackPartitioner()], get_transform_passes()
    if variant == "vulkan_noconv_xnnpack":
        # Convolutions left to XNNPACK: one program with delegates of both backends.
        vk = VulkanPartitioner(operator_blocklist=[exir_ops.edge.aten.convolution.default])
        return [vk, XnnpackPartitioner()], get_transform_passes()
    if variant == "vulkan_small":
        return [VulkanPartitioner({"small_texture_limits": True})], None
    raise ValueError(variant)


# The variants every model is lowered with, and those only the convolution models are.
VARIANTS = ["vulkan", "vulkan_xnnpack"]
CONV_VARIANTS = ["vulkan_noconv_xnnpack", "vulkan_small"]
CONV_MODELS = {"conv_relu", "residual_cnn", "inverted_residual", "split_delegation"}


def lower(ep, variant: str):
    from executorch.exir import to_edge_transform_and_lower

    parts, transform = partitioners(variant)
    kwargs = {"transform_passes": transform} if transform is not None else {}
    return to_edge_transform_and_lower(ep, partitioner=parts, **kwargs)


def build_variant(ep, variant: str) -> tuple[dict, bytes | None]:
    edge = lower(ep, variant)
    record = delegation_record(edge)
    named = named_data_of(edge)
    gm = edge.exported_program().graph_module
    blobs = []
    for node in gm.graph.nodes:
        if node.op == "get_attr" and node.name.startswith("lowered_module_"):
            lm = getattr(gm, node.name)
            entry = {"name": node.name, "backend_id": lm.backend_id, "size": len(lm.processed_bytes),
                     "sha256": sha(lm.processed_bytes),
                     "compile_specs": {cs.key: cs.value.hex() for cs in lm.compile_specs}}
            if lm.backend_id == "VulkanBackend":
                entry.update(describe_blob(lm.processed_bytes, named))
            blobs.append(entry)
    record["blobs"] = blobs
    et = edge.to_executorch()
    record["operators"] = operator_names(et)
    record["delegates"] = delegate_ids(et)
    return record, et.buffer


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="", help="comma-separated zoo model names")
    ap.add_argument("--max-pte", type=int, default=200_000, help="commit the .pte files under this size")
    ap.add_argument("--manifest-only", action="store_true", help="only rebuild manifest.json from the files on disk")
    args = ap.parse_args()

    zoo = REPO / "testdata" / "zoo"
    out = REPO / "testdata" / "vulkan"
    only = {s for s in args.only.split(",") if s}
    models = sorted(p.name for p in zoo.iterdir() if (p / "model.pt2").exists() and (not only or p.name in only))
    out.mkdir(parents=True, exist_ok=True)
    if not only:
        for p in out.iterdir():
            if p.is_dir() and p.name not in models:
                shutil.rmtree(p)
    for name in [] if args.manifest_only else models:
        ep = torch.export.load(zoo / name / "model.pt2")
        d = out / name
        if d.exists():
            shutil.rmtree(d)
        d.mkdir(parents=True)
        for variant in VARIANTS + (CONV_VARIANTS if name in CONV_MODELS else []):
            try:
                record, pte = build_variant(ep, variant)
            except Exception as e:  # the official lowering refused the model
                record, pte = {"error": f"{type(e).__name__}: {e}", "traceback": traceback.format_exc(limit=4)}, None
            if pte is not None and len(pte) < args.max_pte:
                (d / f"{variant}.pte").write_bytes(pte)
            (d / f"{variant}.json").write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
            summary = record.get("error") or (
                f"{record['num_delegated_subgraphs']} delegates, {record['num_delegated_nodes']} nodes delegated, "
                f"{record['num_non_delegated_nodes']} not; {sorted(record['non_delegated_targets'])}")
            print(f"{name:26} {variant:15} {summary}", flush=True)

    files = {}
    for p in sorted(out.rglob("*")):
        # (corpus_plans.json has its own generator, generate_vulkan_corpus_plans.py.)
        if p.is_file() and p.name not in ("manifest.json", "corpus_plans.json"):
            data = p.read_bytes()
            files[p.relative_to(out).as_posix()] = {"sha256": sha(data), "size": len(data)}
    manifest = {"versions": {"torch": torch.__version__, "executorch": importlib.metadata.version("executorch")},
                "files": files}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
