#!/usr/bin/env python3
"""Small programs with delegates of two backends and portable fallback, made by the official
toolchain: the fixtures of etgo's per-backend reporting (inspect, plan, coverage, pictures).

For every model of MODELS this writes, under testdata/mixed/<model>/:
  model.pt2                     torch.export.save of the exported program
  inputs/input_<i>.npy          the fixed seeded inputs
  expected/eager/output_<i>.npy eager PyTorch outputs
  <variant>.pte                 to_edge_transform_and_lower(ep, partitioner=<variant's list>,
                                transform_passes=XNNPACK's) + to_executorch
  <variant>.json                the official delegation record (generate_zoo.delegation_record),
                                each delegate's backend id, compile specs and (Vulkan) decoded VK00
                                graph (generate_vulkan_fixtures.build_variant), the operator and
                                delegate lists of the .pte, and "official_run": the official
                                runtime's outputs' max |diff| to eager, or the error it refused with
  expected/<variant>/output_<i>.npy
                                the official runtime's outputs, when it can run the file (the pip
                                wheel is built without the Vulkan backend: then "official_run"
                                holds the load error and there are no outputs)
and testdata/mixed/manifest.json (versions, sha256 and size of every file).

The variants are generate_vulkan_fixtures.py's:
  vulkan_xnnpack         [VulkanPartitioner(), XnnpackPartitioner()]
  vulkan_noconv_xnnpack  [VulkanPartitioner(operator_blocklist=[convolution]), XnnpackPartitioner()]
                         (convolutions left to XNNPACK, so both backends get regions)

Usage:
  python tools/reference/generate_mixed_backends.py
  python tools/reference/generate_mixed_backends.py --only conv_head
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import shutil
import sys
import traceback
from pathlib import Path

import torch
import torch.nn as nn

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate_vulkan_fixtures import build_variant  # noqa: E402
from generate_zoo import as_tuple, max_abs_diff, run_official, save_npys, seed_of  # noqa: E402
from zoo import Spec, randn  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


class ConvHead(nn.Module):
    """A convolution stem (XNNPACK's once the Vulkan partitioner blocks convolutions), ReLU and a
    linear head (Vulkan's), and a cumsum between them that neither takes (portable)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.fc = nn.Linear(8 * 8 * 8, 10)

    def forward(self, x):
        x = torch.relu(self.conv(x))
        x = torch.cumsum(x, dim=3)
        return self.fc(torch.flatten(x, 1))


class MaxHead(nn.Module):
    """Linear layers (Vulkan's) around a max over a dim, values only (the Vulkan partitioner
    declines it, XNNPACK takes it as a max pooling), and a cumsum (portable): two backends and
    the fallback with no operator blocked."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 16)
        self.fc2 = nn.Linear(8, 8)

    def forward(self, x):
        x = torch.relu(self.fc1(x))  # [1, 4, 8, 16]
        x = torch.max(x, dim=3, keepdim=True).values  # [1, 4, 8, 1]
        x = torch.cumsum(x.reshape(1, 4, 8), dim=1)
        return self.fc2(x)


MODELS = [
    Spec("conv_head", "conv + ReLU (XNNPACK with convolutions blocked in Vulkan), cumsum (portable), linear (Vulkan)",
         ConvHead, lambda g: (randn(g, 1, 3, 8, 8),)),
    Spec("max_head", "linears (Vulkan) around max over a dim (XNNPACK) and a cumsum (portable)",
         MaxHead, lambda g: (randn(g, 1, 4, 8, 16),)),
]

VARIANTS = {"conv_head": ["vulkan_noconv_xnnpack", "vulkan_xnnpack"], "max_head": ["vulkan_xnnpack"]}


def sha(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()


def build(spec: Spec, out: Path) -> None:
    seed = seed_of(spec.name)
    torch.manual_seed(seed)
    model = spec.build().eval()
    inputs = spec.inputs(torch.Generator().manual_seed(seed + 1))
    d = out / spec.name
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    with torch.no_grad():
        ep = torch.export.export(model, inputs)
        eager = as_tuple(model(*inputs))
    torch.export.save(ep, d / "model.pt2")
    save_npys(d / "inputs", "input", inputs)
    save_npys(d / "expected" / "eager", "output", eager)
    for variant in VARIANTS[spec.name]:
        record, pte = build_variant(ep, variant)
        (d / f"{variant}.pte").write_bytes(pte)
        try:
            outs = run_official(d / f"{variant}.pte", inputs)
            save_npys(d / "expected" / variant, "output", outs)
            record["official_run"] = {"max_abs_diff_to_eager": max(max_abs_diff(o, e) for o, e in zip(outs, eager))}
        except Exception as e:  # the wheel's runtime lacks a backend
            from executorch.runtime import Runtime

            have = sorted(Runtime.get().backend_registry.registered_backend_names)
            missing = sorted(set(record["delegates"]) - set(have))
            record["official_run"] = {"error": f"{type(e).__name__}: {e}".strip()[:400],
                                      "runtime_backends": have, "missing_backends": missing}
        record["model"] = {"description": spec.description, "seed": seed}
        (d / f"{variant}.json").write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
        regions = [f"{r['backend_id']}{len(r['targets'])}" for r in record["regions"]]
        print(f"{spec.name:12} {variant:22} regions {regions}, outside {record['non_delegated_targets']}, "
              f"official run {record['official_run']}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="", help="comma-separated model names")
    args = ap.parse_args()
    only = {s for s in args.only.split(",") if s}
    out = REPO / "testdata" / "mixed"
    out.mkdir(parents=True, exist_ok=True)
    for spec in MODELS:
        if not only or spec.name in only:
            try:
                build(spec, out)
            except Exception:
                traceback.print_exc()
                sys.exit(f"{spec.name}: the official lowering failed")
    files = {}
    for p in sorted(out.rglob("*")):
        if p.is_file() and p.name != "manifest.json":
            data = p.read_bytes()
            files[p.relative_to(out).as_posix()] = {"sha256": sha(data), "size": len(data)}
    manifest = {"versions": {"torch": torch.__version__, "executorch": importlib.metadata.version("executorch")},
                "files": files}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
