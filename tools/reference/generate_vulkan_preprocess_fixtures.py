#!/usr/bin/env python3
"""Small programs for the parts of the official Vulkan preprocess the zoo does not exercise.

For every case below this writes testdata/vulkanpre/<case>/:
  model.pt2    the torch.export program (fp32, static shapes)
  vulkan.json  to_edge_transform_and_lower(ep, partitioner=[VulkanPartitioner()]), recorded as
               generate_vulkan_fixtures.py records it (delegation record, and per delegate the
               blob's sha256 and its decoded VK00 graph)
and testdata/vulkanpre/manifest.json (versions, sha256 and size of every file).

The cases aim at: SqueezeUnsqueezeInputs (relu/gelu on 3-D and 4-D tensors with inner unit
dims), FuseViewCopyTransform (view -> unary -> view chains), ViewCopyToSqueezeUnsqueezePass
(unsqueeze at dim 0 kept as a view, elsewhere converted; trailing squeezes kept), the builder's
scalar de-duplication (an int and an equal float share one value) and its empty-list quirk
(a defaulted empty int list), FuseClampPass with integer bounds and with a convolution read
twice, AddmmToLinearTransform on mm without bias and on 3-D linears.

Usage:
  python tools/reference/generate_vulkan_preprocess_fixtures.py
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import shutil
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate_vulkan_fixtures import build_variant  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "testdata" / "vulkanpre"


class Relu3dSqueeze(torch.nn.Module):
    def forward(self, x):
        return F.relu(x) * 2.0


class Relu4dSqueeze(torch.nn.Module):
    def forward(self, x):
        return F.relu(x) + x


class Gelu3dSqueeze(torch.nn.Module):
    def forward(self, x):
        return F.gelu(x) + 1.0


class ViewReluView(torch.nn.Module):
    def forward(self, x):
        y = x.view(6, 4)
        y = torch.relu(y)
        return y.view(2, 12) * 3.0


class Unsqueezes(torch.nn.Module):
    def forward(self, x):
        a = x.view(3, 1, 4) * 2.0   # unsqueeze at dim 1: becomes unsqueeze_copy
        b = x.view(1, 3, 4) + 1.0   # unsqueeze at dim 0: the official pass keeps the view
        c = x.view(3, 4, 1) - 1.0   # unsqueeze at the end
        return a, b, c


class Squeezes(torch.nn.Module):
    def forward(self, x):
        a = x.view(3, 4) * 2.0      # leading unit dim removed: squeeze_copy.dims
        b = x.view(3, 4, 1, 1).view(12) + 1.0
        return a, b


class ScalarDedup(torch.nn.Module):
    def forward(self, x, y):
        a = torch.add(x, y, alpha=2)
        return torch.clamp(a, min=2.0, max=6.0) * 1


class IntHardtanhConv(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3, padding=1)

    def forward(self, x):
        return F.hardtanh(self.conv(x), 0, 6)


class ConvReadTwice(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3, padding=1, bias=False)

    def forward(self, x):
        y = self.conv(x)
        return torch.relu(y) + y


class MaxPoolDefaults(torch.nn.Module):
    def forward(self, x):
        return F.max_pool2d(x, 2) + F.avg_pool2d(x, 2)


class MmNoBias(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(6, 8))

    def forward(self, x):
        return torch.relu(x @ self.w.t())


class Linear3d(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 5)

    def forward(self, x):
        return self.fc(x).relu()


class ConvLinear(torch.nn.Module):
    """A channels-packed convolution output read by width-packed operators: transitions."""

    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(2, 3, 1)
        self.fc = torch.nn.Linear(4, 4)

    def forward(self, x):
        y = self.conv(x)
        return self.fc(y), y.sum(dim=-1)


CASES = {
    "relu3d_squeeze": (Relu3dSqueeze, [(4, 1, 8)]),
    "relu4d_squeeze": (Relu4dSqueeze, [(2, 1, 4, 4)]),
    "gelu3d_squeeze": (Gelu3dSqueeze, [(3, 1, 16)]),
    "view_relu_view": (ViewReluView, [(2, 3, 4)]),
    "unsqueezes": (Unsqueezes, [(3, 4)]),
    "squeezes": (Squeezes, [(1, 3, 4)]),
    "scalar_dedup": (ScalarDedup, [(2, 5), (2, 5)]),
    "int_hardtanh_conv": (IntHardtanhConv, [(1, 3, 8, 8)]),
    "conv_read_twice": (ConvReadTwice, [(1, 3, 8, 8)]),
    "maxpool_defaults": (MaxPoolDefaults, [(1, 2, 8, 8)]),
    "mm_nobias": (MmNoBias, [(3, 8)]),
    "linear3d": (Linear3d, [(2, 3, 8)]),
    "conv_linear": (ConvLinear, [(1, 2, 4, 4)]),
}


def sha(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()


def main():
    torch.manual_seed(0)
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    for name, (cls, shapes) in CASES.items():
        m = cls().eval()
        args = tuple(torch.randn(*s) for s in shapes)
        ep = torch.export.export(m, args)
        d = OUT / name
        d.mkdir()
        torch.export.save(ep, d / "model.pt2")
        ep = torch.export.load(d / "model.pt2")
        try:
            record, _ = build_variant(ep, "vulkan")
        except Exception as e:  # the official lowering refused the program
            record = {"error": f"{type(e).__name__}: {e}"}
        (d / "vulkan.json").write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
        print(name, record.get("error") or [b["name"] for b in record["blobs"]], flush=True)
    files = {}
    for p in sorted(OUT.rglob("*")):
        if p.is_file() and p.name != "manifest.json":
            data = p.read_bytes()
            files[p.relative_to(OUT).as_posix()] = {"sha256": sha(data), "size": len(data)}
    manifest = {"versions": {"torch": torch.__version__, "executorch": importlib.metadata.version("executorch")},
                "files": files}
    (OUT / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
