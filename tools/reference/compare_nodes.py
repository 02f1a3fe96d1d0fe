#!/usr/bin/env python3
"""Per-node time of an XNNPACK .pte, etgo against the official runtime, from both runtimes' ETDumps.

Both runtimes name a delegate's events as XNNPACK's profiler does ("Fully Connected (NC, F32)
GEMM #12"), so the same node can be timed in each: etgo through `etgo bench --etdump`, the
official runtime through executorch.runtime's enable_etdump. Rounds alternate the two at each
thread count; per node the minimum over the rounds is kept (the machine's noise only ever adds),
and the table gives, per operator class and for the nodes that lose the most time, etgo / official.

  ~/.venvs/et/bin/python tools/reference/compare_nodes.py testdata/bench-full/mobilenet_v2/xnnpack.pte
  ~/.venvs/et/bin/python tools/reference/compare_nodes.py FILE.pte --input x.npy --threads 1,2 --rounds 5

Node times miss what runs between nodes (etgo's per-node bookkeeping, the official runtime's
too), and a node etgo fuses into another (SiLU into a convolution) shows as missing or as a
slower producer; compare whole-model times with bench.py. Needs an etgo binary (--etgo, or
built from this checkout).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def events(etgo: Path, etdp: Path) -> dict[str, float]:
    """The mean ms of each delegate event of an ETDump's Execute blocks, by name."""
    out = subprocess.run([str(etgo), "inspect", str(etdp), "--json"], check=True, capture_output=True, text=True).stdout
    got = {}
    for e in json.loads(out)["events"]:
        name = e["name"]
        if e["block"] == "Execute" and name.startswith("[") and name.endswith("]"):
            got[name[1:-1]] = e["mean_ms"]
    return got


def official_etdump(pte: Path, inputs: list[Path], threads: int, runs: int, out: Path):
    import numpy as np
    import torch
    from executorch.extension.pybindings import portable_lib as pl
    from executorch.runtime import Runtime

    pl._unsafe_reset_threadpool(threads)
    program = Runtime.get().load_program(str(pte), enable_etdump=True)
    method = program.load_method("forward")
    args = [torch.from_numpy(np.load(p)) for p in inputs]
    for _ in range(runs):
        method.execute(args)
    program.write_etdump_result_to_file(str(out), str(out) + ".debug")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pte", type=Path)
    ap.add_argument("--input", type=Path, action="append", default=[], help="an input .npy, once per method input (default: inputs/input_*.npy beside the file)")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--runs", type=int, default=40, help="traced runs per round")
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--etgo", type=Path, default=None)
    args = ap.parse_args()

    inputs = args.input or sorted((args.pte.parent / "inputs").glob("input_*.npy"), key=lambda p: int(p.stem.split("_")[1]))
    if not inputs:
        sys.exit(f"{args.pte}: no --input and no inputs/ folder beside it")
    tmp = Path(tempfile.mkdtemp(prefix="compare_nodes_"))
    etgo = args.etgo
    if etgo is None:
        etgo = tmp / "etgo"
        subprocess.run(["go", "build", "-o", str(etgo), "./cmd/etgo"], cwd=REPO, check=True)

    for threads in [int(t) for t in args.threads.split(",")]:
        mins = {"etgo": {}, "official": {}}
        for r in range(args.rounds):
            e = tmp / f"etgo_{threads}_{r}.etdp"
            subprocess.run([str(etgo), "bench", str(args.pte), "--threads", str(threads), "--warmup", "5", "--iterations", str(args.runs),
                            "--etdump", str(e)] + sum([["--input", str(p)] for p in inputs], []), check=True, capture_output=True)
            o = tmp / f"official_{threads}_{r}.etdp"
            official_etdump(args.pte, inputs, threads, args.runs, o)
            for side, path in (("etgo", e), ("official", o)):
                for name, ms in events(etgo, path).items():
                    mins[side][name] = min(mins[side].get(name, float("inf")), ms)
        ours, theirs = mins["etgo"], mins["official"]
        te, to = sum(ours.values()), sum(theirs.values())
        print(f"== {threads} thread(s), {args.rounds} rounds: sum of node minima etgo {te:.3f} ms, official {to:.3f} ms, etgo/official {te / to:.3f}")
        classes = {}
        for name in sorted(set(ours) | set(theirs)):
            c = classes.setdefault(re.sub(r" #\d+$", "", name), [0.0, 0.0, 0])
            c[0] += ours.get(name, 0.0)
            c[1] += theirs.get(name, 0.0)
            c[2] += 1
        print(f"  {'operator':44} {'nodes':>5} {'etgo ms':>9} {'official':>9} {'ratio':>7}")
        for c, (x, y, n) in sorted(classes.items(), key=lambda kv: -kv[1][0]):
            ratio = f"{x / y:7.2f}" if y > 0 else "      -"
            print(f"  {c:44} {n:5d} {x:9.3f} {y:9.3f} {ratio}")
        only = sorted(set(ours) - set(theirs))
        if only:
            print(f"  only in etgo (fused or split differently): {', '.join(only[:6])}{' …' if len(only) > 6 else ''}")
        worst = sorted(theirs, key=lambda k: -(ours.get(k, 0.0) - theirs[k]))[: args.top]
        print("  nodes losing the most time:")
        for k in worst:
            if k in ours:
                print(f"    {k:44} etgo {ours[k]:.4f}  official {theirs[k]:.4f}  {ours[k] / theirs[k]:.2f}x")


if __name__ == "__main__":
    main()
