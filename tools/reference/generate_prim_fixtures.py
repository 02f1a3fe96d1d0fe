#!/usr/bin/env python3
"""Programs whose shapes are known only at run time, lowered by the official toolchain.

A graph exported with a dynamic dim keeps symbolic sizes; to_executorch turns the size
arithmetic into primitive operators (aten::sym_size.int, executorch_prim::mul.Scalar, …) and
the views into executorch_prim::et_view. For each model this writes, under testdata/prim/<model>/:
  model.pt2                         torch.export.save of the exported program
  portable.pte                      to_edge + to_executorch, no partitioner
  inputs/<case>/input_<i>.npy       inputs at several sizes of the dynamic dim
  expected/<case>/output_<i>.npy    the official runtime's outputs (checked against eager here)
  operators.json                    the operators portable.pte lists

  python tools/reference/generate_prim_fixtures.py
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import torch
from torch.export import Dim, export

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "testdata" / "prim"


class DynamicView(torch.nn.Module):
    """Views, a slice and a scalar built from the dynamic batch size."""

    def forward(self, x):
        b = x.shape[0]
        y = x.view(b, -1) * 2.0  # sym_size.int, et_view
        z = y.reshape(b * 2, -1)  # mul.Scalar, et_view
        h = x.sum(dim=0) / (b // 2 + 1)  # floordiv.Scalar, add.Scalar, then a tensor of the symint
        return z + 1.0, h, torch.full((1,), 0.5) + b  # scalar_tensor of a symint


MODELS = {
    "dynamic_view": (DynamicView, (torch.randn(3, 4, 5),), ({0: Dim("batch", min=1, max=8)},),
                     {"batch3": 3, "batch5": 5, "batch8": 8}),
}


def main():
    from executorch.exir import to_edge
    from executorch.runtime import Runtime

    runtime = Runtime.get()
    g = torch.Generator().manual_seed(5)
    for name, (cls, example, dynamic, cases) in MODELS.items():
        d = OUT / name
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        model = cls().eval()
        ep = export(model, example, dynamic_shapes=dynamic)
        torch.export.save(ep, d / "model.pt2")
        et = to_edge(ep).to_executorch()
        (d / "portable.pte").write_bytes(et.buffer)
        program = runtime.load_program(et.buffer)
        method = program.load_method("forward")
        for case, batch in cases.items():
            x = torch.randn(batch, *example[0].shape[1:], generator=g)
            got = method.execute([x])
            want = model(x)
            (d / "inputs" / case).mkdir(parents=True)
            (d / "expected" / case).mkdir(parents=True)
            np.save(d / "inputs" / case / "input_0.npy", x.numpy())
            for i, (o, w) in enumerate(zip(got, want)):
                diff = float((o - w).abs().max())
                assert diff <= 1e-5, f"{name}/{case} output {i}: official runtime differs from eager by {diff}"
                np.save(d / "expected" / case / f"output_{i}.npy", o.numpy())
        ops = sorted({f"{op.name}.{op.overload}" if op.overload else op.name
                      for plan in et.executorch_program.execution_plan for op in plan.operators})
        (d / "operators.json").write_text(json.dumps(ops, indent=2) + "\n")
        print(name, "->", d, ops)


if __name__ == "__main__":
    main()
