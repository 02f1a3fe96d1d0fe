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

    ~/.venvs/et/bin/python tools/reference/generate_quantized_kernel_fixtures.py [--schemas-only] [--dry NAME_PREFIX]

It also writes testdata/schemas.json, each kernel's schema as torch registers it, and records
per case where torch's Python reference kernel (the functional operator) parts from the official
C++ kernel ("torch_reference"; summed by operator in testdata/torch_reference.json).
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
    """A planned out tensor; upper gives it a dynamic (bounded) shape starting at those sizes;
    order is its dim order (default contiguous)."""

    def __init__(self, dtype, sizes, upper=None, order=None):
        self.dtype, self.sizes, self.upper, self.order = dtype, list(sizes), upper, order


class IL:
    """An int[] argument (its Int values are appended to the program's values first)."""

    def __init__(self, v):
        self.v = list(v)


class DO:
    """A constant tensor in another dim order: its bytes in that memory order."""

    def __init__(self, t, order):
        self.t, self.order = t, list(order)


def tensor_bytes(t):
    t = t.contiguous()
    if t.dtype in (torch.bfloat16, torch.float16):
        return t.view(torch.int16).numpy().tobytes()
    return t.numpy().tobytes()


def build(op, args, outs):
    """A one-instruction program calling op ("ns::name.overload") on args then outs."""
    values, consts, planned = [], [S.Buffer(storage=b"")], 0
    kargs = []

    def tensor_value(t, data=None, alloc=None, dyn=S.TensorShapeDynamism.STATIC, order=None):
        return S.EValue(S.Tensor(
            scalar_type=scalar_type_enum(t[0]), storage_offset=0, sizes=list(t[1]),
            dim_order=order or list(range(len(t[1]))), requires_grad=False, layout=0,
            data_buffer_idx=data or 0, allocation_info=alloc, shape_dynamism=dyn))

    for a in args:
        if isinstance(a, DO):
            consts.append(S.Buffer(storage=tensor_bytes(a.t.permute(a.order))))
            values.append(tensor_value((a.t.dtype, a.t.shape), data=len(consts) - 1, order=a.order))
        elif isinstance(a, torch.Tensor):
            consts.append(S.Buffer(storage=tensor_bytes(a)))
            values.append(tensor_value((a.dtype, a.shape), data=len(consts) - 1))
        elif isinstance(a, IL):
            ids = []
            for x in a.v:
                values.append(S.EValue(S.Int(x)))
                ids.append(len(values) - 1)
            values.append(S.EValue(S.IntList(items=ids)))
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
        values.append(tensor_value((o.dtype, sizes), alloc=alloc, dyn=dyn, order=o.order))
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


def run_official(pte, orders):
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
            outs = [(str(t.dtype).removeprefix("torch."), list(t.shape),
                     base64.b64encode(tensor_bytes(t.permute(o) if o else t)).decode())
                    for t, o in zip(res, orders)]
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


# ---- quantize / dequantize ---------------------------------------------------------------

QRANGE = {torch.uint8: (0, 255), torch.int8: (-128, 127), torch.int16: (-32768, 32767),
          torch.uint16: (0, 65535), torch.int32: (-2 ** 31, 2 ** 31 - 1)}
SPECIAL = [float("nan"), float("inf"), float("-inf"), 0.0, -0.0, 3e38, -3e38, 1e-45, 2.5, -2.5, 0.5, -0.5,
           1.5, 126.4999, 127.5, -128.5, 1e10, -1e10, 65504.0, 2.0 ** 63, -(2.0 ** 63), 2.0 ** 62]


def floats_for(dtype, shape, seed):
    x = torch.randn(shape, generator=g(seed)) * 40
    flat = x.flatten()
    sp = torch.tensor(SPECIAL)
    k = min(len(sp), flat.numel())
    flat[:k] = sp[:k]
    return flat.reshape(shape).to(dtype)


def quant_cases():
    F, H, D = torch.float32, torch.float16, torch.float64
    QPT = "quantized_decomposed::quantize_per_tensor.out"
    QPTT = "quantized_decomposed::quantize_per_tensor.Tensor_out"
    for idt in (F, H, D):
        for qdt, (lo, hi) in QRANGE.items():
            for scale, zp in ((0.05, 3), (1.0, 0), (1e-3, -7), (3.7, hi)):
                if zp < lo or zp > hi:
                    zp = lo
                x = floats_for(idt, (4, 7), 11)
                tag = f"quantize_per_tensor/{str(idt)[6:]}-{str(qdt)[6:]}/s{scale}z{zp}"
                case(tag, QPT, [x, scale, zp, lo, hi, DT(qdt)], [Out(qdt, (4, 7))])
            case(f"quantize_per_tensor/{str(idt)[6:]}-{str(qdt)[6:]}/tensor_args", QPTT,
                 [floats_for(idt, (3, 5), 12), torch.tensor([0.02], dtype=D), torch.tensor([1]), lo, hi, DT(qdt)],
                 [Out(qdt, (3, 5))])
    x = floats_for(F, (2, 6), 13)
    case("quantize_per_tensor/narrow_range", QPT, [x, 0.1, 2, -5, 9, DT(torch.int8)], [Out(torch.int8, (2, 6))])
    case("quantize_per_tensor/min_gt_max", QPT, [x, 0.1, 2, 10, 3, DT(torch.int8)], [Out(torch.int8, (2, 6))])
    case("quantize_per_tensor/zero_scale", QPT, [x, 0.0, 2, -128, 127, DT(torch.int8)], [Out(torch.int8, (2, 6))])
    case("quantize_per_tensor/neg_scale", QPT, [x, -0.25, 2, -128, 127, DT(torch.int8)], [Out(torch.int8, (2, 6))])
    case("quantize_per_tensor/huge_zp", QPT, [x, 0.5, 2 ** 33 + 5, -128, 127, DT(torch.int8)], [Out(torch.int8, (2, 6))])
    case("quantize_per_tensor/zp_2p24", QPT, [x, 0.5, 2 ** 24 + 1, -2 ** 31, 2 ** 31 - 1, DT(torch.int32)], [Out(torch.int32, (2, 6))])
    case("quantize_per_tensor/scale_tiny", QPT, [x, 1e-40, 0, -128, 127, DT(torch.int8)], [Out(torch.int8, (2, 6))])
    case("quantize_per_tensor/0d", QPT, [torch.tensor(3.3), 0.1, 0, -128, 127, DT(torch.int8)], [Out(torch.int8, ())])
    case("quantize_per_tensor/empty", QPT, [torch.zeros(0, 3), 0.1, 0, -128, 127, DT(torch.int8)], [Out(torch.int8, (0, 3))])
    case("quantize_per_tensor/dynamic_out", QPT, [x, 0.1, 0, -128, 127, DT(torch.int8)], [Out(torch.int8, (2, 6), upper=(4, 6))])
    # refusals
    case("quantize_per_tensor/err/int_input", QPT, [torch.ones(2, 2, dtype=torch.int32), 0.1, 0, -128, 127, DT(torch.int8)], [Out(torch.int8, (2, 2))])
    case("quantize_per_tensor/err/bf16_input", QPT, [torch.ones(2, 2, dtype=torch.bfloat16), 0.1, 0, -128, 127, DT(torch.int8)], [Out(torch.int8, (2, 2))])
    case("quantize_per_tensor/err/dtype_mismatch", QPT, [x, 0.1, 0, -128, 127, DT(torch.uint8)], [Out(torch.int8, (2, 6))])
    case("quantize_per_tensor/err/int64_out", QPT, [x, 0.1, 0, -128, 127, DT(torch.int64)], [Out(torch.int64, (2, 6))])
    case("quantize_per_tensor/err/float_out", QPT, [x, 0.1, 0, -128, 127, DT(F)], [Out(F, (2, 6))])
    case("quantize_per_tensor/err/qmin_low", QPT, [x, 0.1, 0, -129, 127, DT(torch.int8)], [Out(torch.int8, (2, 6))])
    case("quantize_per_tensor/err/qmax_high", QPT, [x, 0.1, 0, 0, 256, DT(torch.uint8)], [Out(torch.uint8, (2, 6))])
    case("quantize_per_tensor/err/out_shape", QPT, [x, 0.1, 0, -128, 127, DT(torch.int8)], [Out(torch.int8, (3, 6))])
    case("quantize_per_tensor/err/tensor_scale_f32", QPTT, [x, torch.tensor([0.1]), torch.tensor([0]), -128, 127, DT(torch.int8)], [Out(torch.int8, (2, 6))])
    case("quantize_per_tensor/err/tensor_zp_i32", QPTT, [x, torch.tensor([0.1], dtype=D), torch.tensor([0], dtype=torch.int32), -128, 127, DT(torch.int8)], [Out(torch.int8, (2, 6))])
    case("quantize_per_tensor/err/tensor_scale_2", QPTT, [x, torch.tensor([0.1, 0.2], dtype=D), torch.tensor([0]), -128, 127, DT(torch.int8)], [Out(torch.int8, (2, 6))])

    QPC = "quantized_decomposed::quantize_per_channel.out"
    for idt in (F, H, D):
        for qdt in (torch.uint8, torch.int8, torch.int16, torch.int32):
            lo, hi = QRANGE[qdt]
            for shape, axis in (((3, 4), 0), ((3, 4), 1), ((2, 3, 5), 1), ((2, 3, 5), -1), ((7,), 0), ((2, 2, 2, 3), -4)):
                n = shape[axis]
                sc = (torch.rand(n, generator=g(n)) * 0.2 + 0.01).double()
                zp = torch.randint(max(lo, -10), min(hi, 10) + 1, (n,), generator=g(n + 1))
                tag = f"quantize_per_channel/{str(idt)[6:]}-{str(qdt)[6:]}/{'x'.join(map(str, shape))}a{axis}"
                case(tag, QPC, [floats_for(idt, shape, 14), sc, zp, axis, lo, hi, DT(qdt)], [Out(qdt, shape)])
    x = floats_for(F, (3, 4), 15)
    sc, zp = torch.tensor([0.1, 0.2, 0.3], dtype=D), torch.tensor([0, 1, 2])
    ok = [x, sc, zp, 0, -128, 127, DT(torch.int8)]
    o = [Out(torch.int8, (3, 4))]

    def bad(name, i, v, op=QPC, base=ok, outs=o):
        a = list(base)
        a[i] = v
        case(f"{op.split('::')[1].split('.')[0]}/err/{name}", op, a, outs)

    bad("axis_high", 3, 2)
    bad("axis_low", 3, -3)
    bad("scale_f32", 1, sc.float())
    bad("scale_len", 1, torch.tensor([0.1, 0.2], dtype=D))
    bad("zp_i32", 2, zp.int())
    bad("zp_len", 2, torch.tensor([0, 1]))
    bad("qmax_high", 5, 128)
    case("quantize_per_channel/err/0d", QPC, [torch.tensor(1.0), torch.tensor([0.1], dtype=D), torch.tensor([0]), 0, -128, 127, DT(torch.int8)], [Out(torch.int8, ())])
    case("quantize_per_channel/zero_scale_channel", QPC, [x, torch.tensor([0.0, 0.2, -0.3], dtype=D), zp, 0, -128, 127, DT(torch.int8)], o)

    QTK = "quantized_decomposed::quantize_per_token.out"
    for idt in (F, H, D):
        for qdt in (torch.int8, torch.uint8, torch.int16):
            lo, hi = QRANGE[qdt]
            for shape in ((4, 6), (2, 3, 5), (9,)):
                t = math.prod(shape[:-1])
                sshape = tuple(shape[:-1]) + (1,)
                sc = (torch.rand(sshape, generator=g(t)) * 0.3 + 0.01).double()
                zp = torch.randint(max(lo, -5), min(hi, 5) + 1, sshape, generator=g(t + 2))
                case(f"quantize_per_token/{str(idt)[6:]}-{str(qdt)[6:]}/{'x'.join(map(str, shape))}", QTK,
                     [floats_for(idt, shape, 16), sc, zp, lo, hi, DT(qdt)], [Out(qdt, shape)])
    xt = floats_for(F, (4, 6), 17)
    okt = [xt, torch.full((4, 1), 0.1, dtype=D), torch.zeros(4, 1, dtype=torch.long), -128, 127, DT(torch.int8)]
    ot = [Out(torch.int8, (4, 6))]
    bad("scale_len", 1, torch.full((3, 1), 0.1, dtype=D), op=QTK, base=okt, outs=ot)
    bad("scale_f32", 1, torch.full((4, 1), 0.1), op=QTK, base=okt, outs=ot)
    bad("zp_i32", 2, torch.zeros(4, 1, dtype=torch.int32), op=QTK, base=okt, outs=ot)
    bad("dtype_mismatch", 5, DT(torch.uint8), op=QTK, base=okt, outs=ot)
    bad("qmin_low", 3, -200, op=QTK, base=okt, outs=ot)


def dequant_cases():
    F, H, D = torch.float32, torch.float16, torch.float64
    DPT = "quantized_decomposed::dequantize_per_tensor.out"
    DPTT = "quantized_decomposed::dequantize_per_tensor.Tensor_out"

    def qvals(qdt, shape, seed):
        lo, hi = QRANGE[qdt]
        x = torch.randint(lo, hi + 1, shape, generator=g(seed), dtype=torch.int64)
        flat = x.flatten()
        flat[:4] = torch.tensor([lo, hi, 0, 1])[:flat.numel()]
        return flat.reshape(shape).to(qdt)

    for qdt, (lo, hi) in QRANGE.items():
        for odt, od in ((F, None), (F, F), (H, H), (D, D), (H, None), (D, None)):
            for scale, zp in ((0.05, 3), (1e-3, -7), (3e38, 0), (0.1, 2 ** 31 + 3)):
                tag = f"dequantize_per_tensor/{str(qdt)[6:]}-{str(odt)[6:]}{'' if od else '-nodtype'}/s{scale}z{zp}"
                case(tag, DPT, [qvals(qdt, (3, 5), 21), scale, zp, lo, hi, DT(qdt), DT(od) if od else None],
                     [Out(odt, (3, 5))])
        case(f"dequantize_per_tensor/{str(qdt)[6:]}/tensor_args", DPTT,
             [qvals(qdt, (2, 4), 22), torch.tensor([0.3], dtype=D), torch.tensor([-2]), lo, hi, DT(qdt), None], [Out(F, (2, 4))])
    q = qvals(torch.int8, (2, 4), 23)
    for name, sc in (("nan_scale", float("nan")), ("inf_scale", float("inf")), ("neg_zero_scale", -0.0), ("tiny_scale", 1e-50)):
        case(f"dequantize_per_tensor/{name}", DPT, [q, sc, 1, -128, 127, DT(torch.int8), None], [Out(F, (2, 4))])
    i32 = torch.tensor([2 ** 31 - 1, -2 ** 31, 2 ** 24 + 1, -(2 ** 24) - 1], dtype=torch.int32)
    case("dequantize_per_tensor/int32_wrap", DPT, [i32, 1.0, -5, -2 ** 31, 2 ** 31 - 1, DT(torch.int32), None], [Out(F, (4,))])
    case("dequantize_per_tensor/int32_wrap_f64", DPT, [i32, 0.1, 5, -2 ** 31, 2 ** 31 - 1, DT(torch.int32), DT(D)], [Out(D, (4,))])
    case("dequantize_per_tensor/0d", DPT, [torch.tensor(-3, dtype=torch.int8), 0.5, 1, -128, 127, DT(torch.int8), None], [Out(F, ())])
    case("dequantize_per_tensor/dynamic_out", DPT, [q, 0.5, 1, -128, 127, DT(torch.int8), None], [Out(F, (2, 4), upper=(8, 4))])
    case("dequantize_per_tensor/err/dtype_mismatch", DPT, [q, 0.5, 1, -128, 127, DT(torch.uint8), None], [Out(F, (2, 4))])
    case("dequantize_per_tensor/err/out_dtype_mismatch", DPT, [q, 0.5, 1, -128, 127, DT(torch.int8), DT(H)], [Out(F, (2, 4))])
    case("dequantize_per_tensor/err/qmin_gt_qmax", DPT, [q, 0.5, 1, 5, 4, DT(torch.int8), None], [Out(F, (2, 4))])
    case("dequantize_per_tensor/err/float_input", DPT, [q.float(), 0.5, 1, -128, 127, DT(F), None], [Out(F, (2, 4))])
    case("dequantize_per_tensor/err/int64_input", DPT, [q.long(), 0.5, 1, -128, 127, DT(torch.int64), None], [Out(F, (2, 4))])
    case("dequantize_per_tensor/err/bf16_out", DPT, [q, 0.5, 1, -128, 127, DT(torch.int8), None], [Out(torch.bfloat16, (2, 4))])
    case("dequantize_per_tensor/err/int_out", DPT, [q, 0.5, 1, -128, 127, DT(torch.int8), None], [Out(torch.int32, (2, 4))])
    case("dequantize_per_tensor/err/out_shape", DPT, [q, 0.5, 1, -128, 127, DT(torch.int8), None], [Out(F, (2, 5))])
    case("dequantize_per_tensor/err/tensor_scale_f32", DPTT, [q, torch.tensor([0.5]), torch.tensor([1]), -128, 127, DT(torch.int8), None], [Out(F, (2, 4))])
    case("dequantize_per_tensor/err/tensor_zp_2", DPTT, [q, torch.tensor([0.5], dtype=D), torch.tensor([1, 2]), -128, 127, DT(torch.int8), None], [Out(F, (2, 4))])

    DPC = "quantized_decomposed::dequantize_per_channel.out"
    for qdt in (torch.int8, torch.uint8, torch.int16, torch.int32, torch.uint16):
        lo, hi = QRANGE[qdt]
        for odt, od in ((F, None), (F, F), (H, H), (D, D)):
            for shape, axis in (((3, 4), 0), ((3, 4), -1), ((2, 3, 5), 1), ((6,), 0), ((2, 2, 3, 2), 2)):
                for sdt in (D, F):
                    for zpk in ("zp", None):
                        if (sdt == F) and zpk is None and shape != (3, 4):
                            continue
                        n = shape[axis]
                        sc = (torch.rand(n, generator=g(n + 3)) * 0.2 + 0.01).to(sdt)
                        zp = torch.randint(max(lo, -3), min(hi, 3) + 1, (n,), generator=g(n + 4)) if zpk else None
                        if qdt == torch.int8 and od in (None, F) and odt != F:
                            continue
                        tag = (f"dequantize_per_channel/{str(qdt)[6:]}-{str(odt)[6:]}{'' if od else '-nodtype'}/"
                               f"{'x'.join(map(str, shape))}a{axis}/{str(sdt)[6:]}/{'zp' if zpk else 'nozp'}")
                        case(tag, DPC, [qvals(qdt, shape, 24), sc, zp, axis, lo, hi, DT(qdt), DT(od) if od else None],
                             [Out(odt, shape)])
    q = qvals(torch.int8, (3, 4), 25)
    sc, zp = torch.tensor([0.1, 0.2, 0.3], dtype=D), torch.tensor([0, 1, 2])
    case("dequantize_per_channel/int8_huge_zp_generic", DPC, [q, sc, torch.tensor([2 ** 40, 0, -2 ** 33]), 0, -2 ** 62, 2 ** 62, DT(torch.int8), DT(H)], [Out(H, (3, 4))])
    case("dequantize_per_channel/int8_huge_zp_optimized", DPC, [q, sc, torch.tensor([2 ** 40, 0, -2 ** 33]), 0, -2 ** 62, 2 ** 62, DT(torch.int8), None], [Out(F, (3, 4))])
    case("dequantize_per_channel/uint8_huge_zp", DPC, [q.to(torch.uint8), sc, torch.tensor([2 ** 40, 0, -2 ** 33]), 0, -2 ** 62, 2 ** 62, DT(torch.uint8), None], [Out(F, (3, 4))])
    case("dequantize_per_channel/special_scales", DPC, [q.to(torch.int16), torch.tensor([float("nan"), float("inf"), 1e300], dtype=D), zp, 0, -128, 127, DT(torch.int16), None], [Out(F, (3, 4))])
    case("dequantize_per_channel/1d_half_rounding", DPC, [torch.tensor([2047, 2049, -2051, 4097], dtype=torch.int16), torch.tensor([1.001, 0.999, 1.0001, 3.3], dtype=D), None, 0, -32768, 32767, DT(torch.int16), DT(H)], [Out(H, (4,))])
    case("dequantize_per_channel/1d_int32_f64", DPC, [torch.tensor([2 ** 31 - 1, -2 ** 31, 123456789], dtype=torch.int32), torch.tensor([0.1, 0.3, 1.7], dtype=D), torch.tensor([-1, 1, 0]), 0, -2 ** 31, 2 ** 31 - 1, DT(torch.int32), DT(D)], [Out(D, (3,))])
    case("dequantize_per_channel/empty", DPC, [torch.zeros(0, 4, dtype=torch.int8), torch.zeros(0, dtype=D), None, 0, -128, 127, DT(torch.int8), None], [Out(F, (0, 4))])
    ok = [q, sc, zp, 0, -128, 127, DT(torch.int8), None]
    o = [Out(F, (3, 4))]

    def bad(name, i, v, op=DPC, base=ok, outs=o, ub=None):
        a = list(base)
        a[i] = v
        case(f"{op.split('::')[1].split('.')[0]}/err/{name}", op, a, outs, ub=ub)

    bad("axis_high", 3, 2)
    bad("scale_len", 1, torch.tensor([0.1, 0.2], dtype=D))
    bad("scale_half", 1, sc.half())
    bad("scale_half_generic", 1, sc.half(), base=[q.to(torch.int16), sc, zp, 0, -128, 127, DT(torch.int16), None])
    bad("zp_f32", 2, zp.float())
    bad("zp_len", 2, torch.tensor([0, 1]))
    bad("zp_out_of_range", 2, torch.tensor([0, 1, 200]))
    bad("dtype_mismatch", 6, DT(torch.uint8))
    bad("qmin_gt_qmax", 4, 200)
    bad("out_dtype_mismatch", 7, DT(H))
    bad("zp_i32", 2, zp.int(), ub="the official kernel reads int32 zero points as int64")
    case("dequantize_per_channel/err/int8_half_out_nodtype", DPC, ok, [Out(H, (3, 4))],
         ub="the official optimized path writes float32 into a float16 out")
    case("dequantize_per_channel/err/bf16_out", DPC, [q.to(torch.int16), sc, zp, 0, -128, 127, DT(torch.int16), None], [Out(torch.bfloat16, (3, 4))])
    case("dequantize_per_channel/err/0d", DPC, [torch.tensor(1, dtype=torch.int8), torch.tensor([0.1], dtype=D), None, 0, -128, 127, DT(torch.int8), None], [Out(F, ())])

    DTK = "quantized_decomposed::dequantize_per_token.out"
    for qdt in (torch.int8, torch.uint8, torch.int16):
        lo, hi = QRANGE[qdt]
        for odt in (F, H, D):
            for shape in ((4, 6), (2, 3, 5), (7,)):
                sshape = tuple(shape[:-1]) + (1,)
                t = math.prod(shape[:-1])
                sc = (torch.rand(sshape, generator=g(t + 5)) * 0.3 + 0.01).double()
                zp = torch.randint(max(lo, -4), min(hi, 4) + 1, sshape, generator=g(t + 6))
                case(f"dequantize_per_token/{str(qdt)[6:]}-{str(odt)[6:]}/{'x'.join(map(str, shape))}", DTK,
                     [qvals(qdt, shape, 26), sc, zp, lo, hi, DT(qdt), DT(odt)], [Out(odt, shape)])
    qt = qvals(torch.int8, (4, 6), 27)
    okt = [qt, torch.full((4, 1), 0.1, dtype=D), torch.zeros(4, 1, dtype=torch.long), -128, 127, DT(torch.int8), DT(F)]
    ot = [Out(F, (4, 6))]
    bad("scale_len", 1, torch.full((3, 1), 0.1, dtype=D), op=DTK, base=okt, outs=ot)
    bad("out_dtype_mismatch", 6, DT(H), op=DTK, base=okt, outs=ot)
    bad("zp_range", 2, torch.full((4, 1), 300, dtype=torch.long), op=DTK, base=okt, outs=ot)
    bad("dtype_mismatch", 5, DT(torch.uint8), op=DTK, base=okt, outs=ot)


def dim_order_cases():
    """Channels-last tensors (dim order 0, 2, 3, 1): the official kernels walk memory."""
    F, D = torch.float32, torch.float64
    CL = [0, 2, 3, 1]
    shape = (2, 3, 2, 4)
    x = floats_for(F, shape, 61)
    case("dim_order/quantize_per_tensor", "quantized_decomposed::quantize_per_tensor.out",
         [DO(x, CL), 0.1, 2, -128, 127, DT(torch.int8)], [Out(torch.int8, shape, order=CL)])
    case("dim_order/quantize_per_channel", "quantized_decomposed::quantize_per_channel.out",
         [DO(x, CL), torch.tensor([0.1, 0.2, 0.05], dtype=D), torch.tensor([0, 1, -1]), 1, -128, 127, DT(torch.int8)],
         [Out(torch.int8, shape, order=CL)])
    for qdt in (torch.int8, torch.uint8, torch.int16):
        lo, hi = QRANGE[qdt]
        q = torch.randint(lo, hi + 1, shape, generator=g(62), dtype=torch.int64).to(qdt)
        for odt, od in ((F, None), (F, F), (D, D)):
            case(f"dim_order/dequantize_per_channel/{str(qdt)[6:]}-{str(odt)[6:]}{'' if od else '-nodtype'}",
                 "quantized_decomposed::dequantize_per_channel.out",
                 [DO(q, CL), torch.tensor([0.1, 0.2, 0.05], dtype=D), torch.tensor([0, 1, -1]), 1, lo, hi, DT(qdt), DT(od) if od else None],
                 [Out(odt, shape, order=CL)])
        case(f"dim_order/dequantize_per_tensor/{str(qdt)[6:]}", "quantized_decomposed::dequantize_per_tensor.out",
             [DO(q, CL), 0.3, 1, lo, hi, DT(qdt), None], [Out(F, shape, order=CL)])
    q = torch.randint(-128, 128, shape, generator=g(63), dtype=torch.int64).to(torch.int8)
    case("dim_order/dequantize_per_channel/axis3", "quantized_decomposed::dequantize_per_channel.out",
         [DO(q, CL), torch.rand(4, generator=g(64)).double(), None, 3, -128, 127, DT(torch.int8), None], [Out(F, shape, order=CL)])
    case("dim_order/err/mixed_orders", "quantized_decomposed::dequantize_per_tensor.out",
         [DO(q, CL), 0.3, 1, -128, 127, DT(torch.int8), None], [Out(F, shape)],
         ub="the official kernel writes the input's memory order into an out of another dim order")


def choose_cases():
    CQ = "quantized_decomposed::choose_qparams.Tensor_out"
    D, L = torch.float64, torch.long
    inputs = {
        "randn": torch.randn(5, 7, generator=g(31)) * 3,
        "positive": torch.rand(13, generator=g(32)) + 0.5,
        "negative": -torch.rand(4, 4, generator=g(33)) - 1,
        "zeros": torch.zeros(6),
        "tiny": torch.randn(8, generator=g(34)) * 1e-7,
        "tiny_pos": torch.rand(8, generator=g(35)) * 1e-7,
        "tiny_neg": -torch.rand(8, generator=g(36)) * 1e-7,
        "huge": torch.tensor([3e38, -3e38, 1.0]),
        "inf": torch.tensor([float("inf"), -1.0, 2.0]),
        "neg_inf": torch.tensor([float("-inf"), 1.0]),
        "both_inf": torch.tensor([float("-inf"), float("inf")]),
        "one": torch.tensor([0.37]),
        "nan_later": torch.tensor([1.0, float("nan"), -2.0]),
        "nan_first": torch.tensor([float("nan"), 1.0, -2.0]),
        "0d": torch.tensor(-4.25),
    }
    for name, x in inputs.items():
        for lo, hi in ((-128, 127), (0, 255), (-8, 7), (0, 15), (-32768, 32767), (-2 ** 31, 2 ** 31 - 1), (3, 4)):
            case(f"choose_qparams/{name}/{lo}_{hi}", CQ, [x, lo, hi, 1e-5, DT(torch.int8)], [Out(D, (1,)), Out(L, (1,))])
    x = inputs["randn"]
    case("choose_qparams/scalar_outs", CQ, [x, -128, 127, 1e-5, DT(torch.uint8)], [Out(D, ()), Out(L, ())])
    case("choose_qparams/err/qmin_eq_qmax", CQ, [x, 5, 5, 1e-5, DT(torch.int8)], [Out(D, (1,)), Out(L, (1,))])
    case("choose_qparams/err/double_input", CQ, [x.double(), -128, 127, 1e-5, DT(torch.int8)], [Out(D, (1,)), Out(L, (1,))])
    case("choose_qparams/err/scale_f32", CQ, [x, -128, 127, 1e-5, DT(torch.int8)], [Out(torch.float32, (1,)), Out(L, (1,))])
    case("choose_qparams/err/zp_i32", CQ, [x, -128, 127, 1e-5, DT(torch.int8)], [Out(D, (1,)), Out(torch.int32, (1,))])
    case("choose_qparams/err/scale_2", CQ, [x, -128, 127, 1e-5, DT(torch.int8)], [Out(D, (2,)), Out(L, (1,))])
    case("choose_qparams/err/empty", CQ, [torch.zeros(0), -128, 127, 1e-5, DT(torch.int8)], [Out(D, (1,)), Out(L, (1,))],
         ub="the official kernel dereferences the end of an empty range")

    CT = "quantized_decomposed::choose_qparams_per_token_asymmetric.out"
    for name, shape in (("2d", (5, 9)), ("3d", (2, 3, 4)), ("1d", (11,)), ("big", (40, 16))):
        x = torch.randn(shape, generator=g(37)) * 2
        flat = x.flatten()
        flat[0] = 0.0
        if flat.numel() > 20:
            flat[9] = float("inf")
            flat[19] = 1e-9
        sshape = tuple(shape[:-1]) + (1,)
        case(f"choose_qparams_per_token_asymmetric/{name}", CT, [flat.reshape(shape), DT(torch.int8)],
             [Out(D, sshape), Out(L, sshape)])
    tok = torch.stack([torch.zeros(6), torch.full((6,), 1e-8), -torch.rand(6, generator=g(38)), torch.rand(6, generator=g(39)) + 3])
    case("choose_qparams_per_token_asymmetric/special_rows", CT, [tok, DT(torch.int8)], [Out(D, (4, 1)), Out(L, (4, 1))])
    case("choose_qparams_per_token_asymmetric/dynamic_outs", CT, [tok, DT(torch.int8)], [Out(D, (4, 1), upper=(8, 1)), Out(L, (4, 1), upper=(8, 1))])
    case("choose_qparams_per_token_asymmetric/err/nan", CT, [torch.tensor([[float("nan"), 1.0]]), DT(torch.int8)], [Out(D, (1, 1)), Out(L, (1, 1))])
    case("choose_qparams_per_token_asymmetric/err/scale_shape", CT, [tok, DT(torch.int8)], [Out(D, (4, 2)), Out(L, (4, 1))])
    case("choose_qparams_per_token_asymmetric/err/half_input", CT, [tok.half(), DT(torch.int8)], [Out(D, (4, 1)), Out(L, (4, 1))])
    case("choose_qparams_per_token_asymmetric/err/zp_f64", CT, [tok, DT(torch.int8)], [Out(D, (4, 1)), Out(D, (4, 1))])


def matmul_cases():
    F, H, D = torch.float32, torch.float16, torch.float64
    MM = "quantized_decomposed::mixed_mm.out"
    for dt in (F, H):
        for m, n, p in ((1, 4, 3), (3, 17, 5), (4, 64, 2)):
            x = (torch.randn(m, n, generator=g(41)) * 3).to(dt)
            w = torch.randint(-128, 128, (n, p), generator=g(42), dtype=torch.int32).to(torch.int8)
            s = (torch.rand(n, generator=g(43)) * 0.05 + 0.001).to(dt)
            case(f"mixed_mm/{str(dt)[6:]}/{m}x{n}x{p}", MM, [x, w, s, None], [Out(dt, (m, p))])
    x, w, s = torch.randn(2, 3, generator=g(44)), torch.ones(3, 2, dtype=torch.int8), torch.ones(3)
    case("mixed_mm/special", MM, [torch.tensor([[float("nan"), 1.0, 2.0], [float("inf"), -1e38, -1e38]]), w * 100, s * 1e37, None], [Out(F, (2, 2))])
    case("mixed_mm/err/zero_points", MM, [x, w, s, torch.zeros(3)], [Out(F, (2, 2))])
    case("mixed_mm/err/weight_u8", MM, [x, w.to(torch.uint8), s, None], [Out(F, (2, 2))])
    case("mixed_mm/err/scales_dtype", MM, [x, w, s.half(), None], [Out(F, (2, 2))])
    case("mixed_mm/err/inner", MM, [x, torch.ones(4, 2, dtype=torch.int8), s, None], [Out(F, (2, 2))])
    case("mixed_mm/err/scales_len", MM, [x, w, torch.ones(2), None], [Out(F, (2, 2))])
    case("mixed_mm/err/out_shape", MM, [x, w, s, None], [Out(F, (2, 3))])
    case("mixed_mm/err/double", MM, [x.double(), w, s.double(), None], [Out(D, (2, 2))])

    ML = "quantized_decomposed::mixed_linear.out"
    for dt in (F, H):
        for odt, od in ((F, None), (F, F), (H, H), (D, None), (H, None)):
            for m, n, p, groups in ((1, 8, 3, 0), (3, 16, 5, 4), (2, 10, 4, 4), (2, 10, 3, 6), (4, 33, 2, 1)):
                x = (torch.randn(m, n, generator=g(45)) * 2).to(dt)
                w = torch.randint(-128, 128, (p, n), generator=g(46), dtype=torch.int32).to(torch.int8)
                sshape = (p,) if groups == 0 else (p, groups)
                s = (torch.rand(sshape, generator=g(47)) * 0.05 + 0.001).to(dt)
                case(f"mixed_linear/{str(dt)[6:]}-{str(odt)[6:]}{'' if od else '-nodtype'}/{m}x{n}x{p}g{groups}", ML,
                     [x, w, s, None, DT(od) if od else None], [Out(odt, (m, p))])
    x, w, s = torch.randn(2, 3, generator=g(48)), torch.ones(2, 3, dtype=torch.int8), torch.ones(2)
    case("mixed_linear/special", ML, [torch.tensor([[float("nan"), 1.0, 2.0], [float("inf"), 6e4, 6e4]]), w * 100, s * 1e35, None, None], [Out(F, (2, 2))])
    case("mixed_linear/half_overflow", ML, [torch.tensor([[6e4, 6e4, -6e4]]).half(), w * 2, s.half(), None, None], [Out(H, (1, 2))])
    case("mixed_linear/err/zero_points", ML, [x, w, s, torch.zeros(2), None], [Out(F, (2, 2))])
    case("mixed_linear/err/dtype_f64", ML, [x, w, s, None, DT(D)], [Out(D, (2, 2))])
    case("mixed_linear/err/dtype_mismatch", ML, [x, w, s, None, DT(H)], [Out(F, (2, 2))])
    case("mixed_linear/err/weight_u8", ML, [x, w.to(torch.uint8), s, None, None], [Out(F, (2, 2))])
    case("mixed_linear/err/scales_dtype", ML, [x, w, s.half(), None, None], [Out(F, (2, 2))])
    case("mixed_linear/err/inner", ML, [x, torch.ones(2, 4, dtype=torch.int8), s, None, None], [Out(F, (2, 2))])
    case("mixed_linear/err/out_int", ML, [x, w, s, None, None], [Out(torch.int32, (2, 2))])
    case("mixed_linear/err/scales_3d", ML, [x, w, torch.ones(2, 1, 1), None, None], [Out(F, (2, 2))])


def add_cases():
    ADD = "quantized_decomposed::add.out"
    for dt in (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64):
        lo, hi = (0, 255) if dt == torch.uint8 else (-128, 127)
        a = torch.randint(lo, hi + 1, (3, 5), generator=g(51)).to(dt)
        b = torch.randint(lo, hi + 1, (3, 5), generator=g(52)).to(dt)
        for (sa, za, sb, zb, so, zo, qmin, qmax) in ((0.1, 3, 0.2, -2, 0.25, 10, 0, 255), (0.02, 128, 0.05, 100, 0.1, 0, 0, 255),
                                                      (1.0, 0, 1.0, 0, 0.5, 0, 20, 200), (1e-3, 2 ** 32 + 1, 3.0, 7, 1e-30, 5, 0, 255)):
            case(f"add/{str(dt)[6:]}/s{sa}-{sb}-{so}", ADD, [a, sa, za, 0, 255, b, sb, zb, 0, 255, so, zo, qmin, qmax], [Out(dt, (3, 5))])
    a = torch.randint(0, 256, (2, 3), generator=g(53)).to(torch.uint8)
    ok = [a, 0.1, 0, 0, 255, a, 0.1, 0, 0, 255, 0.2, 0, 0, 255]
    case("add/nan_scale", ADD, [a, float("nan"), 0, 0, 255, a, 0.1, 0, 0, 255, 0.2, 0, 0, 255], [Out(torch.uint8, (2, 3))])
    case("add/inf_out_scale", ADD, [a, 0.1, 0, 0, 255, a, 0.1, 0, 0, 255, float("inf"), 9, 0, 255], [Out(torch.uint8, (2, 3))])
    case("add/zero_out_scale", ADD, ok[:10] + [0.0, 9, 0, 255], [Out(torch.uint8, (2, 3))])
    case("add/0d", ADD, [torch.tensor(7, dtype=torch.uint8), 0.5, 1, 0, 255, torch.tensor(9, dtype=torch.uint8), 0.25, 2, 0, 255, 0.3, 4, 0, 255], [Out(torch.uint8, ())])

    def bad(name, i, v, outs=(Out(torch.uint8, (2, 3)),)):
        x = list(ok)
        x[i] = v
        case(f"add/err/{name}", ADD, x, list(outs))

    bad("shape", 5, a[:1])
    bad("dtype", 5, a.to(torch.int8))
    bad("out_dtype", 0, a, outs=(Out(torch.int8, (2, 3)),))
    bad("float", 0, a.float(), outs=(Out(torch.float32, (2, 3)),))
    bad("a_qmin", 3, -1)
    bad("b_qmax", 9, 256)
    bad("out_minmax", 12, 200)
    bad("out_qmin", 12, 300)


def torch_reference(c, outputs):
    """What torch's Python reference kernel (the functional quantized_decomposed operator) makes
    of the case, against the official runtime's outputs: "same", "differs ...", or why it was
    not compared. The official C++ kernels are the oracle; this records where they part."""
    if any(isinstance(a, DO) for a in c["args"]) or any(o.order for o in c["outs"]):
        return "not compared: dim order"
    base, ov = c["op"].split("::")[1].split(".")
    functional = {"out": "default", "Tensor_out": "tensor", "dtype_out": "dtype"}[ov]
    packet = getattr(torch.ops.quantized_decomposed, base, None)
    op = getattr(packet, functional, None) if packet is not None else None
    if op is None:
        return "not compared: no functional operator"
    pos, kw = [], {}
    for arg, v in zip(op._schema.arguments, c["args"]):
        v = v.dtype if isinstance(v, DT) else v
        if arg.kwarg_only:
            kw[arg.name] = v
        else:
            pos.append(v)
    try:
        with torch.no_grad():
            res = op(*pos, **kw)
    except Exception as e:  # noqa: BLE001
        return f"torch refuses: {str(e).splitlines()[0][:160]}"
    res = list(res) if isinstance(res, (tuple, list)) else [res]
    for i, (r, (dt, sizes, data)) in enumerate(zip(res, outputs)):
        if str(r.dtype).removeprefix("torch.") != dt:
            return f"differs: output {i} is {r.dtype}, official {dt}"
        r = r.reshape(sizes) if r.numel() == math.prod(sizes) else r
        if list(r.shape) != sizes:
            return f"differs: output {i} has shape {list(r.shape)}, official {sizes}"
        if tensor_bytes(r) != base64.b64decode(data):
            es = r.element_size()
            a, b = tensor_bytes(r), base64.b64decode(data)
            n = sum(a[k:k + es] != b[k:k + es] for k in range(0, len(a), es))
            return f"differs: output {i}, {n} of {r.numel()} elements"
    return "same"


def write_schemas():
    """testdata/schemas.json: every kernel's schema as torch registers it (the quantized kernel
    library's out variants, the embeddings' from ExecuTorch's quant patterns): per argument its
    name and type, for the Go test that checks each kernel reads argument i as schema argument i."""
    import executorch.exir.passes._quant_patterns_and_replacements  # noqa: F401  embedding_*bit
    import executorch.kernels.quantized  # noqa: F401  the out variants
    out = {}
    for name in sorted(n for n in _C._get_operator_names() if n.startswith("quantized_decomposed::")):
        base, ov = name.split("::")[1].split(".")
        sch = getattr(getattr(torch.ops.quantized_decomposed, base), ov)._schema
        out[name] = [dict(name=a.name, type=str(a.type), out=bool(a.is_out)) for a in sch.arguments]
    path = OUT.parent / "schemas.json"
    path.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(out)} schemas to {path}", file=sys.stderr)


def main():
    write_schemas()
    if "--schemas-only" in sys.argv:
        return
    emb_cases()
    quant_cases()
    dequant_cases()
    dim_order_cases()
    choose_cases()
    matmul_cases()
    add_cases()
    names = set()
    out = []
    dry = sys.argv[sys.argv.index("--dry") + 1] if "--dry" in sys.argv else None
    for c in CASES:
        if dry is not None:
            if c["name"].startswith(dry) and not c["ub"]:
                kind, val = run_official(build(c["op"], c["args"], c["outs"]), [o.order for o in c["outs"]])
                print(c["name"], kind, torch_reference(c, val) if kind == "ok" else val)
            continue
        assert c["name"] not in names, c["name"]
        names.add(c["name"])
        pte = build(c["op"], c["args"], c["outs"])
        rec = dict(name=c["name"], op=c["op"], pte=base64.b64encode(pte).decode())
        if c["ub"]:
            rec["expect"] = "refuse"
            rec["note"] = c["ub"]
        else:
            kind, val = run_official(pte, [o.order for o in c["outs"]])
            if kind == "ok":
                rec["expect"] = "ok"
                rec["outputs"] = [dict(dtype=d, sizes=s, data=b) for d, s, b in val]
                rec["torch_reference"] = torch_reference(c, val)
            else:
                rec["expect"] = "refuse"
                rec["note"] = f"official {kind}: {val}"
        out.append(rec)
    if dry is not None:
        return
    OUT.parent.mkdir(parents=True, exist_ok=True)
    doc = json.dumps(dict(generator="tools/reference/generate_quantized_kernel_fixtures.py",
                          torch=torch.__version__, cases=out), indent=0) + "\n"
    OUT.write_bytes(gzip.compress(doc.encode(), mtime=0))
    n_ok = sum(r["expect"] == "ok" for r in out)
    print(f"wrote {len(out)} cases ({n_ok} outputs, {len(out) - n_ok} refusals) to {OUT}", file=sys.stderr)
    # Where torch's Python reference parts from the official kernels, by operator.
    summary = {}
    for r in out:
        ref = r.get("torch_reference")
        if ref:
            key = ref.split(":")[0]
            summary.setdefault(r["op"], {}).setdefault(key, 0)
            summary[r["op"]][key] += 1
    (OUT.parent / "torch_reference.json").write_text(json.dumps(summary, indent=1, sort_keys=True) + "\n")
    for op, counts in sorted(summary.items()):
        print(f"  torch reference vs official, {op}: {counts}", file=sys.stderr)


if __name__ == "__main__":
    main()
