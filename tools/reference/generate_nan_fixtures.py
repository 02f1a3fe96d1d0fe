#!/usr/bin/env python3
"""NaN and ±Inf fixtures: what the official runtime returns when non-finite values come in.

Two sets, both run by the official runtime (executorch.runtime) on portable and XNNPACK programs:

testdata/nan/zoo/<model>.json
    For every committed zoo model (testdata/zoo/<model>), its committed inputs with non-finite
    values put in (CASES: one NaN, one +Inf, one -Inf at fixed positions, a mix, everything
    NaN), run through the committed portable.pte and xnnpack.pte. To stay small, inputs and
    outputs are stored as patches of the zoo's committed inputs and official outputs: runs
    [start, count, value] of flat indices whose values differ (values as text: "nan", "inf",
    "-inf" or a float32 in its shortest round-trip form).

testdata/nan/ops/<family>/{portable.pte,xnnpack.pte,case.json}
    Small single-purpose programs: one or two inputs with NaN and ±Inf at interesting places
    (first and last taps of pooling windows, NaN next to +Inf, whole rows and channels of NaN
    or -Inf, vector lanes and tails), several outputs, each one operator (or a convolution or
    linear layer with its fused activation). case.json holds the inputs and each variant's
    outputs in full (values as text, as above; int64 and bool outputs as integers), eager
    PyTorch's too (a reading aid, not a test target: where XNNPACK and eager disagree etgo
    matches the official runtime).

Usage:
  ~/.venvs/et/bin/python tools/reference/generate_nan_fixtures.py [--only zoo,ops,<model>,<family>]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parent))
import zoo  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
ZOO = REPO / "testdata" / "zoo"
OUT = REPO / "testdata" / "nan"

NAN, INF = float("nan"), float("inf")


def text(v) -> str:
    """A float32 as text that Go's strconv.ParseFloat(s, 32) reads back bit-exactly (NaN payloads
    are not kept: every NaN is "nan")."""
    v = np.float32(v)
    if np.isnan(v):
        return "nan"
    if np.isinf(v):
        return "inf" if v > 0 else "-inf"
    return np.format_float_positional(v, unique=True, trim="-") if abs(v) >= 1e-4 and abs(v) < 1e7 or v == 0 \
        else np.format_float_scientific(v, unique=True, trim="-")


def same(a, b) -> bool:
    """Equal as fixtures see them: both NaN, or the same bits."""
    return (np.isnan(a) and np.isnan(b)) or np.float32(a).tobytes() == np.float32(b).tobytes()


def patch(base: np.ndarray, new: np.ndarray) -> list:
    """Runs [start, count, value] of the flat indices where new differs from base (floats; for
    other dtypes, ints)."""
    b, n = base.reshape(-1), new.reshape(-1)
    assert b.shape == n.shape, (b.shape, n.shape)
    runs = []
    floating = np.issubdtype(n.dtype, np.floating)
    for i in range(n.size):
        if floating:
            if same(b[i], n[i]):
                continue
            v = text(n[i])
        else:
            if b[i] == n[i]:
                continue
            v = int(n[i])
        if runs and runs[-1][0] + runs[-1][1] == i and runs[-1][2] == v:
            runs[-1][1] += 1
        else:
            runs.append([i, 1, v])
    return runs


def run_official(pte: Path, inputs) -> list[np.ndarray]:
    from executorch.runtime import Runtime

    method = Runtime.get().load_program(str(pte)).load_method("forward")
    outs = method.execute([torch.from_numpy(np.ascontiguousarray(a)) for a in inputs])
    return [o.numpy() if isinstance(o, torch.Tensor) else np.asarray(o) for o in outs]


# ---- the zoo ---------------------------------------------------------------------------------

def zoo_cases(inputs: list[np.ndarray]) -> dict[str, list[np.ndarray]]:
    """Each case's inputs: the first floating input patched (or every floating input, for "mix"
    and "all_nan"); integer and boolean inputs unchanged."""
    floats = [i for i, a in enumerate(inputs) if np.issubdtype(a.dtype, np.floating)]
    first = floats[0]

    def with_values(which, places):
        """places: (index of a flat input of n elements, value)."""
        out = [a.copy() for a in inputs]
        for i in which:
            flat = out[i].reshape(-1)
            for at, v in places:
                flat[min(at(flat.size), flat.size - 1)] = v
        return out

    cases = {
        "nan": with_values([first], [(lambda n: n // 3, NAN)]),
        "pos_inf": with_values([first], [(lambda n: n // 2, INF)]),
        "neg_inf": with_values([first], [(lambda n: 2 * n // 3, -INF)]),
        # NaN near the start, +Inf and -Inf side by side (an Inf - Inf in any sum over both), a
        # lone -Inf, a NaN in the last element.
        "mix": with_values(floats, [(lambda n: n // 100, NAN), (lambda n: n // 2, INF), (lambda n: n // 2 + 1, -INF),
                                    (lambda n: 3 * n // 4, -INF), (lambda n: n - 1, NAN)]),
        "all_nan": [np.full_like(a, NAN) if i in floats else a.copy() for i, a in enumerate(inputs)],
    }
    return cases


def build_zoo(name: str):
    d = ZOO / name
    n_in = len(list((d / "inputs").glob("input_*.npy")))
    inputs = [np.load(d / "inputs" / f"input_{i}.npy") for i in range(n_in)]
    variants = ("portable", "xnnpack")
    expected = {}
    for v in variants:
        files = sorted((d / "expected" / v).glob("output_*.npy"), key=lambda p: int(p.stem.split("_")[1]))
        expected[v] = [np.load(p) for p in files]
        # The patches are against the committed outputs: the runtime must reproduce them exactly.
        for o, e in zip(run_official(d / f"{v}.pte", inputs), expected[v]):
            if patch(e, o):
                raise RuntimeError(f"{name}/{v}: the official runtime does not reproduce the committed outputs")
    record = {"model": name, "cases": []}
    for case, ins in zoo_cases(inputs).items():
        entry = {"name": case, "inputs": [patch(a, b) for a, b in zip(inputs, ins)], "outputs": {}}
        for v in variants:
            outs = run_official(d / f"{v}.pte", ins)
            entry["outputs"][v] = [patch(e, o) for e, o in zip(expected[v], outs)]
        record["cases"].append(entry)
        summary = " ".join(f"{v}:{sum(r[1] for p in entry['outputs'][v] for r in p)}" for v in variants)
        print(f"  {name}/{case}: changed outputs {summary}")
    (OUT / "zoo").mkdir(parents=True, exist_ok=True)
    (OUT / "zoo" / f"{name}.json").write_text(json.dumps(record, separators=(",", ":")) + "\n")


# ---- single-operator programs ----------------------------------------------------------------

SPECIALS = [NAN, INF, -INF, 0.0, -0.0, 1.5, -2.5, 3e38, -3e38]

# No subnormals anywhere: XNNPACK runs with them flushed to zero (its sqrt(1e-40) is 0, its
# log(1e-40) is -inf), which is a question apart from NaN and infinity.


def sprinkle(g: np.random.Generator, shape, p: float) -> np.ndarray:
    """Normal values with a fraction p replaced by NaN, +Inf or -Inf."""
    x = g.standard_normal(shape).astype(np.float32)
    m = g.random(shape)
    x[m < p] = NAN
    x[(m >= p) & (m < 2 * p)] = INF
    x[(m >= 2 * p) & (m < 3 * p)] = -INF
    return x


def unary_inputs(g) -> tuple[np.ndarray, np.ndarray]:
    """x [3, 37]: NaN, ±Inf and ±0 at a vector's first and last lane and in a tail, among
    ordinary values (and the kinks of ReLU6 and hardswish); big [2, 19]: finite values near the
    float32 limit, where a rearranged formula overflows or not."""
    x = g.standard_normal((3, 37)).astype(np.float32) * 4
    flat = x.reshape(-1)
    for k, v in enumerate([NAN, INF, -INF, 0.0, -0.0]):
        for pos in (k, 15 - k, 16 + k, 31 - k, 100 + k):
            flat[pos] = v
    flat[48:56] = [6.0, -3.0, 3.0, -6.0, 100.0, -100.0, 0.5, -1.0]
    big = g.standard_normal((2, 19)).astype(np.float32)
    big.reshape(-1)[:16] = [3e38, -3e38, 1e38, -1e38, 6e37, -6e37, 3.4e38, -3.4e38, NAN, INF, -INF, 2.5e38,
                            88.3, 88.5, 88.72, -88.5]
    return x, big


def pair_inputs(g) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """a, b [2, 81]: every pair of SPECIALS (in both orders) in the first row, the second row the
    pairs shifted by 5 lanes so each pair also sits in another vector position; s [3]: NaN,
    1.5 and +Inf, each broadcast as a one-element operand."""
    sp = np.array(SPECIALS, np.float32)
    a0, b0 = np.repeat(sp, len(sp)), np.tile(sp, len(sp))
    a = np.stack([a0, np.roll(a0, 5)])
    b = np.stack([b0, np.roll(b0, 5)])
    return a, b, np.array([NAN, 1.5, INF], np.float32)


def rows_input(g) -> np.ndarray:
    """[12, 21]: one pattern per row for reductions along the last dim."""
    x = g.standard_normal((12, 21)).astype(np.float32)
    x[1, 0] = NAN                  # NaN first
    x[2, 20] = NAN                 # NaN last
    x[3, 7] = INF                  # +Inf alone
    x[4, 9] = -INF                 # -Inf alone
    x[5, 3], x[5, 17] = INF, -INF  # both infinities
    x[6, 4], x[6, 5] = NAN, INF    # NaN then +Inf
    x[6, 16], x[6, 15] = NAN, INF  # +Inf then NaN (second pair in the tail)
    x[7, :] = NAN                  # all NaN
    x[8, :] = -INF                 # all -Inf (argmax ties)
    x[9, :] = INF                  # all +Inf
    x[10, 2], x[10, 11], x[10, 19] = -INF, NAN, -INF
    x[11, 15], x[11, 16] = INF, INF
    return x


def nchw_patterned(g, c, h, w, p=0.2) -> np.ndarray:
    """[1, c, h, w]: channel 0 finite, 1 all NaN, 2 all -Inf, 3 all +Inf, the rest with a fraction
    p of each special at random places (so windows hold them at every tap position)."""
    x = sprinkle(g, (1, c, h, w), p)
    x[0, 0] = g.standard_normal((h, w))
    x[0, 1], x[0, 2], x[0, 3] = NAN, -INF, INF
    return x


class Unary(nn.Module):
    ops = {
        "relu": torch.relu, "relu6": F.relu6, "hardtanh_m1_1": lambda x: F.hardtanh(x, -1.0, 1.0),
        "clamp_m05_05": lambda x: torch.clamp(x, -0.5, 0.5), "clamp_min0": lambda x: torch.clamp(x, min=0.0),
        "clamp_max025": lambda x: torch.clamp(x, max=0.25), "leaky_relu": lambda x: F.leaky_relu(x, 0.1),
        "elu": F.elu, "hardswish": F.hardswish, "hardsigmoid": F.hardsigmoid, "sigmoid": torch.sigmoid,
        "tanh": torch.tanh, "gelu": F.gelu, "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"), "abs": torch.abs, "neg": torch.neg, "sqrt": torch.sqrt,
        "rsqrt": torch.rsqrt, "exp": torch.exp, "log": torch.log, "floor": torch.floor, "ceil": torch.ceil,
        "square": lambda x: x ** 2,
    }
    # Near the float32 limit, the ops whose result there follows from their formula. Not sqrt and
    # rsqrt (XNNPACK's Newton step underflows to a flushed subnormal there) nor sigmoid, tanh and
    # gelu (XNNPACK's sigmoid(±1e30) is NaN, from inside its exp approximation): what those return
    # for huge finite inputs is a property of XNNPACK's approximations, not of NaN and infinity.
    big_ops = ["relu", "relu6", "clamp_m05_05", "leaky_relu", "hardswish", "hardsigmoid", "abs", "neg", "exp",
               "log", "floor", "square"]
    names = list(ops) + [n + "_big" for n in big_ops]

    def forward(self, x, big):
        return tuple(f(x) for f in self.ops.values()) + tuple(self.ops[n](big) for n in self.big_ops)


class Binary(nn.Module):
    names = ["add", "sub", "mul", "div", "maximum", "minimum",
             "add_bcast", "mul_bcast", "maximum_bcast", "minimum_bcast", "sub_bcast", "maximum_rev_bcast",
             "maximum_nan_s", "maximum_s_nan", "minimum_nan_s", "minimum_s_nan",
             "maximum_fin_s", "maximum_s_fin", "minimum_fin_s", "minimum_s_fin",
             "maximum_inf_s", "maximum_s_inf", "add_nan_s", "sub_s_inf", "mul_inf_s", "div_s_fin",
             "add_relu", "add_bcast_relu", "clamp_tensor_min", "clamp_tensor_max"]

    def forward(self, a, b, s):
        c = b[1]  # [81], broadcast along a's rows
        sn, sf, si = s[0:1], s[1:2], s[2:3]
        mx, mn = torch.maximum, torch.minimum
        return (a + b, a - b, a * b, a / b, mx(a, b), mn(a, b),
                a + c, a * c, mx(a, c), mn(a, c), a - c, mx(c, a),
                mx(a, sn), mx(sn, a), mn(a, sn), mn(sn, a),
                mx(a, sf), mx(sf, a), mn(a, sf), mn(sf, a),
                mx(a, si), mx(si, a), a + sn, si - a, a * si, sf / a,
                torch.relu(a + b), torch.relu(a + c),  # (XNNPACK fuses the ReLU into the add)
                torch.clamp(a, min=b), torch.clamp(a, max=b))


class Reduce(nn.Module):
    """Reductions along rows and columns, which XNNPACK declines at rank 2."""
    names = ["sum", "mean", "amax", "amin", "argmax", "argmin", "max_values", "max_indices",
             "min_values", "min_indices", "sum_dim0", "amax_dim0", "amin_dim0", "argmax_dim0", "argmin_dim0",
             "max_all", "min_all", "softmax", "log_softmax", "softmax_dim0", "log_softmax_dim0",
             "argmax_all", "argmin_all", "amax_01", "amin_01_keep", "sum_all", "mean_all"]

    def forward(self, x):
        mx, ix = torch.max(x, dim=-1)
        mn, jn = torch.min(x, dim=-1)
        return (x.sum(-1), x.mean(-1), x.amax(-1), x.amin(-1), x.argmax(-1), x.argmin(-1), mx, ix, mn, jn,
                x.sum(0), x.amax(0), x.amin(0), x.argmax(0), x.argmin(0), x.max(), x.min(),
                torch.softmax(x, -1), torch.log_softmax(x, -1), torch.softmax(x, 0), torch.log_softmax(x, 0),
                x.argmax(), x.argmin(), x.amax((0, 1)), x.amin((0, 1), keepdim=True), x.sum(), x.mean())


class Softmax(nn.Module):
    """Softmax along the last dim, which XNNPACK takes (log_softmax it declines)."""
    names = ["softmax", "softmax_rank3", "log_softmax"]

    def forward(self, x):
        return torch.softmax(x, -1), torch.softmax(x.reshape(3, 4, 21), -1), torch.log_softmax(x, -1)


class Pool(nn.Module):
    names = ["max2", "max3s2p1", "max3s1", "max4s2", "max3s1p1", "max2d2", "max2_ceil", "avg2", "avg3s1p1",
             "avg3s1p1_incl", "avg4s2", "adaptive_avg1", "mean_hw", "mean_hw_keep", "max2_indices_values",
             "max2_indices"]

    def forward(self, x):
        v, i = F.max_pool2d(x, 2, return_indices=True)
        return (F.max_pool2d(x, 2), F.max_pool2d(x, 3, 2, 1), F.max_pool2d(x, 3, 1), F.max_pool2d(x, 4, 2),
                F.max_pool2d(x, 3, 1, 1), F.max_pool2d(x, 2, 1, 0, dilation=2), F.max_pool2d(x, 2, ceil_mode=True),
                F.avg_pool2d(x, 2), F.avg_pool2d(x, 3, 1, 1, count_include_pad=False),
                F.avg_pool2d(x, 3, 1, 1), F.avg_pool2d(x, 4, 2), F.adaptive_avg_pool2d(x, 1),
                x.mean((2, 3)), x.mean((2, 3), keepdim=True), v, i)


class Conv(nn.Module):
    names = ["conv3_relu", "conv1", "conv3_relu6", "conv3s2_clamp", "dw3_relu6", "dw5", "dw3s2_relu",
             "conv3_nobias_hardtanh", "deconv2s2", "prelu", "upsample_bilinear", "upsample_bilinear_align"]

    def __init__(self):
        super().__init__()
        self.c3 = nn.Conv2d(16, 20, 3, padding=1)
        self.c1 = nn.Conv2d(16, 24, 1)
        self.c3b = nn.Conv2d(16, 16, 3, padding=1)
        self.c3s2 = nn.Conv2d(16, 8, 3, stride=2, padding=1)
        self.dw3 = nn.Conv2d(16, 16, 3, padding=1, groups=16)
        self.dw5 = nn.Conv2d(16, 16, 5, padding=2, groups=16)
        self.dw3s2 = nn.Conv2d(16, 16, 3, stride=2, padding=1, groups=16)
        self.nb = nn.Conv2d(16, 12, 3, padding=1, bias=False)
        self.up = nn.ConvTranspose2d(16, 8, 2, stride=2)
        self.prelu = nn.PReLU(16)

    def forward(self, x):
        return (torch.relu(self.c3(x)), self.c1(x), F.relu6(self.c3b(x)), torch.clamp(self.c3s2(x), -1.0, 1.0),
                F.relu6(self.dw3(x)), self.dw5(x), torch.relu(self.dw3s2(x)), F.hardtanh(self.nb(x), -0.5, 0.5),
                self.up(x), self.prelu(x), F.interpolate(x[:, :6], scale_factor=2, mode="bilinear"),
                F.interpolate(x[:, :6], size=(9, 11), mode="bilinear", align_corners=True))


class Linear(nn.Module):
    names = ["fc_relu", "fc_nobias", "fc_hardtanh", "fc_clamp_min", "fc1_relu", "fc1", "bmm"]

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(40, 36)
        self.nb = nn.Linear(40, 20, bias=False)
        self.ht = nn.Linear(40, 33)

    def forward(self, x, y):
        b = x[:16].reshape(2, 8, 40)
        return (torch.relu(self.fc(x)), self.nb(x), F.hardtanh(self.ht(x), -1.0, 1.0),
                torch.clamp(self.fc(x), min=0.25), torch.relu(self.fc(y)), self.nb(y),
                torch.bmm(b, b.transpose(1, 2)))


def linear_inputs(g):
    x = sprinkle(g, (17, 40), 0.01)
    x[3] = NAN                    # a whole row
    x[5, :20], x[5, 20:] = INF, -INF
    y = sprinkle(g, (1, 40), 0.0)
    y[0, 7] = NAN
    return x, y


FAMILIES = {
    "unary": (Unary, unary_inputs),
    "binary": (Binary, pair_inputs),
    "reduce": (Reduce, lambda g: (rows_input(g),)),
    "softmax": (Softmax, lambda g: (rows_input(g),)),
    "pool": (Pool, lambda g: (nchw_patterned(g, 20, 7, 7),)),
    "conv": (Conv, lambda g: (nchw_patterned(g, 16, 6, 6, 0.02),)),
    "linear": (Linear, linear_inputs),
}


def tensor_json(a: np.ndarray) -> dict:
    a = np.array(a, copy=True, order="C")  # (np.ascontiguousarray would make a 0-d tensor 1-d)
    if a.dtype == np.float32:
        vals = " ".join(text(v) for v in a.reshape(-1))
    elif a.dtype == np.bool_:
        vals = " ".join(str(int(v)) for v in a.reshape(-1))
    else:
        vals = " ".join(str(int(v)) for v in a.reshape(-1))
    return {"dtype": str(a.dtype), "shape": list(a.shape), "values": vals}


def build_family(name: str):
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.backends.xnnpack.utils.configs import get_transform_passes
    from executorch.exir import to_edge, to_edge_transform_and_lower

    cls, make_inputs = FAMILIES[name]
    import zlib

    seed = zlib.crc32(("nan/" + name).encode())
    torch.manual_seed(seed)
    model = cls().eval()
    inputs = make_inputs(np.random.default_rng(seed))
    tin = tuple(torch.from_numpy(a.copy()) for a in inputs)
    d = OUT / "ops" / name
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    with torch.no_grad():
        ep = torch.export.export(model, tin)
        eager = [o.numpy() for o in model(*tin)]
    (d / "portable.pte").write_bytes(to_edge(ep).to_executorch().buffer)
    edge = to_edge_transform_and_lower(ep, partitioner=[XnnpackPartitioner()], transform_passes=get_transform_passes())
    outside = sorted({str(n.target).split("::")[-1] for n in edge.exported_program().graph.nodes
                      if n.op == "call_function" and "getitem" not in str(n.target)
                      and "call_delegate" not in str(n.target)})
    (d / "xnnpack.pte").write_bytes(edge.to_executorch().buffer)
    case = {"family": name, "inputs": [tensor_json(a) for a in inputs], "output_names": cls.names,
            "outside_delegates": outside, "outputs": {}}
    results = {"eager": eager}
    for v in ("portable", "xnnpack"):
        results[v] = run_official(d / f"{v}.pte", inputs)
    for v, outs in results.items():
        assert len(outs) == len(cls.names), (name, v, len(outs))
        case["outputs"][v] = [tensor_json(o) for o in outs]
    (d / "case.json").write_text(json.dumps(case, indent=1) + "\n")
    # Where the variants disagree (NaN-ness, infinities, or beyond 1e-4): a reading aid.
    for k, n in enumerate(cls.names):
        p, x, e = results["portable"][k], results["xnnpack"][k], results["eager"][k]
        notes = []
        for a, b, what in ((x, p, "xnnpack/portable"), (p, e, "portable/eager"), (x, e, "xnnpack/eager")):
            if a.dtype != np.float32:
                bad = int(np.sum(a != b))
            else:
                bad = int(np.sum((np.isnan(a) != np.isnan(b)) | (np.isinf(a) & (a != b)) |
                                 (np.isfinite(a) & ~np.isclose(a, b, rtol=1e-4, atol=1e-4, equal_nan=True))))
            if bad:
                notes.append(f"{what} differ in {bad}")
        print(f"  {name}/{n}: {'; '.join(notes) or 'all agree'}")
    print(f"  {name}: outside the delegates: {outside}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="", help="comma-separated: zoo, ops, model or family names")
    args = ap.parse_args()
    only = {s for s in args.only.split(",") if s}
    models = sorted(p.name for p in ZOO.iterdir() if p.is_dir())
    for m in models:
        if not only or "zoo" in only or m in only:
            print(m)
            build_zoo(m)
    for f in FAMILIES:
        if not only or "ops" in only or f in only:
            print(f)
            build_family(f)


if __name__ == "__main__":
    main()
