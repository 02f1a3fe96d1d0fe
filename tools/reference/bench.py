#!/usr/bin/env python3
"""Time etgo against the official ExecuTorch runtime on the same .pte files, side by side.

For each file, rounds alternate between the official runtime (in this process, through
executorch.runtime) and `etgo bench --json` (a subprocess), so machine noise hits both alike. Both
run the same inputs (the zoo's fixed inputs), single-threaded unless --threads says otherwise
for the official runtime. Prints, per file, the medians and the ratio etgo/official, and
writes the raw numbers as JSON.

  python tools/reference/bench.py                         # every zoo portable.pte
  python tools/reference/bench.py --variant xnnpack --threads 1 testdata/zoo-full/*/xnnpack.pte
  python tools/reference/bench.py --official-only FILE.pte  # just the official timing
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

import numpy as np
import torch

REPO = Path(__file__).resolve().parents[2]


def zoo_inputs(pte: Path):
    d = pte.parent / "inputs"
    if not d.is_dir():
        return None
    return sorted(d.glob("input_*.npy"), key=lambda p: int(p.stem.split("_")[1]))


def official(pte: Path, inputs, warmup: int, iterations: int):
    from executorch.runtime import Runtime

    t0 = time.perf_counter()
    program = Runtime.get().load_program(str(pte))
    method = program.load_method("forward")
    load_ms = (time.perf_counter() - t0) * 1e3
    args = [torch.from_numpy(np.load(p)) for p in inputs]
    for _ in range(warmup):
        method.execute(args)
    times = []
    for _ in range(iterations):
        t = time.perf_counter()
        method.execute(args)
        times.append((time.perf_counter() - t) * 1e3)
    return load_ms, times


def set_official_threads(threads: int) -> int:
    """Size the official runtime's thread pool (XNNPACK's and the optimized kernels' threads) and
    return the size it reports. Call it before loading a program: a loaded XNNPACK delegate may
    keep the pool it was initialised with."""
    import executorch.extension.pybindings.portable_lib as pl

    pl._unsafe_reset_threadpool(threads)
    return pl._threadpool_get_thread_count()


def build_etgo(binary: Path | None = None) -> Path:
    """Build cmd/etgo once (bench runs it many times; `go run` would rebuild each time)."""
    binary = binary or Path(tempfile.mkdtemp()) / "etgo"
    subprocess.run(["go", "build", "-o", str(binary), "./cmd/etgo"], cwd=REPO, check=True)
    return binary


def ort(onnx_file: Path, inputs, warmup: int, iterations: int, threads: int):
    """ONNX Runtime on the same inputs: intra_op_num_threads=threads, sequential execution, all
    graph optimisations (its defaults otherwise). A session per call, as official() loads the
    program per call, so that no idle pool of one round spins during another's."""
    import onnxruntime

    so = onnxruntime.SessionOptions()
    so.intra_op_num_threads = max(threads, 1)
    so.inter_op_num_threads = 1
    so.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
    so.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
    t0 = time.perf_counter()
    sess = onnxruntime.InferenceSession(str(onnx_file), so, providers=["CPUExecutionProvider"])
    load_ms = (time.perf_counter() - t0) * 1e3
    feed = {i.name: np.load(p) for i, p in zip(sess.get_inputs(), inputs)}
    for _ in range(warmup):
        sess.run(None, feed)
    times = []
    for _ in range(iterations):
        t = time.perf_counter()
        sess.run(None, feed)
        times.append((time.perf_counter() - t) * 1e3)
    del sess
    return load_ms, times


def etgo(binary: Path, pte: Path, inputs, warmup: int, iterations: int, threads: int):
    cmd = [str(binary), "bench", str(pte), "--json", "--warmup", str(warmup), "--iterations", str(iterations),
           "--threads", str(max(threads, 1))]
    for p in inputs:
        cmd += ["--input", str(p)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr.strip()
    return json.loads(r.stdout), None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--variant", default="portable", help="zoo file to use when no files are given")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--iterations", type=int, default=30)
    ap.add_argument("--threads", type=int, default=1, help="threads for both runtimes (the official pool, etgo's XNNPACK)")
    ap.add_argument("--official-only", action="store_true")
    ap.add_argument("--json", type=Path, default=None, help="write raw results here")
    args = ap.parse_args()

    if args.threads > 0:
        set_official_threads(args.threads)
    files = args.files or sorted((REPO / "testdata" / "zoo").glob(f"*/{args.variant}.pte"))
    binary = None if args.official_only else build_etgo()

    results = []
    print(f"{'file':45} {'official ms':>12} {'etgo ms':>10} {'etgo/official':>14}")
    for pte in files:
        inputs = zoo_inputs(pte)
        if inputs is None:
            print(f"{str(pte):45} no inputs folder beside it; skipped")
            continue
        off, ours, err = [], [], None
        for _ in range(args.rounds):
            _, t = official(pte, inputs, args.warmup, args.iterations)
            off.append(statistics.median(t))
            if not args.official_only:
                r, err = etgo(binary, pte, inputs, args.warmup, args.iterations, args.threads)
                if err:
                    break
                ours.append(r["median_ms"])
        name = str(pte.relative_to(REPO)) if pte.is_relative_to(REPO) else str(pte)
        row = {"file": name, "official_median_ms": statistics.median(off), "official_rounds": off}
        if err:
            row["etgo_error"] = err.splitlines()[0]
            print(f"{name:45} {row['official_median_ms']:12.3f} {'error':>10}   {row['etgo_error'][:60]}")
        elif ours:
            row.update(etgo_median_ms=statistics.median(ours), etgo_rounds=ours,
                       ratio=statistics.median(ours) / statistics.median(off))
            print(f"{name:45} {row['official_median_ms']:12.3f} {row['etgo_median_ms']:10.3f} {row['ratio']:14.2f}")
        else:
            print(f"{name:45} {row['official_median_ms']:12.3f}")
        results.append(row)
    if args.json:
        args.json.write_text(json.dumps({"threads": args.threads, "results": results}, indent=1) + "\n")


if __name__ == "__main__":
    sys.exit(main())
