#!/usr/bin/env python3
"""Load a .pte with the official ExecuTorch runtime and run it on .npy inputs.

  python tools/reference/run_pte.py FILE.pte --input a.npy [--input b.npy ...]
                                   [--expected o0.npy ...] [--method forward] [--output-dir DIR]

Prints whether the program and method loaded (with the runtime's error if not), then, per
output, dtype and shape and, when --expected is given, the max abs difference. Exits 0 when it
loaded, ran, and every expected output matched within --atol; 1 otherwise.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import torch


def load_and_run(pte: Path, inputs, method: str = "forward", calls: int = 1, data_path: Path | None = None):
    """Returns (outputs of the last of `calls` executions, None) or (None, error message)."""
    from executorch.runtime import Runtime

    try:
        program = Runtime.get().load_program(str(pte), data_path=str(data_path) if data_path else None)
        m = program.load_method(method)
    except Exception as e:  # the runtime raises RuntimeError with its hex error code
        return None, f"load failed: {type(e).__name__}: {e}"
    try:
        for _ in range(calls):
            outs = m.execute([torch.from_numpy(np.ascontiguousarray(a)) for a in inputs])
    except Exception as e:
        return None, f"execute failed: {type(e).__name__}: {e}"
    return [o.numpy() if isinstance(o, torch.Tensor) else np.asarray(o) for o in outs], None


def max_abs_diff(a: np.ndarray, b: np.ndarray) -> float:
    if a.shape != b.shape:
        return float("inf")
    if a.size == 0:
        return 0.0
    return float(np.max(np.abs(a.astype(np.float64) - b.astype(np.float64))))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pte", type=Path)
    ap.add_argument("--input", action="append", default=[], type=Path)
    ap.add_argument("--expected", action="append", default=[], type=Path)
    ap.add_argument("--method", default="forward")
    ap.add_argument("--atol", type=float, default=1e-4)
    ap.add_argument("--output-dir", type=Path)
    ap.add_argument("--data-path", type=Path, help=".ptd file with the program's external data")
    ap.add_argument("--calls", type=int, default=1, help="execute this many times, report the last")
    args = ap.parse_args()

    outs, err = load_and_run(args.pte, [np.load(p) for p in args.input], args.method, args.calls, args.data_path)
    if err:
        print(f"{args.pte}: {err}")
        return 1
    print(f"{args.pte}: loaded, {len(outs)} output(s)")
    ok = True
    if args.expected and len(args.expected) != len(outs):
        print(f"  {len(outs)} outputs but {len(args.expected)} expected")
        ok = False
    for i, o in enumerate(outs):
        line = f"  output {i}: {o.dtype}{list(o.shape)}"
        if i < len(args.expected):
            d = max_abs_diff(o, np.load(args.expected[i]))
            line += f" max|Δ| {d:.3g}"
            ok = ok and d <= args.atol
        print(line)
        if args.output_dir:
            args.output_dir.mkdir(parents=True, exist_ok=True)
            np.save(args.output_dir / f"output_{i}.npy", o)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
