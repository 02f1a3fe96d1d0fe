#!/usr/bin/env python3
"""The official runtime's native_layer_norm on a few shapes, bit for bit, for
kernels/optimized/layer_norm_official_test.go (writes kernels/optimized/testdata/layer_norm.json).

ExecuTorch 1.5.1's optimized layer norm (the one its pip runtime registers) runs the portable
scalar code (float sums of x and x², var = E[x²] − mean²) on rows shorter than 256 and
vectorized Welford moments on longer ones; the shapes cover both, the moments' chunk cascade
at depths 0 to 4, a scalar tail, with and without weight and bias, and float16, bfloat16 and
float64 on short rows (the scalar code in their types' conversions).

  ~/.venvs/et/bin/python tools/reference/generate_layer_norm_cases.py
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np
import torch

OUT = Path(__file__).resolve().parents[2] / "kernels" / "optimized" / "testdata" / "layer_norm.json"

# (rows, N, weight, bias, dtype, eps)
CASES = [
    (3, 24, True, True, torch.float32, 1e-6),
    (4, 192, True, True, torch.float32, 1e-6),
    (2, 255, False, False, torch.float32, 1e-5),
    (3, 256, True, True, torch.float32, 1e-5),
    (2, 300, True, False, torch.float32, 1e-5),
    (2, 640, False, True, torch.float32, 1e-6),
    (2, 768, False, False, torch.float32, 1e-5),
    (1, 1155, True, True, torch.float32, 1e-5),
    (2, 4099, True, True, torch.float32, 1e-5),
    (3, 40, True, True, torch.float16, 1e-6),
    (3, 40, True, True, torch.bfloat16, 1e-5),
    (2, 24, True, True, torch.float64, 1e-5),
]


class LN(torch.nn.Module):
    def __init__(self, n, eps, w, b):
        super().__init__()
        self.n, self.eps, self.w, self.b = n, eps, w, b

    def forward(self, x, w, b):
        return torch.ops.aten.native_layer_norm.default(x, [self.n], w if self.w else None, b if self.b else None, self.eps)


def enc(t):
    t = t.contiguous()
    raw = t.view(torch.int16).numpy().tobytes() if t.dtype in (torch.float16, torch.bfloat16) else t.numpy().tobytes()
    return {"dtype": str(t.dtype).removeprefix("torch."), "sizes": list(t.shape), "data": base64.b64encode(raw).decode()}


def main():
    from executorch.exir import to_edge
    from executorch.runtime import Runtime

    out = []
    for k, (rows, n, hw, hb, dt, eps) in enumerate(CASES):
        g = torch.Generator().manual_seed(1000 + k)
        x = (torch.randn(rows, n, generator=g) * 3 + 1).to(dt)
        w = torch.randn(n, generator=g).to(dt)
        b = torch.randn(n, generator=g).to(dt)
        ep = torch.export.export(LN(n, eps, hw, hb), (x, w, b))
        et = to_edge(ep).to_executorch()
        y, mean, rstd = Runtime.get().load_program(et.buffer).load_method("forward").execute([x, w, b])
        out.append({"name": f"{rows}x{n}/{str(dt).removeprefix('torch.')}/w{int(hw)}b{int(hb)}", "eps": eps,
                    "weight": hw, "bias": hb, "x": enc(x), "w": enc(w), "b": enc(b),
                    "y": enc(y), "mean": enc(mean), "rstd": enc(rstd)})
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(out) + "\n")
    print(f"{OUT}: {len(out)} cases, {OUT.stat().st_size} bytes")


if __name__ == "__main__":
    main()
