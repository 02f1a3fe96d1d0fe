#!/usr/bin/env python3
"""Show that .pte files lowered by etgo from model.pt2 run in the official runtime.

For every zoo model this runs `etgo lower model.pt2 --partitioner xnnpack -o OUT.pte` (recommended
transform passes), times it against the official to_edge_transform_and_lower + to_executorch on
the same .pt2, loads the etgo file with the official runtime (executorch.runtime), runs the
zoo's inputs and records: whether it loaded, the max abs difference to expected/eager, the
number of delegate calls next to the official xnnpack.pte's, planned memory next to the
official's, and the sha256 of the etgo file. Writes testdata/lowered_report.json and
testdata/lowered_report.md (TestLoweredReport enforces the result and that the recorded
sha256 is what etgo lowers today).

  python tools/reference/check_lowered.py        # needs Go and the reference venv
"""

from __future__ import annotations

import hashlib
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_pte import load_and_run, max_abs_diff  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


def inspect(bin_path: Path, pte: Path) -> dict:
    r = subprocess.run([str(bin_path), "inspect", "--json", str(pte)], capture_output=True, text=True, check=True)
    m = json.loads(r.stdout)["methods"][0]
    return {"delegate_calls": m["delegate_calls"], "kernel_calls": m["kernel_calls"],
            "planned_bytes": sum(m["planned_buffers"])}


def official_lowering_seconds(pt2: Path) -> float:
    """Wall time of the official TEL + to_executorch + serialisation, as generate_zoo.py lowers."""
    code = f"""
import time, torch
from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
from executorch.backends.xnnpack.utils.configs import get_transform_passes
from executorch.exir import to_edge_transform_and_lower
ep = torch.export.load({str(pt2)!r})
t = time.perf_counter()
pte = to_edge_transform_and_lower(ep, transform_passes=get_transform_passes(), partitioner=[XnnpackPartitioner()]).to_executorch().buffer
print(time.perf_counter() - t)
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(r.stdout.strip().splitlines()[-1])


def main():
    tmp = Path(tempfile.mkdtemp())
    bin_path = tmp / "etgo"
    subprocess.run(["go", "build", "-o", str(bin_path), "./cmd/etgo"], cwd=REPO, check=True)
    rows = []
    for d in sorted((REPO / "testdata" / "zoo").iterdir()):
        if not d.is_dir():
            continue
        out = tmp / f"{d.name}.pte"
        times = []
        for _ in range(3):
            t = time.perf_counter()
            r = subprocess.run([str(bin_path), "lower", str(d / "model.pt2"), "--partitioner", "xnnpack", "-o", str(out)],
                               capture_output=True, text=True)
            times.append(time.perf_counter() - t)
        row = {"model": d.name, "lower": "ok" if r.returncode == 0 else r.stderr.strip()}
        if r.returncode != 0:
            rows.append(row)
            continue
        row["sha256"] = hashlib.sha256(out.read_bytes()).hexdigest()
        row["bytes"] = out.stat().st_size
        row["etgo_lower_seconds"] = round(statistics.median(times), 4)
        row["official_lower_seconds"] = round(official_lowering_seconds(d / "model.pt2"), 4)
        ours, theirs = inspect(bin_path, out), inspect(bin_path, d / "xnnpack.pte")
        row["delegate_calls"], row["official_delegate_calls"] = ours["delegate_calls"], theirs["delegate_calls"]
        row["kernel_calls"], row["official_kernel_calls"] = ours["kernel_calls"], theirs["kernel_calls"]
        row["planned_bytes"], row["official_planned_bytes"] = ours["planned_bytes"], theirs["planned_bytes"]
        inputs = [np.load(p) for p in sorted((d / "inputs").glob("input_*.npy"), key=lambda p: int(p.stem.split("_")[1]))]
        expected = [np.load(p) for p in sorted((d / "expected" / "eager").glob("output_*.npy"), key=lambda p: int(p.stem.split("_")[1]))]
        outs, err = load_and_run(out, inputs)
        row["official_runtime"] = err or "ok"
        if outs is not None:
            row["outputs"] = len(outs)
            row["max_abs_diff_vs_eager"] = max((max_abs_diff(x, y) for x, y in zip(outs, expected)), default=0.0)
            if len(outs) != len(expected):
                row["max_abs_diff_vs_eager"] = float("inf")
        print(json.dumps(row), flush=True)
        rows.append(row)
    (REPO / "testdata" / "lowered_report.json").write_text(json.dumps(rows, indent=1) + "\n")
    lines = ["# etgo-lowered .pte files in the official runtime", "",
             "Made by `tools/reference/check_lowered.py` (executorch 1.5.1): `etgo lower model.pt2 --partitioner xnnpack -o`",
             "for every zoo model, run by the official runtime on the zoo inputs and compared with eager PyTorch.",
             "Lowering time: etgo end to end (median of 3, process start included) vs the official",
             "to_edge_transform_and_lower + to_executorch + serialisation (one run, after torch import).", "",
             "| model | official runtime | max abs Δ vs eager | delegate calls (official) | kernel calls (official) | planned bytes (official) | lower s etgo / official |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['model']} | {r.get('official_runtime', r['lower'])} | {r.get('max_abs_diff_vs_eager', '-')} | "
                     f"{r.get('delegate_calls', '-')} ({r.get('official_delegate_calls', '-')}) | "
                     f"{r.get('kernel_calls', '-')} ({r.get('official_kernel_calls', '-')}) | "
                     f"{r.get('planned_bytes', '-')} ({r.get('official_planned_bytes', '-')}) | "
                     f"{r.get('etgo_lower_seconds', '-')} / {r.get('official_lower_seconds', '-')} |")
    (REPO / "testdata" / "lowered_report.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
