#!/usr/bin/env python3
"""Show that .pte files rewritten by etgo load and run identically in the official runtime.

For every zoo .pte (and every wild program beside the repository) this runs `etgo rewrite`, then
loads the original and the rewritten file with the official runtime on the same inputs (the zoo's
fixed inputs; for wild files, seeded random inputs of the method's declared shapes) and records:
whether each loaded, the max abs difference rewritten vs original, and (zoo) vs the committed
expected outputs. Writes testdata/rewrite_report.json and testdata/rewrite_report.md.

  python tools/reference/check_rewrites.py        # needs Go and the reference venv
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
WILD = REPO.parent / "shared" / "fixtures" / "wild"
NUMPY_DTYPES = {"float32": np.float32, "int32": np.int32, "int64": np.int64, "uint8": np.uint8,
                "uint16": np.uint16, "bool": np.bool_, "float16": np.float16}


def etgo(bin_path: Path, *args) -> subprocess.CompletedProcess:
    return subprocess.run([str(bin_path), *args], capture_output=True, text=True)


def wild_inputs(bin_path: Path, pte: Path):
    """Seeded inputs of the forward method's declared shapes, from `etgo inspect --json`."""
    r = json.loads(etgo(bin_path, "inspect", "--json", str(pte)).stdout)
    methods = {m["name"]: m for m in r["methods"]}
    m = methods.get("forward") or r["methods"][0]
    rng = np.random.default_rng(0)
    inputs = []
    for v in m["inputs"]:
        if v["type"] != "Tensor" or v["dtype"] not in NUMPY_DTYPES:
            return m["name"], None
        dt = NUMPY_DTYPES[v["dtype"]]
        a = rng.standard_normal(v["sizes"]) if np.issubdtype(dt, np.floating) else rng.integers(0, 3, v["sizes"])
        inputs.append(np.ascontiguousarray(a.astype(dt)))
    return m["name"], inputs


def check(bin_path: Path, name: str, pte: Path, inputs, expected, method: str, tmp: Path,
          calls: int = 1, data_path: Path | None = None) -> dict:
    out = tmp / (name.replace("/", "__").replace(":", "_"))
    rw = etgo(bin_path, "rewrite", str(pte), str(out))
    row = {"file": name, "rewrite": "ok" if rw.returncode == 0 else rw.stderr.strip()}
    if rw.returncode != 0:
        return row
    row["byte_identical"] = pte.read_bytes() == out.read_bytes()
    if inputs is None:
        row["note"] = "inputs not synthesizable; load only"
        inputs = []
    a, err_a = load_and_run(pte, inputs, method, calls, data_path)
    b, err_b = load_and_run(out, inputs, method, calls, data_path)
    row["original"] = err_a or "ok"
    row["rewritten"] = err_b or "ok"
    if a is not None and b is not None:
        row["max_abs_diff_rewritten_vs_original"] = max((max_abs_diff(x, y) for x, y in zip(a, b)), default=0.0)
        if len(a) != len(b):
            row["max_abs_diff_rewritten_vs_original"] = float("inf")
        if expected is not None:
            row["max_abs_diff_rewritten_vs_expected"] = max((max_abs_diff(x, y) for x, y in zip(b, expected)), default=0.0)
    return row


def main():
    tmp = Path(tempfile.mkdtemp())
    bin_path = tmp / "etgo"
    subprocess.run(["go", "build", "-o", str(bin_path), "./cmd/etgo"], cwd=REPO, check=True)
    rows = []
    for d in sorted((REPO / "testdata" / "zoo").iterdir()):
        if not d.is_dir():
            continue
        inputs = [np.load(p) for p in sorted((d / "inputs").glob("input_*.npy"), key=lambda p: int(p.stem.split("_")[1]))]
        for variant in ("portable", "xnnpack"):
            exp_dir = d / "expected" / variant
            expected = [np.load(p) for p in sorted(exp_dir.glob("output_*.npy"), key=lambda p: int(p.stem.split("_")[1]))]
            rows.append(check(bin_path, f"zoo/{d.name}/{variant}.pte", d / f"{variant}.pte", inputs, expected, "forward", tmp))
    fmt = REPO / "testdata" / "pte"
    for name, method, calls, outdir in [("external_constants", "forward", 1, "forward"), ("mutable_buffer", "forward", 2, "forward_call2"),
                                        ("multi_method", "forward", 1, "forward"), ("multi_method", "subtract", 1, "subtract")]:
        inputs = [np.load(p) for p in sorted((fmt / "inputs" / name).glob("input_*.npy"))]
        if name == "multi_method" and method == "forward":
            inputs = inputs[:1]
        expected = [np.load(p) for p in sorted((fmt / "outputs" / name / outdir).glob("output_*.npy"))]
        ptd = fmt / "_default_external_constant.ptd" if name == "external_constants" else None
        rows.append(check(bin_path, f"pte/{name}.pte:{method}", fmt / f"{name}.pte", inputs, expected, method, tmp, calls, ptd))
    if WILD.is_dir():
        for p in sorted(WILD.glob("*.pte")):
            method, inputs = wild_inputs(bin_path, p)
            rows.append(check(bin_path, f"wild/{p.name}", p, inputs, None, method, tmp))
    for r in rows:
        print(json.dumps(r))
    (REPO / "testdata" / "rewrite_report.json").write_text(json.dumps(rows, indent=1) + "\n")
    lines = ["# etgo-rewritten .pte files in the official runtime", "",
             "Made by `tools/reference/check_rewrites.py` (executorch 1.5.1): each file is rewritten by",
             "`etgo rewrite`, then the original and the rewrite run in the official runtime on the same inputs.", "",
             "| file | byte-identical | original | rewritten | max abs Δ rewritten vs original | vs expected |",
             "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['file']} | {r.get('byte_identical', '-')} | {r.get('original', r['rewrite'])} | "
                     f"{r.get('rewritten', '-')} | {r.get('max_abs_diff_rewritten_vs_original', '-')} | "
                     f"{r.get('max_abs_diff_rewritten_vs_expected', '-')} |")
    (REPO / "testdata" / "rewrite_report.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
