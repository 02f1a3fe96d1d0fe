"""Writes kernels/portable/testdata/numerics.json.gz: a differential sweep of etgo's portable
float unary operators and float reductions against the official runtime's own kernels.

Each case is a one-instruction program (built with ExecuTorch's schema dataclasses by
generate_quantized_kernel_fixtures.py's build, run by its run_official in a forked child) whose
input is a constant: float32 values that cover ±0, denormals,
±Inf, NaN, huge and near-1 values and random ones, plus float16/bfloat16 copies. The official
runtime runs it (portable kernels; exp.out, sum.IntList_out and _log_softmax.out are served by
the optimized library in the official runtime and are left to kernels/optimized); the outputs'
bytes are recorded. kernels/portable/numerics_test.go replays every case bit for bit.

    ~/.venvs/et/bin/python tools/reference/generate_portable_numerics.py
"""
import base64
import gzip
import json
import math
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import generate_quantized_kernel_fixtures as Q  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "kernels" / "portable" / "testdata" / "numerics.json.gz"

UNARY = ["acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "erf", "expm1", "log",
         "log10", "log1p", "log2", "reciprocal", "rsqrt", "sigmoid", "sin", "sinh", "sqrt", "tan", "tanh"]
# (plus logit below; exp, gelu, elu, sum and _log_softmax are the optimized library's in the
# official runtime, and silu, hardsigmoid, hardswish and cumprod are not in its kernel set)


IL = Q.IL


def build(op, args, outs):
    return Q.build(op, args, [Q.Out(d, s) for d, s in outs])


def edge_values():
    tiny = torch.tensor([1e-45, 1.4e-40, 1.1754942e-38, 1.17549435e-38], dtype=torch.float32)
    v = [0.0, -0.0, math.inf, -math.inf, math.nan, 1.0, -1.0, 0.5, -0.5, 2.0, 3.4028235e38, -3.4028235e38,
         1e30, -1e30, 1e10, 88.7, 89.0, -87.3, -104.0, 20.0, -20.0, 15.9, 1e-7, -1e-7, 1e-20,
         0.9999999, 1.0000001, 0.99999994, 1.0000002, -0.9999999, 3.1415927, 1.5707964, 100.5, 7e5]
    t = torch.cat([torch.tensor(v, dtype=torch.float32), tiny, -tiny])
    gen = torch.Generator().manual_seed(7)
    r = torch.cat([torch.randn(96, generator=gen) * 3, torch.rand(64, generator=gen) * 2 - 1,
                   torch.exp(torch.randn(64, generator=gen) * 8)])
    return torch.cat([t, r.to(torch.float32)])


def cases():
    x = edge_values()
    for op in UNARY:
        for dt in (torch.float32, torch.float16, torch.bfloat16):
            xi = x.to(dt)
            yield f"{op}/{dt}", f"aten::{op}.out", [xi], [(dt, list(xi.shape))]
    for op, extra in (("logit", [None]), ("logit_eps", [1e-6]), ("logit_eps_big", [0.25])):
        for dt in (torch.float32, torch.float16, torch.bfloat16):
            xi = x.to(dt)
            yield f"{op}/{dt}", "aten::logit.out", [xi] + extra, [(dt, list(xi.shape))]
            yield f"{op}/{dt}->float64", "aten::logit.out", [xi] + extra, [(torch.float64, list(xi.shape))]
    gen = torch.Generator().manual_seed(11)
    base = (torch.randn(4, 6, 37, generator=gen) * 10).to(torch.float32)
    big = (torch.rand(3, 1000, generator=gen) * 1000).to(torch.float32)
    edge = x[: 8 * 9].reshape(8, 9)  # the edge values (Inf, NaN, ±0, denormals) in reductions
    for tname, t in (("base", base), ("big", big), ("edge", edge)):
        nd = t.dim()
        for dt in (torch.float32, torch.float16, torch.bfloat16):
            ti = t.to(dt)
            for dims in ([nd - 1], [0], list(range(nd)), []):
                kept = [1 if (d in dims or not dims) else s for d, s in enumerate(ti.shape)]
                red = [s for d, s in enumerate(ti.shape) if not (d in dims or not dims)]
                tag = f"{tname}/{dt}/dims{dims}"
                yield f"mean/{tag}", "aten::mean.out", [ti, IL(dims), False, None], [(dt, red)]
                yield f"mean_keep/{tag}", "aten::mean.out", [ti, IL(dims), True, None], [(dt, kept)]
                yield f"var/{tag}", "aten::var.correction_out", [ti, IL(dims), 1, False], [(dt, red)]
                yield f"var0/{tag}", "aten::var.correction_out", [ti, IL(dims), 0, True], [(dt, kept)]
                if len(dims) == 1:
                    d = dims[0]
                    yield f"prod/{tag}", "aten::prod.int_out", [ti, d, False, None], [(dt, red)]
                    yield f"amax/{tag}", "aten::amax.out", [ti, IL(dims), False], [(dt, red)]
                    yield f"amin/{tag}", "aten::amin.out", [ti, IL(dims), False], [(dt, red)]
                    yield f"cumsum/{tag}", "aten::cumsum.out", [ti, d, None], [(dt, list(ti.shape))]
                    yield f"softmax/{tag}", "aten::_softmax.out", [ti, d, False], [(dt, list(ti.shape))]
            yield f"mean_all/{tname}/{dt}", "aten::mean.dtype_out", [ti, None], [(dt, [])]
            yield f"prod_all/{tname}/{dt}", "aten::prod.out", [ti, None], [(dt, [])]


def enc(a):
    if isinstance(a, torch.Tensor):
        return {"tensor": str(a.dtype).removeprefix("torch."), "sizes": list(a.shape),
                "data": base64.b64encode(Q.tensor_bytes(a)).decode()}
    if isinstance(a, IL):
        return {"ints": a.v}
    if isinstance(a, bool):
        return {"bool": a}
    if isinstance(a, int):
        return {"int": a}
    if isinstance(a, float):
        return {"double": a}
    return {"none": True}


def main():
    out = []
    for name, op, args, outs in cases():
        kind, val = Q.run_official(build(op, args, outs), [None])
        rec = {"name": name, "op": op, "args": [enc(a) for a in args],
               "out": [{"dtype": str(d).removeprefix("torch."), "sizes": s} for d, s in outs]}
        if kind == "ok":
            rec["result"] = {"dtype": val[0][0], "sizes": val[0][1], "data": val[0][2]}
        else:
            rec["error"] = val
            print(name, kind, val, file=sys.stderr)
        out.append(rec)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with gzip.GzipFile(OUT, "wb", mtime=0) as f:
        f.write(json.dumps(out, separators=(",", ":")).encode())
    print(f"{len(out)} cases -> {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
