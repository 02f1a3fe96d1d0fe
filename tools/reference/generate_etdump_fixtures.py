#!/usr/bin/env python3
"""ETDump fixtures: the official runtime's ETDump of zoo programs, and the official Inspector's
reading of etgo's.

  ~/.venvs/et/bin/python tools/reference/generate_etdump_fixtures.py [--models split_delegation,mobilenet_v2_small]

For each model (testdata/zoo/NAME/xnnpack.pte on its committed inputs):
1. the official runtime (pybindings, enable_etdump) loads it and runs it twice, and writes
   devtools/etdump/testdata/official_NAME.etdp;
2. `etgo bench FILE --iterations 2 --warmup 0 --etdump OUT` writes etgo's ETDump, which
   executorch.devtools.Inspector opens; its event blocks and events (name, how many samples,
   delegated or not) go to devtools/etdump/testdata/inspector_NAME.json, with the same for the
   official file, so the Go tests (which never need Python) hold etgo's ETDump to what the
   Inspector read from it, and to the official runtime's.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np
import torch

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "devtools" / "etdump" / "testdata"


def official_etdump(pte: Path, inputs: list[Path], out: Path) -> None:
    from executorch.extension.pybindings.portable_lib import _load_for_executorch

    m = _load_for_executorch(str(pte), enable_etdump=True)
    xs = [torch.from_numpy(np.load(p)) for p in inputs]
    for _ in range(2):
        m.forward(xs)
    m.write_etdump_result_to_file(str(out))


def inspector_view(etdp: Path) -> list[dict]:
    from executorch.devtools import Inspector

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "Output Buffer not found": no debug buffer was asked for
        ins = Inspector(etdump_path=str(etdp))
    blocks = []
    for b in ins.event_blocks:
        blocks.append({
            "name": b.name,
            "events": [{"name": e.name, "samples": len(e.perf_data.raw) if e.perf_data else 0,
                        "delegated": bool(e.is_delegated_op)} for e in b.events],
        })
    return blocks


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default="split_delegation,mobilenet_v2_small")
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as d:
        etgo = Path(d) / "etgo"
        subprocess.run(["go", "build", "-o", str(etgo), "./cmd/etgo"], cwd=ROOT, check=True)
        for name in args.models.split(","):
            zoo = ROOT / "testdata" / "zoo" / name
            pte = zoo / "xnnpack.pte"
            inputs = sorted((zoo / "inputs").glob("input_*.npy"))
            off = OUT / f"official_{name}.etdp"
            official_etdump(pte, inputs, off)
            ours = Path(d) / f"{name}.etdp"
            cmd = [str(etgo), "bench", str(pte), "--iterations", "2", "--warmup", "0", "--etdump", str(ours)]
            for p in inputs:
                cmd += ["--input", str(p)]
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            view = {"model": name, "etgo": inspector_view(ours), "official": inspector_view(off)}
            (OUT / f"inspector_{name}.json").write_text(json.dumps(view, indent=1) + "\n")
            print(f"{name}: official {off.stat().st_size} bytes; the Inspector read etgo's file as "
                  f"{sum(len(b['events']) for b in view['etgo'])} events in {len(view['etgo'])} blocks "
                  f"(official: {sum(len(b['events']) for b in view['official'])} in {len(view['official'])})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
