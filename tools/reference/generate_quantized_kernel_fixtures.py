"""Writes kernels/quantized/testdata/cases.json.gz: every operator of ExecuTorch's quantized kernel
library (kernels/quantized/quantized.yaml) run by the official runtime's own C++ kernels
(libexecutorch_kernels_quantized.so, the library the official runtime links for these ops) on a
spread of shapes, dtypes, axes, NaN/±Inf/±0/huge values, and on the arguments it refuses.

Each case is a one-instruction program written here directly with ExecuTorch's own schema
dataclasses and serializer (no tracing: torch's Python reference kernels would run while
exporting, and would refuse or reshape the very arguments a refusal case needs): its tensor
arguments are constants, its out tensors planned, its KernelCall lists every schema argument
then the return slot, as to_executorch emits them. The official runtime loads and runs it in a
forked child, because the official kernels abort the process (ET_CHECK) on bad arguments; the
child's outputs (bytes), or its abort and the message it printed, are recorded.

A case the official kernel would answer by reading or writing out of bounds (an out-of-range
index of the 2/4-bit embeddings) is not run; it is recorded as "ub": etgo must refuse it.

The Go test (kernels/quantized/fixtures_test.go) loads each program with etgo, runs it, and
compares bit for bit, or expects a refusal where the official runtime refused.

    ~/.venvs/et/bin/python tools/reference/generate_quantized_kernel_fixtures.py
"""
import base64
import ctypes
import gzip
import json
import math
import os
import pathlib
import pickle
import sys

import torch
from torch.utils import _pytree as pytree

from executorch.exir import schema as S
from executorch.exir._serialize._program import PTEFile, serialize_pte_binary
from executorch.exir.tensor import scalar_type_enum
from executorch.extension.pybindings import _C

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "kernels" / "quantized" / "testdata" / "cases.json.gz"

# The official quantized kernels register themselves with the runtime's kernel registry when
# their library is loaded into the process that holds the runtime.
ctypes.CDLL(str(pathlib.Path(_C.__file__).parent / ".." / ".." / "lib" / "libexecutorch_kernels_quantized.so"),
            mode=ctypes.RTLD_GLOBAL)
from executorch.runtime import Runtime  # noqa: E402

assert any(n.startswith("quantized_decomposed::") for n in _C._get_operator_names()), "quantized kernels not registered"


class DT:
    """A ScalarType argument."""

    def __init__(self, dtype):
        self.dtype = dtype


class Out:
    """A planned out tensor; upper gives it a dynamic (bounded) shape starting at those sizes."""

    def __init__(self, dtype, sizes, upper=None):
        self.dtype, self.sizes, self.upper = dtype, list(sizes), upper


def tensor_bytes(t):
    t = t.contiguous()
    if t.dtype in (torch.bfloat16, torch.float16):
        return t.view(torch.int16).numpy().tobytes()
    return t.numpy().tobytes()


def build(op, args, outs):
    """A one-instruction program calling op ("ns::name.overload") on args then outs."""
    values, consts, planned = [], [S.Buffer(storage=b"")], 0
    kargs = []

    def tensor_value(t, data=None, alloc=None, dyn=S.TensorShapeDynamism.STATIC):
        return S.EValue(S.Tensor(
            scalar_type=scalar_type_enum(t[0]), storage_offset=0, sizes=list(t[1]),
            dim_order=list(range(len(t[1]))), requires_grad=False, layout=0,
            data_buffer_idx=data or 0, allocation_info=alloc, shape_dynamism=dyn))

    for a in args:
        if isinstance(a, torch.Tensor):
            consts.append(S.Buffer(storage=tensor_bytes(a)))
            values.append(tensor_value((a.dtype, a.shape), data=len(consts) - 1))
        elif isinstance(a, DT):
            values.append(S.EValue(S.Int(int(scalar_type_enum(a.dtype)))))
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
    for o in outs:
        sizes = o.upper or o.sizes
        n = math.prod(sizes) * torch.empty((), dtype=o.dtype).element_size()
        alloc = S.AllocationDetails(memory_id=1, memory_offset_low=planned, memory_offset_high=0)
        planned += (n + 15) // 16 * 16
        dyn = S.TensorShapeDynamism.DYNAMIC_BOUND if o.upper else S.TensorShapeDynamism.STATIC
        values.append(tensor_value((o.dtype, sizes), alloc=alloc, dyn=dyn))
        out_ids.append(len(values) - 1)
    kargs += out_ids
    if len(out_ids) == 1:
        kargs.append(out_ids[0])
    else:
        values.append(S.EValue(S.TensorList(items=out_ids)))
        kargs.append(len(values) - 1)
    name, overload = op.split(".")
    _, in_spec = pytree.tree_flatten(((), {}))
    _, out_spec = pytree.tree_flatten(tuple(range(len(out_ids))) if len(out_ids) > 1 else 0)
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


def run_official(pte):
    """Runs the program in a forked child: ("ok", outputs) or ("abort"/"error", message)."""
    r, w = os.pipe()
    er, ew = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.close(er)
        os.dup2(ew, 2)
        try:
            m = Runtime.get().load_program(pte).load_method("forward")
            res = m.execute([])
            outs = [(str(t.dtype).removeprefix("torch."), list(t.shape), base64.b64encode(tensor_bytes(t)).decode())
                    for t in res]
            payload = ("ok", outs)
        except Exception as e:  # noqa: BLE001  the runtime's refusal
            payload = ("error", str(e))
        with os.fdopen(w, "wb") as f:
            pickle.dump(payload, f)
        os._exit(0)
    os.close(w)
    os.close(ew)
    with os.fdopen(r, "rb") as f:
        data = f.read()
    with os.fdopen(er, "rb") as f:
        log = f.read().decode(errors="replace")
    _, status = os.waitpid(pid, 0)
    if data:
        kind, val = pickle.loads(data)
        if kind == "error":
            val = val + " | " + last_error(log)
        return kind, val
    return "abort", last_error(log) or f"status {status}"


def last_error(log):
    lines = [l.strip() for l in log.splitlines() if l.strip() and "Warning" not in l and "KernelPreference" not in l]
    return "; ".join(l.split("] ", 1)[-1] for l in lines[-2:])


CASES = []


def case(name, op, args, outs, ub=None):
    CASES.append(dict(name=name, op=op, args=args, outs=outs, ub=ub))


def g(seed):
    return torch.Generator().manual_seed(seed)


# ---- embeddings --------------------------------------------------------------------------

def emb_cases():
    F, H, B = torch.float32, torch.float16, torch.bfloat16
    for nbit, opname in ((8, "embedding_byte"), (4, "embedding_4bit"), (2, "embedding_2bit")):
        per = 8 // nbit
        for wdt in ((torch.uint8, torch.int8) if nbit == 8 else (torch.uint8,)):
            for rows, dim, groups in ((5, 8, 0), (7, 16, 2), (3, 8, 8)):
                packed = dim // per
                lo, hi = (0, 255) if wdt == torch.uint8 else (-128, 127)
                w = torch.randint(lo, hi + 1, (rows, packed), generator=g(rows * dim + nbit), dtype=torch.int32).to(wdt)
                sshape = (rows,) if groups == 0 else (rows, groups)
                for sdt, odt in ((F, F), (H, H), (B, B), (F, H), (B, F)):
                    sc = (torch.rand(sshape, generator=g(rows + groups)) * 0.1 + 0.001).to(sdt)
                    idx = torch.tensor([[0, rows - 1, 1], [2, 0, rows - 1]])
                    qmin, qmax = ((lo, hi) if nbit == 8 else (-(1 << (nbit - 1)), (1 << (nbit - 1)) - 1))
                    for zpk in (None, "zp"):
                        zp = None
                        if zpk and sdt == odt:
                            zp = torch.randint(-3, 4, sshape, generator=g(7)).to(odt)
                        elif zpk:
                            continue
                        tag = f"{opname}/{str(wdt)[6:]}/{rows}x{dim}g{groups}/{str(sdt)[6:]}-{str(odt)[6:]}/{'zp' if zp is not None else 'nozp'}"
                        if sdt == odt:
                            case(tag + "/out", f"quantized_decomposed::{opname}.out",
                                 [w, sc, zp, qmin, qmax, idx], [Out(odt, (2, 3, dim))])
                        case(tag + "/dtype_out", f"quantized_decomposed::{opname}.dtype_out",
                             [w, sc, zp, qmin, qmax, idx, DT(odt)], [Out(odt, (2, 3, dim))])
                        if sdt == odt == F:
                            case(tag + "/dtype_none", f"quantized_decomposed::{opname}.dtype_out",
                                 [w, sc, zp, qmin, qmax, idx, None], [Out(odt, (2, 3, dim))])
        # special values in the scales and zero points; int32 indices; 1-d and 0-d indices
        rows, dim = 4, 8
        w = torch.randint(0, 256, (rows, dim // per), generator=g(99), dtype=torch.int32).to(torch.uint8)
        sc = torch.tensor([float("nan"), float("inf"), -0.0, 3e38])
        zp = torch.tensor([0.0, float("-inf"), 1e30, -2.5])
        op = f"quantized_decomposed::{opname}.dtype_out"
        case(f"{opname}/special", op, [w, sc, zp, 0, 255, torch.tensor([0, 1, 2, 3]), None], [Out(torch.float32, (4, dim))])
        case(f"{opname}/special_half", op, [w, sc.half(), zp.half(), 0, 255, torch.tensor([3, 2, 1, 0]), None], [Out(torch.float16, (4, dim))])
        case(f"{opname}/special_bf16", op, [w, sc.bfloat16(), zp.bfloat16(), 0, 255, torch.tensor([3, 2, 1, 0]), None], [Out(torch.bfloat16, (4, dim))])
        case(f"{opname}/special_f32_to_bf16", op, [w, sc, None, 0, 255, torch.tensor([3, 2, 1, 0]), None], [Out(torch.bfloat16, (4, dim))])
        case(f"{opname}/special_f32_to_half", op, [w, sc, None, 0, 255, torch.tensor([3, 2, 1, 0]), None], [Out(torch.float16, (4, dim))])
        case(f"{opname}/f32_to_half_overflow", op, [w, torch.full((rows,), 1e6), None, 0, 255, torch.tensor([1, 3]), None], [Out(torch.float16, (2, dim))])
        case(f"{opname}/idx0d", op, [w, sc.abs(), None, 0, 255, torch.tensor(2), None], [Out(torch.float32, (dim,))])
        case(f"{opname}/idx_empty", op, [w, sc.abs(), None, 0, 255, torch.zeros((0,), dtype=torch.long), None], [Out(torch.float32, (0, dim))])
        case(f"{opname}/dynamic_out", op, [w, torch.ones(rows), None, 0, 255, torch.tensor([1, 2]), None], [Out(torch.float32, (2, dim), upper=(6, dim))])
        i32 = torch.tensor([3, 0], dtype=torch.int32)
        if nbit != 8:
            case(f"{opname}/idx_int32", op, [w, torch.ones(rows), None, 0, 255, i32, None], [Out(torch.float32, (2, dim))])
        # refusals
        ok = [w, torch.ones(rows), None, 0, 255, torch.tensor([1, 2])]
        o = [Out(torch.float32, (2, dim))]

        def bad(name, i, v, outs=o, ub=None):
            a = list(ok)
            a[i] = v
            case(f"{opname}/err/{name}", op, a + [None], outs, ub=ub)

        bad("weight_1d", 0, w.flatten())
        bad("weight_int32", 0, w.to(torch.int32))
        if nbit != 8:
            bad("weight_int8", 0, w.to(torch.int8))
        bad("scales_rows", 1, torch.ones(rows + 1))
        bad("scales_3d", 1, torch.ones(rows, 1, 1))
        bad("scales_groups", 1, torch.ones(rows, 3))
        bad("scales_int", 1, torch.ones(rows, dtype=torch.int32))
        bad("scales_f64", 1, torch.ones(rows, dtype=torch.float64))
        bad("zp_rank", 2, torch.zeros(rows, 1))
        bad("zp_dtype", 2, torch.zeros(rows, dtype=torch.float16))
        bad("zp_size", 2, torch.zeros(rows + 1))
        bad("qmin_gt_qmax", 3, 300)
        bad("out_int", 5, torch.tensor([1, 2]), outs=[Out(torch.int32, (2, dim))])
        bad("out_f64", 5, torch.tensor([1, 2]), outs=[Out(torch.float64, (2, dim))])
        bad("out_shape", 5, torch.tensor([1, 2]), outs=[Out(torch.float32, (3, dim))])
        if nbit == 8:
            bad("idx_int32", 5, i32)
            bad("idx_oob", 5, torch.tensor([1, rows]))
            bad("idx_neg", 5, torch.tensor([-1]), outs=[Out(torch.float32, (1, dim))])
        else:
            bad("idx_oob", 5, torch.tensor([1, rows]), ub="the official kernel does not check the index")
            bad("idx_neg", 5, torch.tensor([-1]), outs=[Out(torch.float32, (1, dim))], ub="the official kernel does not check the index")
        bad("idx_float", 5, torch.tensor([1.0, 2.0]))
        a = list(ok)
        case(f"{opname}/err/dtype_mismatch", op, a + [DT(torch.float16)], o)
        if nbit == 8:
            # .out reads the scales as out's type: etgo refuses where the official reinterprets
            case(f"{opname}/err/out_scales_type", f"quantized_decomposed::{opname}.out",
                 [w, torch.ones(rows, dtype=torch.float16), None, 0, 255, torch.tensor([1, 2])], o,
                 ub="the official .out kernel reads float16 scales as float32")


def main():
    emb_cases()
    names = set()
    out = []
    for c in CASES:
        assert c["name"] not in names, c["name"]
        names.add(c["name"])
        pte = build(c["op"], c["args"], c["outs"])
        rec = dict(name=c["name"], op=c["op"], pte=base64.b64encode(pte).decode())
        if c["ub"]:
            rec["expect"] = "refuse"
            rec["note"] = c["ub"]
        else:
            kind, val = run_official(pte)
            if kind == "ok":
                rec["expect"] = "ok"
                rec["outputs"] = [dict(dtype=d, sizes=s, data=b) for d, s, b in val]
            else:
                rec["expect"] = "refuse"
                rec["note"] = f"official {kind}: {val}"
        out.append(rec)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    doc = json.dumps(dict(generator="tools/reference/generate_quantized_kernel_fixtures.py",
                          torch=torch.__version__, cases=out), indent=0) + "\n"
    OUT.write_bytes(gzip.compress(doc.encode(), mtime=0))
    n_ok = sum(r["expect"] == "ok" for r in out)
    print(f"wrote {len(out)} cases ({n_ok} outputs, {len(out) - n_ok} refusals) to {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
