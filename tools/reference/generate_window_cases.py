#!/usr/bin/env python3
"""Windowed operators whose window overhangs the input, run by the official runtime.

Issue 20: a depthwise 9x9 convolution with padding 4 over a 3x3 input ran in the official
runtime and panicked in etgo. This builds small modules (convolution 1-D/2-D/3-D, plain,
depthwise, depthwise with a multiplier and grouped; transposed convolution; max pooling with and
without indices; average pooling; convolution_backward and max_pool2d_with_indices_backward
called directly) over a seeded sample of a grid of shapes where the window overhangs the input:
kernel wider than the input, padding on both sides, dilation that steps over it, stride past it,
ceil_mode, count_include_pad, divisor_override, output_padding. Each case is lowered twice,
  portable   to_edge(ep).to_executorch()
  xnnpack    to_edge_transform_and_lower(ep, partitioner=[XnnpackPartitioner()],
             transform_passes=get_transform_passes()).to_executorch()
and both files are run with the official runtime (executorch.runtime) on seeded inputs.

Writes testdata/windows/:
  cases.json          per case: the module and its parameters, the inputs, and per variant the
                      file, its operators and delegates, and either the official runtime's
                      outputs, with their largest difference to eager PyTorch, or how it refused
                      the file: at load, at execute, or by crashing (the runtime runs in a child
                      process, restarted after a crash)
  pte/<case>.<variant>.pte
                      the lowered files; an xnnpack file byte-identical to the portable one
                      (nothing delegated) is not stored twice ("same_as": "portable")

Cases torch refuses (eager, export or lowering) are not generated (cases.json lists the ones
export or lowering refused, with the reason), nor max_pool2d_with_indices_backward cases whose
torch indices leave the plane (ExecuTorch's kernel would write out of bounds); the official
runtime's refusals are recorded, and etgo must refuse those files too.

  ~/.venvs/et/bin/python tools/reference/generate_window_cases.py
"""

from __future__ import annotations

import importlib.metadata
import json
import random
import shutil
import zlib
from pathlib import Path

import numpy as np
import torch
from torch import nn

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "testdata" / "windows"

# Channel layouts: (in, out, groups). Tiny, as the fixtures must stay small.
CONV_CHANNELS = {"plain": (2, 3, 1), "dw": (4, 4, 4), "dwmult": (2, 4, 2), "grouped": (4, 6, 2)}
CONVT_CHANNELS = {"plain": (2, 3, 1), "dw": (3, 3, 3), "grouped": (4, 6, 2)}


def seed_of(name: str) -> int:
    return zlib.crc32(name.encode())


# ---------------------------------------------------------------------------------------------
# Modules


class Conv(nn.Module):
    def __init__(self, nd, cin, cout, k, stride, padding, dilation, groups, bias):
        super().__init__()
        cls = {1: nn.Conv1d, 2: nn.Conv2d, 3: nn.Conv3d}[nd]
        self.conv = cls(cin, cout, k, stride=stride, padding=padding, dilation=dilation, groups=groups, bias=bias)

    def forward(self, x):
        return self.conv(x)


class ConvT(nn.Module):
    def __init__(self, nd, cin, cout, k, stride, padding, output_padding, dilation, groups, bias):
        super().__init__()
        cls = {1: nn.ConvTranspose1d, 2: nn.ConvTranspose2d, 3: nn.ConvTranspose3d}[nd]
        self.conv = cls(cin, cout, k, stride=stride, padding=padding, output_padding=output_padding,
                        dilation=dilation, groups=groups, bias=bias)

    def forward(self, x):
        return self.conv(x)


class MaxPool(nn.Module):
    def __init__(self, nd, k, stride, padding, dilation, ceil_mode, return_indices):
        super().__init__()
        cls = {1: nn.MaxPool1d, 2: nn.MaxPool2d, 3: nn.MaxPool3d}[nd]
        self.pool = cls(k, stride=stride, padding=padding, dilation=dilation, ceil_mode=ceil_mode,
                        return_indices=return_indices)

    def forward(self, x):
        return self.pool(x)


class AvgPool(nn.Module):
    def __init__(self, nd, k, stride, padding, ceil_mode, count_include_pad, divisor_override):
        super().__init__()
        kw = {} if nd == 1 else {"divisor_override": divisor_override}
        cls = {1: nn.AvgPool1d, 2: nn.AvgPool2d, 3: nn.AvgPool3d}[nd]
        self.pool = cls(k, stride=stride, padding=padding, ceil_mode=ceil_mode,
                        count_include_pad=count_include_pad, **kw)

    def forward(self, x):
        return self.pool(x)


class ConvBackward(nn.Module):
    """aten.convolution_backward itself (what a training graph holds), all three gradients."""

    def __init__(self, stride, padding, dilation, groups, bias_sizes):
        super().__init__()
        self.args = (stride, padding, dilation, groups, bias_sizes)

    def forward(self, grad_out, x, w):
        stride, padding, dilation, groups, bias_sizes = self.args
        return torch.ops.aten.convolution_backward(
            grad_out, x, w, bias_sizes, stride, padding, dilation, False, [0] * len(stride), groups, [True, True, True])


class MaxPoolBackward(nn.Module):
    def __init__(self, k, stride, padding, dilation, ceil_mode):
        super().__init__()
        self.args = (k, stride, padding, dilation, ceil_mode)

    def forward(self, grad_out, x, indices):
        k, stride, padding, dilation, ceil_mode = self.args
        return torch.ops.aten.max_pool2d_with_indices_backward(grad_out, x, k, stride, padding, dilation, ceil_mode, indices)


# ---------------------------------------------------------------------------------------------
# The grid


def span(k, d):
    return d * (k - 1) + 1


def overhangs(sizes, k, s, p, d):
    """Some spatial dim has a window wider than the input, padding, or a stride past it."""
    return any(span(k[i], d[i]) > sizes[i] or p[i] > 0 or s[i] > sizes[i] for i in range(len(sizes)))


def draw(rng, nd, choices):
    """One value per spatial dim from each named choice list."""
    return {name: [rng.choice(vals) for _ in range(nd)] for name, vals in choices.items()}


def squeeze(v):
    """A per-dim list whose values agree is given as one int (the modules' int form)."""
    return v[0] if len(set(v)) == 1 else tuple(v)


def conv_cases(rng):
    out = []
    # The layer (300 channels, 9x9 over 3x3), and the two that ran (7x7 over 3x3, 9x9
    # over 6x6), with 4 channels.
    for k, h, c in [(9, 3, 300), (7, 3, 4), (9, 6, 4), (9, 3, 4)]:
        out.append(("conv2d", dict(nd=2, channels="dw", cin=c, cout=c, groups=c, k=k, stride=1, padding=k // 2,
                                   dilation=1, bias=True, input=[1, c, h, h])))
    # 'same' padding with an even kernel pads one side more: torch pads the input first.
    for chan, k, d in [("plain", (4, 3), 1), ("dw", 4, 2)]:
        cin, cout, g = CONV_CHANNELS[chan]
        out.append(("conv2d", dict(nd=2, channels=chan, cin=cin, cout=cout, groups=g, k=k, stride=1, padding="same",
                                   dilation=d, bias=False, input=[1, cin, 2, 3])))
    choices = dict(size=[1, 2, 3, 5], k=[1, 2, 3, 5, 9], s=[1, 2, 4], p=[0, 1, 2, 4], d=[1, 2, 3])
    for nd, count in [(2, 64), (1, 28), (3, 4)]:
        n = 0
        while n < count:
            chan = rng.choice(list(CONV_CHANNELS))
            cin, cout, g = CONV_CHANNELS[chan]
            c = draw(rng, nd, choices)
            if nd == 3:  # the official portable kernel has no 3-D convolution: keep them small
                c["size"] = [min(x, 3) for x in c["size"]]
                c["k"] = [min(x, 3) for x in c["k"]]
            if not overhangs(c["size"], c["k"], c["s"], c["p"], c["d"]):
                continue
            batch = rng.choice([1, 1, 2])
            spec = dict(nd=nd, channels=chan, cin=cin, cout=cout, groups=g, k=squeeze(c["k"]), stride=squeeze(c["s"]),
                        padding=squeeze(c["p"]), dilation=squeeze(c["d"]), bias=rng.random() < 0.5,
                        input=[batch, cin] + c["size"])
            if valid(("conv", spec)):
                out.append((f"conv{nd}d", spec))
                n += 1
    return out


def convt_cases(rng):
    out = []
    choices = dict(size=[1, 2, 3], k=[1, 2, 3, 5], s=[1, 2, 3, 5], p=[0, 1, 2, 3], d=[1, 2])
    for nd, count in [(2, 32), (1, 14), (3, 2)]:
        n = 0
        while n < count:
            chan = rng.choice(list(CONVT_CHANNELS))
            cin, cout, g = CONVT_CHANNELS[chan]
            c = draw(rng, nd, choices)
            if nd == 3:
                c["size"] = [min(x, 2) for x in c["size"]]
            c["op"] = [rng.randrange(max(s, d)) for s, d in zip(c["s"], c["d"])]
            if not overhangs(c["size"], c["k"], c["s"], c["p"], c["d"]):
                continue
            spec = dict(nd=nd, channels=chan, cin=cin, cout=cout, groups=g, k=squeeze(c["k"]), stride=squeeze(c["s"]),
                        padding=squeeze(c["p"]), output_padding=squeeze(c["op"]), dilation=squeeze(c["d"]),
                        bias=rng.random() < 0.5, input=[1, cin] + c["size"])
            if valid(("convt", spec)):
                out.append((f"conv_transpose{nd}d", spec))
                n += 1
    return out


def pool_cases(rng):
    out = []
    for kind, count2, count1 in [("max_pool", 48, 14), ("avg_pool", 48, 14)]:
        choices = dict(size=[1, 2, 3, 5], k=[1, 2, 3, 4, 5, 7], s=[1, 2, 3, 5], d=[1, 2, 3])
        for nd, count in [(2, count2), (1, count1), (3, 2)]:
            n = 0
            while n < count:
                c = draw(rng, nd, choices)
                if nd == 3:
                    c["size"] = [3] * 3
                    c["k"] = [3] * 3
                c["p"] = [rng.randrange(k // 2 + 1) for k in c["k"]]  # torch: at most half the kernel
                if kind == "avg_pool":
                    c["d"] = [1] * nd
                if not overhangs(c["size"], c["k"], c["s"], c["p"], c["d"]):
                    continue
                spec = dict(nd=nd, k=squeeze(c["k"]), stride=squeeze(c["s"]), padding=squeeze(c["p"]),
                            ceil_mode=rng.random() < 0.5, input=[rng.choice([1, 2]), 2] + c["size"])
                if kind == "max_pool":
                    spec.update(dilation=squeeze(c["d"]), return_indices=rng.random() < 0.5)
                else:
                    spec.update(count_include_pad=rng.random() < 0.5,
                                divisor_override=rng.choice([None, None, 3]) if nd > 1 else None)
                if nd == 1 and rng.random() < 0.3:
                    spec["input"] = spec["input"][1:]  # unbatched [C, L]
                if valid((kind, spec)):
                    out.append((f"{kind}{nd}d", spec))
                    n += 1
    return out


def backward_cases(rng):
    out = []
    choices = dict(size=[1, 2, 3], k=[1, 2, 3, 5], s=[1, 2, 3], p=[0, 1, 2], d=[1, 2])
    n = 0
    while n < 18:
        chan = rng.choice(["plain", "dw", "grouped"])
        cin, cout, g = CONV_CHANNELS[chan]
        c = draw(rng, 2, choices)
        if not overhangs(c["size"], c["k"], c["s"], c["p"], c["d"]):
            continue
        spec = dict(channels=chan, cin=cin, cout=cout, groups=g, k=c["k"], stride=c["s"], padding=c["p"],
                    dilation=c["d"], input=[1, cin] + c["size"])
        if valid(("conv_backward", spec)):
            out.append(("convolution_backward", spec))
            n += 1
    choices = dict(size=[1, 2, 3, 5], k=[1, 2, 3, 4, 5], s=[1, 2, 3], d=[1, 2, 3])
    n = 0
    while n < 16:
        c = draw(rng, 2, choices)
        c["p"] = [rng.randrange(k // 2 + 1) for k in c["k"]]
        if not overhangs(c["size"], c["k"], c["s"], c["p"], c["d"]):
            continue
        spec = dict(k=c["k"], stride=c["s"], padding=c["p"], dilation=c["d"], ceil_mode=rng.random() < 0.5,
                    input=[1, 2] + c["size"])
        # An empty window's torch index may lie outside the plane, where ExecuTorch's backward
        # kernel would write out of bounds: not a case with a defined answer.
        if valid(("max_pool_backward", spec)) and indices_in_plane(spec):
            out.append(("max_pool2d_with_indices_backward", spec))
            n += 1
    return out


# ---------------------------------------------------------------------------------------------
# Building and running a case


def build(kind, spec, seed):
    """The module and its example inputs; raises where torch refuses the case."""
    torch.manual_seed(seed)
    g = torch.Generator().manual_seed(seed + 1)
    x = torch.randn(*spec["input"], generator=g)
    if kind == "conv":
        m = Conv(spec["nd"], spec["cin"], spec["cout"], spec["k"], spec["stride"], spec["padding"], spec["dilation"],
                 spec["groups"], spec["bias"])
        return m, (x,)
    if kind == "convt":
        m = ConvT(spec["nd"], spec["cin"], spec["cout"], spec["k"], spec["stride"], spec["padding"],
                  spec["output_padding"], spec["dilation"], spec["groups"], spec["bias"])
        return m, (x,)
    if kind == "max_pool":
        return MaxPool(spec["nd"], spec["k"], spec["stride"], spec["padding"], spec["dilation"], spec["ceil_mode"],
                       spec["return_indices"]), (x,)
    if kind == "avg_pool":
        return AvgPool(spec["nd"], spec["k"], spec["stride"], spec["padding"], spec["ceil_mode"],
                       spec["count_include_pad"], spec["divisor_override"]), (x,)
    if kind == "conv_backward":
        w = torch.randn(spec["cout"], spec["cin"] // spec["groups"], *spec["k"], generator=g)
        y = torch.nn.functional.conv2d(x, w, None, spec["stride"], spec["padding"], spec["dilation"], spec["groups"])
        go = torch.randn(*y.shape, generator=g)
        return ConvBackward(spec["stride"], spec["padding"], spec["dilation"], spec["groups"], [spec["cout"]]), (go, x, w)
    if kind == "max_pool_backward":
        _, idx = torch.nn.functional.max_pool2d(x, spec["k"], spec["stride"], spec["padding"], spec["dilation"],
                                                ceil_mode=spec["ceil_mode"], return_indices=True)
        go = torch.randn(*idx.shape, generator=g)
        return MaxPoolBackward(spec["k"], spec["stride"], spec["padding"], spec["dilation"], spec["ceil_mode"]), (go, x, idx)
    raise ValueError(kind)


def as_outputs(v):
    return list(v) if isinstance(v, (tuple, list)) else [v]


def valid(case):
    """torch runs the case eagerly (the cheap filter; export and lowering are checked later)."""
    kind, spec = case
    try:
        m, args = build(kind, spec, 0)
        with torch.no_grad():
            as_outputs(m.eval()(*args))
        return True
    except (RuntimeError, ValueError):
        return False


def json_float(v):
    """A float32 value as the shortest decimal that reads back to it; JSON has no infinities or
    NaN, so those are the strings "inf", "-inf" and "nan"."""
    if np.isfinite(v):
        return float(str(np.float32(v)))  # numpy prints a float32's shortest round-trip form
    return "nan" if np.isnan(v) else ("inf" if v > 0 else "-inf")


def indices_in_plane(spec):
    _, args = build("max_pool_backward", spec, 0)
    idx, plane = args[2], spec["input"][-1] * spec["input"][-2]
    return bool(((idx >= 0) & (idx < plane)).all())


def tensor_record(t):
    t = t.detach().contiguous()
    rec = {"dtype": str(t.dtype).removeprefix("torch."), "shape": list(t.shape)}
    if t.dtype.is_floating_point:
        rec["data"] = [json_float(v) for v in t.numpy().astype(np.float32).ravel().tolist()]
    else:
        rec["data"] = [int(v) for v in t.numpy().ravel().tolist()]
    return rec


def max_abs_diff(a, b):
    if tuple(a.shape) != tuple(b.shape):
        return float("inf")
    if a.numel() == 0:
        return 0.0
    d = (a.double() - b.double()).abs()
    # Matching infinities (a max pool window with no element inside) are no difference.
    d[(a.double() == b.double())] = 0
    return float(d.max())


def _official_worker(conn):
    """Runs programs with the official runtime for the parent, one request at a time."""
    from executorch.runtime import Runtime

    runtime = Runtime.get()
    while True:
        try:
            buffer, inputs = conn.recv()
        except EOFError:  # the parent is done
            return
        try:
            method = runtime.load_program(buffer).load_method("forward")
        except Exception as e:  # noqa: BLE001 - the runtime raises RuntimeError with its error code
            conn.send(("load", str(e)))
            continue
        try:
            outs = method.execute([torch.from_numpy(a) for a in inputs])
            conn.send(("ok", [o.numpy().copy() for o in outs]))
        except Exception as e:  # noqa: BLE001
            conn.send(("execute", str(e)))


class OfficialRunner:
    """The official runtime in a child process: some files crash it (XNNPACK on a transposed
    convolution with an empty output), which is recorded as the status "crash" and the child
    restarted."""

    def __init__(self):
        import multiprocessing

        self.ctx = multiprocessing.get_context("spawn")
        self.proc = None

    def _start(self):
        self.conn, child = self.ctx.Pipe()
        self.proc = self.ctx.Process(target=_official_worker, args=(child,), daemon=True)
        self.proc.start()

    def run(self, buffer, inputs):
        """("ok", outputs) or ("load" | "execute" | "crash", message)."""
        if self.proc is None or not self.proc.is_alive():
            self._start()
        self.conn.send((buffer, [a.detach().contiguous().numpy() for a in inputs]))
        try:
            if self.conn.poll(300):
                status, res = self.conn.recv()
                return status, ([torch.from_numpy(o) for o in res] if status == "ok" else res)
        except EOFError:
            pass
        self.proc.join(5)
        code = self.proc.exitcode
        if code is None:
            self.proc.kill()
        self.proc = None
        return "crash", f"the official runtime's process died (exit code {code})"


def lower_case(runner, name, family, kind, spec):
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.backends.xnnpack.utils.configs import get_transform_passes
    from executorch.exir import to_edge, to_edge_transform_and_lower

    m, args = build(kind, spec, seed_of(name))
    m.eval()
    with torch.no_grad():
        eager = as_outputs(m(*args))
    ep = torch.export.export(m, args)
    files = {
        "portable": to_edge(ep).to_executorch(),
        "xnnpack": to_edge_transform_and_lower(ep, partitioner=[XnnpackPartitioner()],
                                               transform_passes=get_transform_passes()).to_executorch(),
    }
    rec = {"name": name, "family": family, "module": type(m).__name__,
           "params": {k: v for k, v in spec.items() if k != "input"},
           "inputs": [tensor_record(a) for a in args], "variants": {}}
    for variant, et in files.items():
        v = {"operators": sorted({op.name + ("." + op.overload if op.overload else "")
                                  for plan in et.executorch_program.execution_plan for op in plan.operators}),
             "delegates": [d.id for plan in et.executorch_program.execution_plan for d in plan.delegates]}
        if variant == "xnnpack" and et.buffer == files["portable"].buffer:
            v["same_as"] = "portable"
        else:
            v["file"] = f"pte/{name}.{variant}.pte"
            (OUT / v["file"]).write_bytes(et.buffer)
        status, res = runner.run(et.buffer, args)
        v["status"] = status
        if status == "ok":
            v["outputs"] = [tensor_record(o) for o in res]
            v["max_abs_diff_to_eager"] = json_float(max(max_abs_diff(o, e) for o, e in zip(res, eager)))
        else:
            v["error"] = res
        rec["variants"][variant] = v
    return rec


def main():
    rng = random.Random(20)
    cases = []
    for gen in (conv_cases, convt_cases, pool_cases, backward_cases):
        cases += gen(rng)
    shutil.rmtree(OUT, ignore_errors=True)
    (OUT / "pte").mkdir(parents=True)
    kinds = {"conv1d": "conv", "conv2d": "conv", "conv3d": "conv", "conv_transpose1d": "convt",
             "conv_transpose2d": "convt", "conv_transpose3d": "convt", "convolution_backward": "conv_backward",
             "max_pool2d_with_indices_backward": "max_pool_backward"}
    runner = OfficialRunner()
    records, skipped, counts = [], [], {}
    for family, spec in cases:
        counts[family] = counts.get(family, 0) + 1
        name = f"{family}_{counts[family]:03d}"
        kind = kinds.get(family) or family[:-2]
        try:
            rec = lower_case(runner, name, family, kind, spec)
        except Exception as e:  # noqa: BLE001 - export or lowering refused it: not a case
            skipped.append({"name": name, "params": spec, "reason": f"{type(e).__name__}: {str(e).splitlines()[0][:200]}"})
            print(f"{name}: skipped ({skipped[-1]['reason']})")
            continue
        records.append(rec)
        summary = ", ".join(f"{k}: {v['status']}" + (f" Δeager {float(v['max_abs_diff_to_eager']):.2g}" if v["status"] == "ok" else "")
                            + (" delegated" if v["delegates"] else "") for k, v in rec["variants"].items())
        print(f"{name}: {summary}")
    doc = {
        "generator": "tools/reference/generate_window_cases.py",
        "versions": {p: importlib.metadata.version(p) for p in ("torch", "executorch")},
        "cases": records,
        "skipped": skipped,
    }
    (OUT / "cases.json").write_text(json.dumps(doc, separators=(",", ":")) + "\n")
    size = sum(f.stat().st_size for f in OUT.rglob("*") if f.is_file())
    print(f"{len(records)} cases ({len(skipped)} skipped), {size / 1e6:.2f} MB in {OUT}")


if __name__ == "__main__":
    main()
