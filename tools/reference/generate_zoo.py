#!/usr/bin/env python3
"""Build etgo's fixture zoo with the official ExecuTorch toolchain.

For every model of zoo.py this writes, under <out>/<model>/:
  model.pt2                      torch.export.save of the exported program
  portable.pte                   to_edge + to_executorch, no partitioner
  xnnpack.pte                    to_edge_transform_and_lower([XnnpackPartitioner()],
                                 transform_passes=get_transform_passes()) + to_executorch
  inputs/input_<i>.npy           the fixed seeded inputs
  expected/eager/output_<i>.npy  eager PyTorch outputs
  expected/portable/...          the official runtime (executorch.runtime) running portable.pte
  expected/xnnpack/...           the official runtime running xnnpack.pte
  delegation.json                the official delegation result (get_delegation_info), per-region
                                 targets, the operator and delegate lists of both .pte files, and
                                 the delegation result without the transform passes
and <out>/manifest.json: tool versions, and sha256 and size of every file.

Usage:
  python tools/reference/generate_zoo.py                 # committed zoo -> testdata/zoo
  python tools/reference/generate_zoo.py --full          # full-size models -> testdata/zoo-full (ignored)
  python tools/reference/generate_zoo.py --only mlp,add  # a subset (manifest is rebuilt from disk)
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import os
import platform
import shutil
import sys
import zlib
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
import zoo  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


def seed_of(name: str) -> int:
    # A stable per-model seed (Python's hash() is salted per process).
    return zlib.crc32(name.encode())


def as_tuple(x):
    if isinstance(x, (tuple, list)):
        return tuple(x)
    return (x,)


def save_npys(folder: Path, prefix: str, tensors):
    folder.mkdir(parents=True, exist_ok=True)
    for i, t in enumerate(tensors):
        if isinstance(t, torch.Tensor):
            t = t.detach().contiguous().numpy()
        np.save(folder / f"{prefix}_{i}.npy", np.ascontiguousarray(t), allow_pickle=False)


def target_name(target) -> str:
    name = getattr(target, "__name__", None) or str(target)
    # EdgeOpOverload and OpOverload both name themselves "<ns>.<op>.<overload>".
    return name


def operator_names(et_program) -> list[str]:
    """The operator table of every execution plan, as the runtime keys kernels: ns::op.overload."""
    names = []
    for plan in et_program.executorch_program.execution_plan:
        for op in plan.operators:
            names.append(op.name + ("." + op.overload if op.overload else ""))
    return names


def delegate_ids(et_program) -> list[str]:
    return [d.id for plan in et_program.executorch_program.execution_plan for d in plan.delegates]


def delegation_record(edge_manager) -> dict:
    from executorch.devtools.backend_debug import get_delegation_info

    gm = edge_manager.exported_program().graph_module
    info = get_delegation_info(gm)
    by_op = {
        k: {"delegated": v.delegated, "non_delegated": v.non_delegated}
        for k, v in sorted(info.delegation_by_operator.items())
    }
    # Our own per-target view (get_delegation_info keys by node *name*): the targets of every
    # region in graph order, the top-level targets that stayed outside, and the getitem count.
    regions, non_delegated, getitems = [], {}, 0
    for node in gm.graph.nodes:
        if node.op == "get_attr" and node.name.startswith("lowered_module_"):
            lm = getattr(gm, node.name)
            regions.append({
                "name": node.name,
                "backend_id": lm.backend_id,
                "targets": [target_name(n.target) for n in lm.original_module.graph.nodes if n.op == "call_function"],
            })
        elif node.op == "call_function":
            t = target_name(node.target)
            if t == "executorch_call_delegate":
                continue
            if t == "getitem":
                getitems += 1
                continue
            non_delegated[t] = non_delegated.get(t, 0) + 1
    return {
        "num_delegated_subgraphs": info.num_delegated_subgraphs,
        "num_delegated_nodes": info.num_delegated_nodes,
        "num_non_delegated_nodes": info.num_non_delegated_nodes,
        "delegation_by_operator": by_op,
        "regions": regions,
        "non_delegated_targets": dict(sorted(non_delegated.items())),
        "delegate_getitems": getitems,
    }


def run_official(pte: Path, inputs) -> list:
    from executorch.runtime import Runtime

    program = Runtime.get().load_program(str(pte))
    method = program.load_method("forward")
    return list(method.execute(list(inputs)))


def max_abs_diff(a, b) -> float:
    a = a.detach().numpy() if isinstance(a, torch.Tensor) else np.asarray(a)
    b = b.detach().numpy() if isinstance(b, torch.Tensor) else np.asarray(b)
    if a.shape != b.shape:
        return float("inf")
    if a.size == 0:
        return 0.0
    return float(np.max(np.abs(a.astype(np.float64) - b.astype(np.float64))))


def build(spec: zoo.Spec, out: Path) -> dict:
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.backends.xnnpack.utils.configs import get_transform_passes
    from executorch.exir import to_edge, to_edge_transform_and_lower

    seed = seed_of(spec.name)
    torch.manual_seed(seed)
    model = spec.build().eval()
    inputs = spec.inputs(torch.Generator().manual_seed(seed + 1))
    export_inputs = spec.export_inputs(torch.Generator().manual_seed(seed + 2)) if spec.export_inputs else inputs
    dynamic_shapes = spec.dynamic_shapes() if spec.dynamic_shapes else None

    d = out / spec.name
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)

    with torch.no_grad():
        ep = torch.export.export(model, export_inputs, dynamic_shapes=dynamic_shapes)
        eager = as_tuple(model(*inputs))
    torch.export.save(ep, d / "model.pt2")
    save_npys(d / "inputs", "input", inputs)
    save_npys(d / "expected" / "eager", "output", eager)

    portable = to_edge(ep).to_executorch()
    (d / "portable.pte").write_bytes(portable.buffer)

    edge = to_edge_transform_and_lower(ep, partitioner=[XnnpackPartitioner()], transform_passes=get_transform_passes())
    record = delegation_record(edge)
    # The same lowering without the recommended transform passes, so that tests can check where
    # the passes change the plan (e.g. RemoveNoopExpandCopyPass joining regions).
    bare = delegation_record(to_edge_transform_and_lower(ep, partitioner=[XnnpackPartitioner()]))
    record["without_transform_passes"] = {
        k: bare[k] for k in ("num_delegated_subgraphs", "num_delegated_nodes", "num_non_delegated_nodes", "non_delegated_targets")
    }
    xnn = edge.to_executorch()
    (d / "xnnpack.pte").write_bytes(xnn.buffer)

    record["operators"] = {"portable": operator_names(portable), "xnnpack": operator_names(xnn)}
    record["delegates"] = {"portable": delegate_ids(portable), "xnnpack": delegate_ids(xnn)}
    diffs = {}
    for variant in ("portable", "xnnpack"):
        outs = run_official(d / f"{variant}.pte", inputs)
        if len(outs) != len(eager):
            raise RuntimeError(f"{spec.name}/{variant}: {len(outs)} outputs, eager has {len(eager)}")
        save_npys(d / "expected" / variant, "output", outs)
        diffs[variant] = max(max_abs_diff(o, e) for o, e in zip(outs, eager))
    record["max_abs_diff_to_eager"] = diffs
    record["model"] = {"description": spec.description, "seed": seed, "dynamic": dynamic_shapes is not None}
    (d / "delegation.json").write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")
    return record


def write_manifest(out: Path):
    files = {}
    for p in sorted(out.rglob("*")):
        if p.is_file() and p.name != "manifest.json":
            data = p.read_bytes()
            files[p.relative_to(out).as_posix()] = {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
    manifest = {
        "versions": {
            "python": platform.python_version(),
            "torch": torch.__version__,
            "torchvision": importlib.metadata.version("torchvision"),
            "executorch": importlib.metadata.version("executorch"),
            "numpy": np.__version__,
        },
        "files": files,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--full", action="store_true", help="build the full-size benchmark models instead")
    ap.add_argument("--only", default="", help="comma-separated model names")
    ap.add_argument("--out", default=None, help="output folder (default testdata/zoo or testdata/zoo-full)")
    args = ap.parse_args()

    out = Path(args.out) if args.out else REPO / "testdata" / ("zoo-full" if args.full else "zoo")
    only = {s for s in args.only.split(",") if s}
    specs = [s for s in zoo.ZOO if s.full == args.full and (not only or s.name in only)]
    if only - {s.name for s in specs}:
        sys.exit(f"unknown model(s) for this set: {sorted(only - {s.name for s in specs})}")
    out.mkdir(parents=True, exist_ok=True)
    if not only:
        # A full rebuild drops models that left the zoo.
        known = {s.name for s in specs}
        for p in out.iterdir():
            if p.is_dir() and p.name not in known:
                shutil.rmtree(p)

    print(f"{'model':26} {'subgraphs':>9} {'deleg':>6} {'non-deleg':>9}  max|Δ| portable / xnnpack   non-delegated targets")
    for spec in specs:
        r = build(spec, out)
        nd = ", ".join(f"{k}×{v}" for k, v in r["non_delegated_targets"].items()) or "-"
        print(f"{spec.name:26} {r['num_delegated_subgraphs']:>9} {r['num_delegated_nodes']:>6} "
              f"{r['num_non_delegated_nodes']:>9}  {r['max_abs_diff_to_eager']['portable']:.2e} / "
              f"{r['max_abs_diff_to_eager']['xnnpack']:.2e}   {nd}", flush=True)
    write_manifest(out)


if __name__ == "__main__":
    main()
