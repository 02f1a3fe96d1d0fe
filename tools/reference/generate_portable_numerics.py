"""Writes kernels/portable/testdata/numerics.json.gz: a differential sweep of etgo's portable
float unary operators and float reductions against the official runtime's own kernels.

Each case is a one-instruction program (built with ExecuTorch's schema dataclasses, as
generate_quantized_kernel_fixtures.py does; its build/run helpers are reused here, extended
with IntList arguments) whose input is a constant: float32 values that cover ±0, denormals,
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
from torch.utils import _pytree as pytree

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import generate_quantized_kernel_fixtures as Q  # noqa: E402
from executorch.exir import schema as S  # noqa: E402
from executorch.exir._serialize._program import PTEFile, serialize_pte_binary  # noqa: E402
from executorch.exir.tensor import scalar_type_enum  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "kernels" / "portable" / "testdata" / "numerics.json.gz"

UNARY = ["acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "erf", "expm1", "log",
         "log10", "log1p", "log2", "reciprocal", "rsqrt", "sigmoid", "sin", "sinh", "sqrt", "tan", "tanh"]
# (plus logit below; exp, gelu, elu, sum and _log_softmax are the optimized library's in the
# official runtime, and silu, hardsigmoid, hardswish and cumprod are not in its kernel set)


class IL:
    def __init__(self, v):
        self.v = list(v)


def build(op, args, outs):
    """Q.build with IntList arguments: the list's Int values are appended first."""
    values, consts, planned, kargs = [], [S.Buffer(storage=b"")], 0, []

    def tv(dtype, sizes, data=0, alloc=None):
        return S.EValue(S.Tensor(
            scalar_type=scalar_type_enum(dtype), storage_offset=0, sizes=list(sizes),
            dim_order=list(range(len(sizes))), requires_grad=False, layout=0, data_buffer_idx=data,
            allocation_info=alloc, shape_dynamism=S.TensorShapeDynamism.STATIC))

    for a in args:
        if isinstance(a, torch.Tensor):
            consts.append(S.Buffer(storage=Q.tensor_bytes(a)))
            values.append(tv(a.dtype, a.shape, data=len(consts) - 1))
        elif isinstance(a, IL):
            ids = []
            for x in a.v:
                values.append(S.EValue(S.Int(x)))
                ids.append(len(values) - 1)
            values.append(S.EValue(S.IntList(items=ids)))
        elif isinstance(a, bool):
            values.append(S.EValue(S.Bool(a)))
        elif isinstance(a, int):
            values.append(S.EValue(S.Int(a)))
        elif isinstance(a, float):
            values.append(S.EValue(S.Double(a)))
        elif a is None:
            values.append(S.EValue(S.Null()))
        else:
            raise TypeError(a)
        kargs.append(len(values) - 1)
    out_ids = []
    for dtype, sizes in outs:
        n = max(1, math.prod(sizes)) * torch.empty((), dtype=dtype).element_size()
        alloc = S.AllocationDetails(memory_id=1, memory_offset_low=planned, memory_offset_high=0)
        planned += (n + 15) // 16 * 16
        values.append(tv(dtype, sizes, alloc=alloc))
        out_ids.append(len(values) - 1)
    kargs += out_ids + [out_ids[0]]
    name, overload = op.split(".")
    _, in_spec = pytree.tree_flatten(((), {}))
    _, out_spec = pytree.tree_flatten(0)
    plan = S.ExecutionPlan(
        name="forward",
        container_meta_type=S.ContainerMetadata(pytree.treespec_dumps(in_spec), pytree.treespec_dumps(out_spec)),
        values=values, inputs=[], outputs=out_ids,
        chains=[S.Chain(inputs=[], outputs=out_ids, instructions=[
            S.Instruction(S.KernelCall(op_index=0, args=kargs))], stacktrace=None)],
        operators=[S.Operator(name=name, overload=overload)], delegates=[],
        non_const_buffer_sizes=[0, max(planned, 16)])
    prog = S.Program(version=0, execution_plan=[plan], constant_buffer=consts, backend_delegate_data=[],
                     segments=[], constant_segment=S.SubsegmentOffsets(segment_index=0, offsets=[]))
    return bytes(serialize_pte_binary(PTEFile(program=prog)))


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
