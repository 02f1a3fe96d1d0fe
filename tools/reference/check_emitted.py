#!/usr/bin/env python3
"""Run etgo-emitted portable-only .pte files in the OFFICIAL runtime and compare with eager.

For every zoo model, `go test ./emit -run TestZooEmit -args -write DIR` lowers model.pt2 with no
partitioner and emits DIR/<model>.pte with etgo; this script loads each with executorch.runtime,
runs it on the zoo's inputs and compares every output with expected/eager (max abs difference,
floats within 1e-4, integer and bool outputs exact, dtypes and shapes equal). The official
runtime is the oracle: a file it refuses or runs differently is an etgo bug.

Writes testdata/emitted_report.json (enforced by emit's TestEmittedReport) and prints one JSON
row per model.

  ~/.venvs/et/bin/python tools/reference/check_emitted.py     # needs Go and the reference venv
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_pte import load_and_run, max_abs_diff  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
TOL = 1e-4


def numbered(d: Path, prefix: str):
    return [np.load(p) for p in sorted(d.glob(prefix + "_*.npy"), key=lambda p: int(p.stem.split("_")[1]))]


def main() -> int:
    out = Path(tempfile.mkdtemp())
    subprocess.run(["go", "test", "./emit", "-run", "TestZooEmit", "-count=1", "-args", "-write", str(out)],
                   cwd=REPO, check=True)
    rows = []
    for d in sorted((REPO / "testdata" / "zoo").iterdir()):
        if not d.is_dir():
            continue
        pte = out / f"{d.name}.pte"
        row = {"model": d.name}
        if not pte.exists():
            row["run"] = "not emitted (TestZooEmit skipped the model)"
            rows.append(row)
            continue
        inputs = numbered(d / "inputs", "input")
        expected = numbered(d / "expected" / "eager", "output")
        got, err = load_and_run(pte, inputs)
        row["run"] = err or "ok"
        if got is not None:
            row["outputs"] = len(got)
            row["expected_outputs"] = len(expected)
            diffs, ok = [], len(got) == len(expected)
            for g, e in zip(got, expected):
                same_kind = g.dtype == e.dtype and g.shape == e.shape
                diff = max_abs_diff(g, e) if same_kind else float("inf")
                exact = not np.issubdtype(e.dtype, np.floating)
                diffs.append(diff)
                ok = ok and same_kind and (diff == 0 if exact else diff <= TOL)
            row["max_abs_diff_vs_eager"] = max(diffs, default=0.0)
            row["match"] = ok
        rows.append(row)
        print(json.dumps(row))
    (REPO / "testdata" / "emitted_report.json").write_text(json.dumps(rows, indent=1) + "\n")
    return 0 if all(r.get("match") for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
