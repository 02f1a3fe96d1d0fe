#!/usr/bin/env python3
"""Time `etgo lower --plan` against the official to_edge_transform_and_lower, side by side.

For every zoo model.pt2, rounds alternate between the official lowering (in this process:
torch.export.load, then to_edge_transform_and_lower with XnnpackPartitioner and
get_transform_passes(); the load is outside the timed region) and `etgo lower --plan --json`
(a subprocess, so etgo's time includes starting the process and reading the archive). Models
etgo cannot lower yet are reported with etgo's error and timed on the official side only.

With --write both sides produce a .pte: the official side adds to_executorch() and serialises
the buffer, etgo runs `etgo lower -o` (preprocess and emission included). --torchvision NAME,...
exports those torchvision models at full size (random weights, 1×3×224×224) into a temporary
folder and times them.

  python tools/reference/time_lowering.py [--rounds 5] [--write] [--torchvision mobilenet_v2,resnet50,vit_b_16] [--json out.json] [MODEL.pt2 ...]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def official_once(pt2: Path, write: bool) -> float:
    import torch
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.backends.xnnpack.utils.configs import get_transform_passes
    from executorch.exir import to_edge_transform_and_lower

    ep = torch.export.load(str(pt2))
    start = time.perf_counter()
    edge = to_edge_transform_and_lower(ep, partitioner=[XnnpackPartitioner()], transform_passes=get_transform_passes())
    if write:
        len(edge.to_executorch().buffer)
    return time.perf_counter() - start


def etgo_once(etgo: Path, pt2: Path, write: bool, out: Path):
    cmd = [str(etgo), "lower", str(pt2), "-o", str(out)] if write else [str(etgo), "lower", str(pt2), "--plan", "--json"]
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        return None, proc.stderr.strip()
    if write:
        return elapsed, f"{out.stat().st_size} bytes"
    return elapsed, json.loads(proc.stdout)["summary"]


def export_torchvision(names, folder: Path):
    import torch
    import torchvision

    paths = []
    for name in names:
        torch.manual_seed(0)
        model = torchvision.models.get_model(name, weights=None).eval()
        ep = torch.export.export(model, (torch.randn(1, 3, 224, 224),))
        path = folder / name / "model.pt2"
        path.parent.mkdir(parents=True, exist_ok=True)
        torch.export.save(ep, path)
        paths.append(path)
    return paths


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("models", nargs="*", type=Path)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--write", action="store_true", help="time the whole lowering to a .pte on both sides")
    ap.add_argument("--torchvision", default="", help="comma list of torchvision models to export at full size and time")
    args = ap.parse_args()
    tmp = tempfile.TemporaryDirectory()
    models = list(args.models)
    if args.torchvision:
        models += export_torchvision([n for n in args.torchvision.split(",") if n], Path(tmp.name))
    models = models or sorted((REPO / "testdata" / "zoo").glob("*/model.pt2"))
    etgo = Path(tmp.name) / "etgo"
    subprocess.run(["go", "build", "-o", str(etgo), "./cmd/etgo"], cwd=REPO, check=True)

    results = []
    print(f"{'model':28} {'official ms':>12} {'etgo ms':>9} {'ratio':>6}  etgo plan")
    for pt2 in models:
        official_once(pt2, args.write)  # warm up imports and caches
        off, mine, note = [], [], ""
        for _ in range(args.rounds):
            off.append(official_once(pt2, args.write))
            t, note = etgo_once(etgo, pt2, args.write, Path(tmp.name) / "out.pte")
            if t is not None:
                mine.append(t)
        o = statistics.median(off) * 1e3
        m = statistics.median(mine) * 1e3 if mine else None
        name = pt2.parent.name
        if m is None:
            print(f"{name:28} {o:12.1f} {'-':>9} {'-':>6}  {note.splitlines()[-1][:90]}")
        else:
            print(f"{name:28} {o:12.1f} {m:9.1f} {m / o:6.3f}  {note}")
        results.append({"model": name, "official_ms": off, "etgo_ms": mine, "etgo": note})
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    sys.exit(main())
