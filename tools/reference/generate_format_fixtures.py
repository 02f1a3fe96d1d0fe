#!/usr/bin/env python3
"""Small .pte files, made by the official toolchain, for reader paths the zoo does not reach.

testdata/pte/:
  external_constants.pte (+ _default_external_constant.ptd)  weights kept outside the .pte
  mutable_buffer.pte       a registered buffer updated in forward: mutable data segment
  multi_method.pte         two methods plus constant methods (prim getters)
  outputs/<file>/<method>/output_<i>.npy and inputs/<file>/input_<i>.npy: the official runtime's
                           results, for the runtime issue (mutable buffer: two calls)
  manifest.json            versions, sha256 and size of every file

  python tools/reference/generate_format_fixtures.py
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import platform
import shutil
import sys
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "testdata" / "pte"


class Linear(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)

    def forward(self, x):
        return self.fc(x)


class Accumulator(nn.Module):
    """Adds each input into a persistent state and returns the new state."""

    def __init__(self):
        super().__init__()
        self.register_buffer("state", torch.arange(6, dtype=torch.float32).reshape(2, 3))

    def forward(self, x):
        self.state.add_(x)
        return self.state * 1.0


class TwoMethods(nn.Module):
    def forward(self, x):
        return x * 2.0


class Other(nn.Module):
    def forward(self, x, y):
        return x - y


def save_npys(folder: Path, prefix: str, arrays):
    folder.mkdir(parents=True, exist_ok=True)
    for i, a in enumerate(arrays):
        a = a.numpy() if isinstance(a, torch.Tensor) else np.asarray(a)
        np.save(folder / f"{prefix}_{i}.npy", np.ascontiguousarray(a))


def run_official(pte: Path, method: str, inputs, calls: int = 1, data_path: Path | None = None):
    from executorch.runtime import Runtime

    program = Runtime.get().load_program(str(pte), data_path=str(data_path) if data_path else None)
    m = program.load_method(method)
    outs = None
    for _ in range(calls):
        outs = m.execute(list(inputs))
    return list(outs)


def main():
    from executorch.exir import ExecutorchBackendConfig, to_edge

    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    torch.manual_seed(7)

    # External constants: the weights go to a .ptd named after the default tag.
    x = torch.randn(2, 4, generator=torch.Generator().manual_seed(1))
    ep = torch.export.export(Linear().eval(), (x,))
    et = to_edge(ep).to_executorch(ExecutorchBackendConfig(external_constants=True))
    (OUT / "external_constants.pte").write_bytes(et.buffer)
    et.write_tensor_data_to_file(str(OUT))
    ptds = sorted(OUT.glob("*.ptd"))
    save_npys(OUT / "inputs" / "external_constants", "input", [x])
    save_npys(OUT / "outputs" / "external_constants" / "forward", "output",
              run_official(OUT / "external_constants.pte", "forward", [x], data_path=ptds[0]))

    # A mutable buffer with initial state: mutable_data_segments; run twice to show the state.
    x = torch.ones(2, 3)
    ep = torch.export.export(Accumulator(), (x,))
    from executorch.exir.passes.init_mutable_pass import InitializedMutableBufferPass

    # InitializedMutableBufferPass keeps the buffer's initial value (else only shape and dtype).
    et = to_edge(ep).to_executorch(ExecutorchBackendConfig(
        emit_mutable_buffer_names=True, passes=[InitializedMutableBufferPass(["state"])]))
    (OUT / "mutable_buffer.pte").write_bytes(et.buffer)
    save_npys(OUT / "inputs" / "mutable_buffer", "input", [x])
    save_npys(OUT / "outputs" / "mutable_buffer" / "forward_call2", "output",
              run_official(OUT / "mutable_buffer.pte", "forward", [x], calls=2))

    # Two methods and constant methods.
    a = torch.randn(3, generator=torch.Generator().manual_seed(2))
    b = torch.randn(3, generator=torch.Generator().manual_seed(3))
    progs = {"forward": torch.export.export(TwoMethods(), (a,)), "subtract": torch.export.export(Other(), (a, b))}
    et = to_edge(progs, constant_methods={"get_answer": 42, "get_scale": 0.5, "get_flag": True}).to_executorch()
    (OUT / "multi_method.pte").write_bytes(et.buffer)
    save_npys(OUT / "inputs" / "multi_method", "input", [a, b])
    save_npys(OUT / "outputs" / "multi_method" / "forward", "output", run_official(OUT / "multi_method.pte", "forward", [a]))
    save_npys(OUT / "outputs" / "multi_method" / "subtract", "output", run_official(OUT / "multi_method.pte", "subtract", [a, b]))

    files = {}
    for p in sorted(OUT.rglob("*")):
        if p.is_file():
            data = p.read_bytes()
            files[p.relative_to(OUT).as_posix()] = {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
    manifest = {"versions": {"python": platform.python_version(), "torch": torch.__version__,
                             "executorch": importlib.metadata.version("executorch")}, "files": files}
    (OUT / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    for k, v in files.items():
        print(f"{v['size']:8d}  {k}")


if __name__ == "__main__":
    sys.exit(main())
