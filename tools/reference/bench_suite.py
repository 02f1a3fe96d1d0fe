#!/usr/bin/env python3
"""The benchmark suite: etgo against the official ExecuTorch runtime and ONNX Runtime on full-size
models, outputs checked first, then timed side by side. One command:

  ~/.venvs/et/bin/python tools/reference/bench_suite.py                 # everything (hours)
  ~/.venvs/et/bin/python tools/reference/bench_suite.py --only resnet18,bert_base
  ~/.venvs/et/bin/python tools/reference/bench_suite.py --skip bert_base --threads 1
  ~/.venvs/et/bin/python tools/reference/bench_suite.py --redo time     # re-time what is recorded
  ~/.venvs/et/bin/python tools/reference/bench_suite.py --docs-only     # regenerate the doc only
  ~/.venvs/et/bin/python tools/reference/bench_suite.py --list

Per model (MODELS below; batch 1, seeded random weights, fixed seeded inputs), four phases:

  build     in <out>/<model>/ (ignored by git): model.pt2 (torch.export), xnnpack.pte
            (to_edge_transform_and_lower with [XnnpackPartitioner()] and XNNPACK's recommended
            transform passes, as generate_zoo.py), portable.pte (to_edge, no partitioner),
            model.onnx (torch.onnx.export of the same module, same seed, same weights), inputs,
            eager outputs, delegation.json (generate_zoo.delegation_record).
  check     run every file: `etgo run`, the official runtime, ONNX Runtime; compare etgo with
            the official runtime, both with eager PyTorch, ONNX Runtime with eager (TOLERANCE).
  time      xnnpack.pte in etgo (`etgo bench --json`, one binary built once) and in the official
            runtime (pybindings, as bench.py: the pool sized by bench.set_official_threads),
            model.onnx in ONNX Runtime (bench.ort: intra_op_num_threads=N, sequential), at each
            of --threads; rounds rotate the three runtimes' order so that noise hits all alike;
            each round's median over K runs, then the median over the rounds.
  portable  portable.pte in etgo and in the official runtime, one thread, the same way.

Every build step and every timing runs in its own process with a timeout, so a crash or a hang
costs one cell. Results go to --json (testdata/bench/suite.json) after every step; a rerun
resumes: phases recorded for a model are skipped unless --redo names them (a model's files are
rebuilt when missing). Finally the part of docs/performance.md between the suite markers is
regenerated from the JSON (--doc); the rest of that file is hand-written and kept.

The machine is shared: every round records /proc/loadavg before it, and the doc prints the
range. Compare ratios from one run, not absolute times across runs.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))

PHASES = ["build", "check", "time", "portable", "profile"]
# Outputs match when max |a - b| <= TOLERANCE * max(1, max |reference|) (generate_corpus.compare:
# the rule of the corpus and of internal/npyconv.Compare), NaN only where the reference has NaN.
TOLERANCE = 1e-4
DOC_BEGIN = "<!-- bench_suite.py: generated from testdata/bench/suite.json, do not edit below -->"
DOC_END = "<!-- bench_suite.py: end of the generated part -->"


# ---------------------------------------------------------------------------------------------
# The models


@dataclass
class Model:
    name: str
    description: str
    build: Callable  # () -> nn.Module, called after torch.manual_seed
    inputs: Callable  # (torch.Generator) -> tuple of tensors


def _tv(name, **kw):
    def build():
        import corpus

        return corpus.randomize_norms(corpus.tv(name, **kw))
    return build


def _image(g):
    import torch

    return (torch.randn(1, 3, 224, 224, generator=g),)


def _deit_tiny():
    import torch
    from torchvision.models.vision_transformer import VisionTransformer

    m = VisionTransformer(image_size=224, patch_size=16, num_layers=12, num_heads=3, hidden_dim=192, mlp_dim=768)
    # torchvision zero-initialises the head and the class token (for fine-tuning): the output would
    # be all zeros, and every comparison pass trivially.
    with torch.no_grad():
        for t in (m.heads.head.weight, m.heads.head.bias, m.class_token):
            t.normal_(std=0.02)
    return m


def _bert_base():
    from transformers import BertConfig, BertModel

    import corpus

    # BertConfig()'s defaults are bert-base-uncased's shape: 12 layers, hidden 768, 12 heads.
    return corpus.Flat(BertModel(BertConfig(), add_pooling_layer=False), lambda m, ids: m(input_ids=ids).last_hidden_state)


def _bert_inputs(g):
    import torch

    return (torch.randint(0, 30522, (1, 128), generator=g),)


def _fallback_mix():
    import torch
    import torch.nn as nn

    class Block(nn.Module):
        def __init__(self, d=256, h=1024):
            super().__init__()
            self.fc1, self.norm, self.fc2 = nn.Linear(d, h), nn.LayerNorm(h), nn.Linear(h, d)

        def forward(self, x):
            h = self.norm(self.fc1(x))
            h = 0.5 * h * (1.0 + torch.erf(h * 0.7071067811865476))  # GELU as BERT's original code writes it
            # A select (a leaky ReLU as a where), continuous at its threshold: with a jump there, a
            # value that rounds across it in one runtime and not in another flips a whole token.
            h = torch.where(h > 0, h, 0.1 * h)
            return x + self.fc2(h)

    class FallbackMix(nn.Module):
        def __init__(self, blocks=4):
            super().__init__()
            self.blocks = nn.Sequential(*[Block() for _ in range(blocks)])

        def forward(self, x):
            return self.blocks(x)

    return FallbackMix()


def _tokens(g):
    import torch

    return (torch.randn(1, 196, 256, generator=g),)


MODELS = [
    Model("mobilenet_v2", "torchvision mobilenet_v2", _tv("mobilenet_v2"), _image),
    Model("mobilenet_v3_small", "torchvision mobilenet_v3_small", _tv("mobilenet_v3_small"), _image),
    Model("mobilenet_v3_large", "torchvision mobilenet_v3_large", _tv("mobilenet_v3_large"), _image),
    Model("efficientnet_b0", "torchvision efficientnet_b0", _tv("efficientnet_b0"), _image),
    Model("resnet18", "torchvision resnet18", _tv("resnet18"), _image),
    Model("resnet50", "torchvision resnet50", _tv("resnet50"), _image),
    Model("squeezenet1_1", "torchvision squeezenet1_1", _tv("squeezenet1_1"), _image),
    Model("shufflenet_v2_x1_0", "torchvision shufflenet_v2_x1_0", _tv("shufflenet_v2_x1_0"), _image),
    Model("mnasnet1_0", "torchvision mnasnet1_0", _tv("mnasnet1_0"), _image),
    Model("regnet_y_400mf", "torchvision regnet_y_400mf", _tv("regnet_y_400mf"), _image),
    Model("convnext_tiny", "torchvision convnext_tiny", _tv("convnext_tiny"), _image),
    Model("deit_tiny", "torchvision VisionTransformer at DeiT-tiny's shape: patch 16, dim 192, depth 12, 3 heads, MLP 768",
          _deit_tiny, _image),
    Model("swin_t", "torchvision swin_t", _tv("swin_t"), _image),
    Model("bert_base", "transformers BertModel(BertConfig()): bert-base's shape (12 layers, hidden 768, 12 heads), "
          "no pooler, 128 random token ids, no attention mask given", _bert_base, _bert_inputs),
    Model("fallback_mix", "4 blocks of Linear(256→1024) → LayerNorm → erf-GELU → where(h > 0, h, 0.1h) → "
          "Linear(1024→256) + residual on 196×256 tokens. XNNPACK 1.5.1 has no config for layer norm, erf, "
          "gt or where, so those run on the portable kernels between small delegates: a GELU written with "
          "erf (BERT's original code) is not the delegated aten.gelu", _fallback_mix, _tokens),
]
BY_NAME = {m.name: m for m in MODELS}


# ---------------------------------------------------------------------------------------------
# Workers: each runs in its own process (a timeout and a crash cost one step) and writes its
# result as JSON to --status.


def seeded(name: str):
    import torch

    from generate_zoo import seed_of

    seed = seed_of(name)
    torch.manual_seed(seed)
    model = BY_NAME[name].build().eval()
    inputs = BY_NAME[name].inputs(torch.Generator().manual_seed(seed + 1))
    return model, inputs, seed


def worker_build(step: str, name: str, d: Path, status: dict):
    import torch

    from generate_zoo import as_tuple, delegate_ids, delegation_record, operator_names, save_npys

    t0 = time.perf_counter()
    if step == "export":
        model, inputs, seed = seeded(name)
        status["params"] = sum(p.numel() for p in model.parameters())
        with torch.no_grad():
            eager = [t for t in as_tuple(model(*inputs)) if isinstance(t, torch.Tensor)]
            ep = torch.export.export(model, inputs)
        d.mkdir(parents=True, exist_ok=True)
        for sub in ("inputs", "expected"):
            shutil.rmtree(d / sub, ignore_errors=True)
        save_npys(d / "inputs", "input", inputs)
        save_npys(d / "expected" / "eager", "output", eager)
        torch.export.save(ep, d / "model.pt2")
        status["seed"] = seed
    elif step == "xnnpack":
        from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
        from executorch.backends.xnnpack.utils.configs import get_transform_passes
        from executorch.exir import to_edge_transform_and_lower

        ep = torch.export.load(d / "model.pt2")
        edge = to_edge_transform_and_lower(ep, partitioner=[XnnpackPartitioner()], transform_passes=get_transform_passes())
        record = delegation_record(edge)
        prog = edge.to_executorch()
        (d / "xnnpack.pte").write_bytes(prog.buffer)
        record["operators"] = operator_names(prog)
        record["delegates"] = delegate_ids(prog)
        (d / "delegation.json").write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")
        status.update(delegates=record["num_delegated_subgraphs"], non_delegated=record["non_delegated_targets"])
    elif step == "portable":
        from executorch.exir import to_edge

        ep = torch.export.load(d / "model.pt2")
        (d / "portable.pte").write_bytes(to_edge(ep).to_executorch().buffer)
    elif step == "onnx":
        model, inputs, _ = seeded(name)
        tmp = d / "model.onnx.tmp"
        # The dynamo exporter (torch.export underneath, like the .pte files); weights inline.
        with torch.no_grad():
            torch.onnx.export(model, inputs, str(tmp), dynamo=True, external_data=False)
        tmp.replace(d / "model.onnx")
        import onnx

        m = onnx.load(str(d / "model.onnx"), load_external_data=False)
        status["opset"] = next((o.version for o in m.opset_import if o.domain in ("", "ai.onnx")), None)
    else:
        raise ValueError(step)
    status["seconds"] = round(time.perf_counter() - t0, 1)
    status["ok"] = True


def worker_official_run(pte: Path, inputs_dir: Path, out_dir: Path, status: dict):
    from generate_corpus import run_official_runtime

    t0 = time.perf_counter()
    status.update(run_official_runtime(pte, inputs_dir, out_dir))
    status["seconds"] = time.perf_counter() - t0


def worker_ort_run(onnx_file: Path, inputs_dir: Path, out_dir: Path, status: dict):
    import numpy as np
    import onnxruntime

    from generate_corpus import load_npys
    from generate_zoo import save_npys

    t0 = time.perf_counter()
    sess = onnxruntime.InferenceSession(str(onnx_file), providers=["CPUExecutionProvider"])
    feed = {i.name: a for i, a in zip(sess.get_inputs(), load_npys(inputs_dir, "input"))}
    outs = sess.run(None, feed)
    shutil.rmtree(out_dir, ignore_errors=True)
    save_npys(out_dir, "output", [np.asarray(o) for o in outs])
    status.update(outputs=len(outs), seconds=time.perf_counter() - t0)


def loadavg() -> list[float]:
    return [float(x) for x in Path("/proc/loadavg").read_text().split()[:3]]


def busy_cores(seconds: float = 0.5) -> float:
    """How many cores other processes kept busy over the next `seconds`, while this one sleeps
    (/proc/stat's busy jiffies over the total, times the core count). Sharper than the load
    average, which trails a minute behind and counts our own runs."""
    def sample():
        f = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
        idle = f[3] + f[4]
        return sum(f[:8]) - idle, sum(f[:8])
    b0, t0 = sample()
    time.sleep(seconds)
    b1, t1 = sample()
    return round((b1 - b0) / max(t1 - t0, 1) * (os.cpu_count() or 1), 2)


class OthersBusy:
    """Cores other processes kept busy while a block ran: the machine's busy jiffies over the
    wall time, less this process's and its waited-for children's CPU time (etgo bench)."""

    @staticmethod
    def _now():
        f = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
        t = os.times()
        hz = os.sysconf("SC_CLK_TCK")
        return (sum(f[:8]) - f[3] - f[4]) / hz, t.user + t.system + t.children_user + t.children_system, time.monotonic()

    def __enter__(self):
        self.start = self._now()
        return self

    def __exit__(self, *exc):
        b0, o0, w0 = self.start
        b1, o1, w1 = self._now()
        self.cores = round(max(0.0, ((b1 - b0) - (o1 - o0)) / max(w1 - w0, 1e-3)), 2)


def wait_quiet(job: dict) -> tuple[float, float]:
    """Wait (up to job["quiet_wait"] seconds) until other processes use at most job["quiet"]
    cores; returns (their busy cores at the start of the round, seconds waited)."""
    t0 = time.monotonic()
    busy = busy_cores()
    while job.get("quiet") is not None and busy > job["quiet"] and time.monotonic() - t0 < job.get("quiet_wait", 0):
        time.sleep(2)
        busy = busy_cores()
    return busy, round(time.monotonic() - t0, 1)


def worker_time(job: dict, status: dict, save):
    """Rounds of the runtimes in job["runtimes"], their order rotated every round."""
    import bench

    d = Path(job["dir"])
    variant, threads = job["variant"], job["threads"]
    pte = d / f"{variant}.pte"
    inputs = bench.zoo_inputs(pte)
    status["official_pool"] = bench.set_official_threads(threads)
    # K, the timed runs per round, from a probe of the official runtime (and etgo's time in the
    # check, when slower: portable kernels can be), so that a round of one runtime takes about
    # budget_ms; the same K for every runtime.
    _, probe = bench.official(pte, inputs, *((1, 2) if variant == "xnnpack" else (0, 1)))
    ms = max(min(probe), job["etgo_estimate_ms"] / 2 if variant == "portable" else 0)
    iters = max(job["min_iterations"], min(job["max_iterations"], int(job["budget_ms"] / max(ms, 1e-3))))
    job["iterations"], job["warmup"] = iters, max(1, min(5, iters // 5))
    status.update(probe_ms=min(probe), iterations=iters, warmup=job["warmup"], rounds=[])
    runtimes = job["runtimes"]

    def measure(rt: str) -> float:
        """One round of one runtime: the median over K runs, in ms."""
        if rt == "official":
            return statistics.median(bench.official(pte, inputs, job["warmup"], job["iterations"])[1])
        if rt == "etgo":
            res, err = bench.etgo(Path(job["etgo"]), pte, inputs, job["warmup"], job["iterations"], threads)
            if err:
                raise RuntimeError(f"etgo bench: {err.splitlines()[-1]}")
            return res["median_ms"]
        return statistics.median(bench.ort(d / "model.onnx", inputs, job["warmup"], job["iterations"], threads)[1])

    for r in range(job["rounds"]):
        order = runtimes[r % len(runtimes):] + runtimes[:r % len(runtimes)]
        busy, waited = wait_quiet(job)
        rnd = {"loadavg": loadavg(), "others_busy": busy, "waited_s": waited, "order": order}
        for rt in order:
            with OthersBusy() as ob:
                rnd[rt] = measure(rt)
            rnd.setdefault("others_during", {})[rt] = ob.cores
        rnd["loadavg_after"] = loadavg()
        status["rounds"].append(rnd)
        save()
    status["ok"] = True


def worker_main(args):
    status: dict = {}

    def save():
        Path(args.status).write_text(json.dumps(status))

    try:
        job = json.loads(args.job)
        kind = job["kind"]
        if kind == "build":
            worker_build(job["step"], job["name"], Path(job["dir"]), status)
        elif kind == "official-run":
            worker_official_run(Path(job["pte"]), Path(job["inputs"]), Path(job["outputs"]), status)
        elif kind == "ort-run":
            worker_ort_run(Path(job["onnx"]), Path(job["inputs"]), Path(job["outputs"]), status)
        elif kind == "time":
            worker_time(job, status, save)
        else:
            raise ValueError(kind)
    except Exception as e:  # noqa: BLE001  (recorded, not hidden)
        from generate_corpus import first_line

        status["error"] = f"{type(e).__name__}: {first_line(str(e))}"
        traceback.print_exc()
    save()


# ---------------------------------------------------------------------------------------------
# The driver


class Suite:
    def __init__(self, args):
        self.args = args
        self.out = args.out
        self.json = args.json
        self.log = args.log
        self.tmp = self.out / ".tmp"
        self.tmp.mkdir(parents=True, exist_ok=True)
        self.data = json.loads(self.json.read_text()) if self.json.exists() else {}
        self.data.setdefault("models", {})
        self.etgo = None

    def save(self):
        self.json.parent.mkdir(parents=True, exist_ok=True)
        self.json.write_text(json.dumps(self.data, indent=1, sort_keys=True) + "\n")

    def worker(self, job: dict, timeout: int):
        from generate_corpus import Step

        status = self.tmp / "status.json"
        status.unlink(missing_ok=True)
        s = Step([sys.executable, str(Path(__file__).resolve()), "--worker", "--job", json.dumps(job), "--status", str(status)],
                 timeout, self.log, status=status)
        st = s.status
        if s.error or "error" in st or not st.get("ok", True):
            st.setdefault("error", s.error or f"exited {s.rc}")
        st["wall_s"] = round(s.seconds, 1)
        return st

    def etgo_binary(self) -> str:
        import bench

        if self.etgo is None:
            self.etgo = str(self.args.etgo or bench.build_etgo(self.tmp / "etgo"))
        return self.etgo

    # -- build --

    def build(self, name: str, e: dict, redo: bool):
        d = self.out / name
        files = {"export": ["model.pt2", "inputs", "expected/eager"], "xnnpack": ["xnnpack.pte", "delegation.json"],
                 "portable": ["portable.pte"], "onnx": ["model.onnx"]}
        b = e.setdefault("build", {})
        for step, need in files.items():
            present = all((d / f).exists() for f in need)
            if present and not redo and b.get(step, {}).get("ok"):
                continue
            if step != "export" and not (d / "model.pt2").exists():
                b[step] = {"error": "no model.pt2 (export failed)"}
                continue
            if redo or not present:
                for f in need:
                    p = d / f
                    shutil.rmtree(p) if p.is_dir() else p.unlink(missing_ok=True)
            if step == "export":  # everything else derives from it
                for f in ("xnnpack.pte", "portable.pte", "model.onnx", "delegation.json"):
                    (d / f).unlink(missing_ok=True)
            self.say(f"{name}: {step} …")
            b[step] = self.worker({"kind": "build", "step": step, "name": name, "dir": str(d)}, self.args.timeout)
            self.say(f"{name}: {step}: {b[step].get('error') or 'ok'} ({b[step]['wall_s']} s)")
            self.save()

    # -- check --

    def check(self, name: str, e: dict):
        from generate_corpus import compare, etgo_run, load_npys, numbered

        d = self.out / name
        exp = d / "expected"
        c = e["check"] = {"tolerance": f"max|Δ| ≤ {TOLERANCE:g}·max(1, max|reference|)"}
        outs = {"eager": load_npys(exp / "eager", "output")}
        if all(o.size and float(o.std()) == 0 for o in outs["eager"] if o.dtype.kind == "f"):
            c["degenerate_error"] = "every eager output is constant: the comparisons below prove nothing"
        inputs = numbered(d / "inputs", "input")
        for variant in ("xnnpack", "portable"):
            pte = d / f"{variant}.pte"
            if not pte.exists():
                continue
            st = self.worker({"kind": "official-run", "pte": str(pte), "inputs": str(d / "inputs"),
                              "outputs": str(exp / f"official_{variant}")}, self.args.timeout)
            c[f"official_{variant}_s"] = st.get("seconds", st["wall_s"])
            if st.get("error"):
                c[f"official_{variant}_error"] = st["error"]
            else:
                outs[f"official_{variant}"] = load_npys(exp / f"official_{variant}", "output")
            t0 = time.perf_counter()
            o, err = etgo_run(self.etgo_binary(), pte, inputs, exp / f"etgo_{variant}", self.args.timeout, self.log)
            c[f"etgo_{variant}_s"] = time.perf_counter() - t0
            if err:
                c[f"etgo_{variant}_error"] = err
            else:
                outs[f"etgo_{variant}"] = o
        if (d / "model.onnx").exists():
            st = self.worker({"kind": "ort-run", "onnx": str(d / "model.onnx"), "inputs": str(d / "inputs"),
                              "outputs": str(exp / "ort")}, self.args.timeout)
            if st.get("error"):
                c["ort_error"] = st["error"]
            else:
                c["ort_s"] = st.get("seconds")
                outs["ort"] = load_npys(exp / "ort", "output")
        pairs = [("etgo_xnnpack", "official_xnnpack"), ("official_xnnpack", "eager"), ("etgo_xnnpack", "eager"),
                 ("ort", "eager"), ("etgo_portable", "official_portable"), ("official_portable", "eager")]
        c["pairs"] = {}
        for a, b in pairs:
            if a in outs and b in outs:
                ok, worst, why = compare(outs[a], outs[b])
                c["pairs"][f"{a}~{b}"] = {"ok": ok, "max_abs": worst if math.isfinite(worst) else None, "why": why,
                                          "scale": max(1.0, max(float(abs(x).max()) for x in outs[b] if x.size))}
        self.say(f"{name}: check: " + ", ".join(f"{k} {'ok' if v['ok'] else 'DIFF'} {v['max_abs'] or 0:.2g}"
                                                for k, v in c["pairs"].items())
                 + "".join(f"; {k}: {v}" for k, v in c.items() if k.endswith("_error")))
        self.save()

    # -- time --

    def time(self, name: str, e: dict, variant: str, threads: int):
        d = self.out / name
        c = e.get("check", {})
        key = "time" if variant == "xnnpack" else "portable"
        ort = variant == "xnnpack" and (d / "expected" / "ort").is_dir() and "ort_error" not in c
        runtimes = ["official", "etgo"] + (["ort"] if ort else [])
        rounds = self.args.rounds if variant == "xnnpack" else self.args.portable_rounds
        # The check's wall times (a load and one run each) bound a run; the worker sizes K itself.
        est_s = max([c.get(f"{rt}_{variant}_s", 1.0) for rt in ("official", "etgo")] + ([c.get("ort_s") or 1.0] if ort else []))
        job = {"kind": "time", "dir": str(d), "variant": variant, "threads": threads, "rounds": rounds,
               "budget_ms": self.args.budget_ms, "min_iterations": 5 if variant == "xnnpack" else 1,
               "max_iterations": self.args.max_iterations, "etgo_estimate_ms": c.get(f"etgo_{variant}_s", 0) * 1e3,
               "etgo": self.etgo_binary(), "runtimes": runtimes, "quiet": self.args.quiet, "quiet_wait": self.args.quiet_wait}
        self.say(f"{name}: {variant} {threads}T: {rounds} rounds of {', '.join(runtimes)} (load {loadavg()}) …")
        timeout = int(300 + rounds * (len(runtimes) * (2 * self.args.budget_ms / 1e3 + 8 * est_s) + (self.args.quiet_wait or 0)))
        st = self.worker(job, max(timeout, self.args.timeout))
        res = {k: st.get(k) for k in ("iterations", "warmup", "probe_ms", "official_pool")}
        res["rounds"] = st.get("rounds", [])
        if st.get("error"):
            res["error"] = st["error"]
        for rt in runtimes:
            vals = [r[rt] for r in res["rounds"] if rt in r]
            if vals:
                res[f"{rt}_ms"] = statistics.median(vals)
        e.setdefault(key, {})[str(threads)] = res
        self.say(f"{name}: {variant} {threads}T: {len(res['rounds'])} × {res['iterations']} runs: "
                 + ", ".join(f"{rt} {res.get(rt + '_ms', float('nan')):.3f} ms" for rt in runtimes)
                 + (f"; etgo/official {res['etgo_ms'] / res['official_ms']:.2f}" if "etgo_ms" in res and "official_ms" in res else "")
                 + (f"; etgo/ORT {res['etgo_ms'] / res['ort_ms']:.2f}" if "etgo_ms" in res and "ort_ms" in res else "")
                 + (f"; error: {res['error']}" if "error" in res else ""))
        self.save()

    def profile(self, name: str, e: dict):
        """Where etgo's time goes at one thread: `etgo bench --profile` (per instruction: delegate
        calls and portable kernels, summed by operator) and a Go CPU profile of the timed runs
        (`go tool pprof -top`: the hottest functions by self time, and XNNPACK's node
        functions by cumulative time: which node kinds the delegate's time is spent in)."""
        import re

        from generate_corpus import Step, numbered

        d = self.out / name
        pte = d / "xnnpack.pte"
        ms = e.get("time", {}).get("1", {}).get("etgo_ms") or 10.0
        iters = max(5, min(500, int(self.args.profile_ms / ms)))
        base = [self.etgo_binary(), "bench", str(pte), "--threads", "1", "--iterations", str(iters), "--warmup", "3"]
        base += [a for p in numbered(d / "inputs", "input") for a in ("--input", str(p))]
        prof = {"iterations": iters, "loadavg": loadavg()}
        s = Step(base + ["--profile", "--top", "0", "--json"], self.args.timeout, self.log)
        if s.error or s.rc != 0:
            prof["error"] = s.error or s.stderr.strip().splitlines()[-1]
        else:
            by_op: dict = {}
            for ins in json.loads(s.stdout).get("profile", []):
                k = (ins["kind"], re.sub(r" \(delegate \d+\)$", "", ins["name"]))
                v = by_op.setdefault(k, {"kind": k[0], "name": k[1], "share": 0.0, "instructions": 0})
                v["share"] += ins["share"]
                v["instructions"] += 1
            prof["operators"] = sorted(by_op.values(), key=lambda v: -v["share"])
        cpu = self.tmp / f"{name}.cpu.pprof"
        s = Step(base + ["--cpuprofile", str(cpu)], self.args.timeout, self.log)
        if not s.error and s.rc == 0 and cpu.exists():
            def top(*flags):
                r = subprocess.run(["go", "tool", "pprof", "-top", "-nodecount=300", *flags, str(cpu)], capture_output=True, text=True)
                rows = []
                for line in r.stdout.splitlines():
                    m = re.match(r"\s*([\d.]+\w*)\s+([\d.]+)%\s+[\d.]+%\s+([\d.]+\w*)\s+([\d.]+)%\s+(.+)$", line)
                    if m:
                        rows.append({"func": m.group(5).replace("github.com/etgo/etgo/", ""), "flat": float(m.group(2)),
                                     "cum": float(m.group(4))})
                return rows
            prof["pprof_flat"] = top()[:15]
            prof["pprof_nodes"] = [r for r in top("-cum") if re.fullmatch(r"backends/xnnpack\.[a-z]\w*", r["func"])][:12]
            cpu.unlink()
        e["profile"] = prof
        self.say(f"{name}: profile: " + ", ".join(f"{o['name']} {100 * o['share']:.0f}%" for o in prof.get("operators", [])[:5])
                 + " | " + ", ".join(f"{r['func']} {r['flat']:.0f}%" for r in prof.get("pprof_flat", [])[:5]))
        self.save()

    def say(self, msg: str):
        print(msg, flush=True)
        with self.log.open("a") as f:
            f.write(f"## {datetime.datetime.now().isoformat(timespec='seconds')} {msg}\n")

    def run(self, names: list[str], phases: list[str], redo: set[str], threads: list[int]):
        for name in names:
            e = self.data["models"].setdefault(name, {})
            e["description"] = BY_NAME[name].description
            d = self.out / name
            if "build" in phases:
                self.build(name, e, "build" in redo)
            have = {v: (d / f"{v}.pte").exists() for v in ("xnnpack", "portable")}
            if not any(have.values()):
                continue
            if "check" in phases and ("check" in redo or "check" not in e or "build" in redo):
                self.check(name, e)
            if "time" in phases and have["xnnpack"]:
                for t in threads:
                    if "time" in redo or str(t) not in e.get("time", {}) or "error" in e["time"][str(t)]:
                        self.time(name, e, "xnnpack", t)
            if "portable" in phases and have["portable"]:
                if "portable" in redo or "1" not in e.get("portable", {}) or "error" in e["portable"]["1"]:
                    self.time(name, e, "portable", 1)
        if "profile" in phases:
            for n in self.profile_models():
                e = self.data["models"][n]
                if n in names and ("profile" in redo or "profile" not in e or "error" in e["profile"]):
                    self.profile(n, e)

    def profile_models(self) -> list[str]:
        """--profile-models, or the --profile-count models etgo is slowest on relative to the
        official runtime at one thread (their profiles are dropped when they no longer are)."""
        if self.args.profile_models:
            return self.args.profile_models.split(",")
        ratio = {n: r["etgo_ms"] / r["official_ms"] for n, e in self.data["models"].items()
                 if (r := e.get("time", {}).get("1", {})).get("etgo_ms") and r.get("official_ms")}
        chosen = sorted(ratio, key=lambda n: -ratio[n])[:self.args.profile_count]
        for n, e in self.data["models"].items():
            if n not in chosen:
                e.pop("profile", None)
        return chosen


# ---------------------------------------------------------------------------------------------
# The machine and the doc


def machine() -> dict:
    info = {}
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        k, _, v = line.partition(":")
        info.setdefault(k.strip(), v.strip())  # the first processor's
    flags = set(info.get("flags", "").split())
    cpu = f"{info.get('model name', '?')} (family {info.get('cpu family', '?')}, model {info.get('model', '?')})"
    go = subprocess.run(["go", "version"], capture_output=True, text=True).stdout.strip()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--", "*.go"], cwd=REPO, capture_output=True, text=True).stdout.strip()
    versions = {p: importlib.metadata.version(p) for p in ("executorch", "torch", "torchvision", "transformers", "onnxruntime", "onnx")}
    return {"cpu": cpu, "cores": os.cpu_count(), "avx512f": "avx512f" in flags, "kernel": platform.release(), "go": go,
            "etgo_commit": commit + ("+dirty" if dirty else ""), "versions": versions}


def fmt_ms(x):
    if x is None:
        return "–"
    return f"{x:.3g}" if x < 100 else f"{x:.0f}"


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def load_range(rounds) -> str:
    """The 1-minute load average's range over the rounds, and the median of the cores other
    processes kept busy while the runtimes ran (median and worst over rounds and runtimes)."""
    vals = [r["loadavg"][0] for r in rounds] + [r["loadavg_after"][0] for r in rounds if "loadavg_after" in r]
    during = [v for r in rounds for v in r.get("others_during", {}).values()]
    s = f"{min(vals):.1f}–{max(vals):.1f}" if vals else "–"
    return s + (f" · {statistics.median(during):.2f} / {max(during):.2f}" if during else "")


def render(data: dict) -> str:
    models = [m.name for m in MODELS if m.name in data["models"]]
    M = data["models"]
    mc = data.get("machine", {})
    L = [DOC_BEGIN, ""]
    L.append("## The suite: full-size models against the official runtime and ONNX Runtime")
    L.append("")
    L.append(f"`~/.venvs/et/bin/python tools/reference/bench_suite.py` (models, phases and options in its docstring) "
             f"builds every model into the ignored `testdata/bench-full/`, checks outputs, times, writes "
             f"`testdata/bench/suite.json` and this section. Last run: {data.get('date', '?')}, on {mc.get('cpu', '?')} "
             f"({mc.get('cores', '?')} cores{', AVX-512' if mc.get('avx512f') else ''}), {mc.get('go', '')}, etgo at "
             f"{mc.get('etgo_commit', '?')}; " + ", ".join(f"{k} {v}" for k, v in mc.get("versions", {}).items()) + ".")
    L.append("")
    L.append("Batch 1, seeded random weights (BatchNorm statistics randomised), fixed seeded inputs. "
             "etgo is `etgo bench --json --threads N`; the official runtime is ExecuTorch's pybindings with its "
             "thread pool reset to N (`bench.set_official_threads`); ONNX Runtime runs `model.onnx` "
             "(`torch.onnx.export(dynamo=True)` of the same module) with `intra_op_num_threads=N`, sequential "
             "execution, all graph optimisations. Each round runs the three in a rotated order, each its median "
             "over K runs (K chosen so a round takes about a second, the same K for all three); a table cell is "
             "the median of the rounds. **The machine was shared with other builds**: the load column gives the "
             "1-minute load average's range over the rounds' starts and ends (our own runs count about 1 per "
             "thread in it; it trails a minute behind), then · the cores *other* processes kept busy while each "
             "runtime's round ran (`/proc/stat` busy time less this process's and etgo's CPU time), median / "
             "worst over rounds and runtimes. When that nears 1, a two-thread number means little; rounds "
             "alternate, so a burst hits one runtime's round and the median over rounds drops it. Ratios below 1 mean etgo is faster.")
    L.append("")
    for t in data.get("threads", [1, 2]):
        L.append(f"### XNNPACK programs, {t} thread{'s' if t > 1 else ''}")
        L.append("")
        L.append("| model | etgo ms | official ms | ORT ms | etgo/official | etgo/ORT | rounds × runs | load · others |")
        L.append("|---|---|---|---|---|---|---|---|")
        r_off, r_ort = [], []
        for n in models:
            r = M[n].get("time", {}).get(str(t))
            if not r:
                continue
            e, o, x = r.get("etgo_ms"), r.get("official_ms"), r.get("ort_ms")
            ro = e / o if e and o else None
            rx = e / x if e and x else None
            r_off.append(ro)
            r_ort.append(rx)
            note = f" ({r['error']})" if r.get("error") else ""
            L.append(f"| {n}{note} | {fmt_ms(e)} | {fmt_ms(o)} | {fmt_ms(x)} | {f'{ro:.2f}' if ro else '–'} | "
                     f"{f'{rx:.2f}' if rx else '–'} | {len(r['rounds'])} × {r['iterations']} | {load_range(r['rounds'])} |")
        g1, g2 = geomean(r_off), geomean(r_ort)
        L.append(f"| **geomean** ({sum(1 for x in r_off if x)} / {sum(1 for x in r_ort if x)} models) | | | | "
                 f"**{f'{g1:.2f}' if g1 else '–'}** | **{f'{g2:.2f}' if g2 else '–'}** | | |")
        L.append("")
    L.append("### Portable-only programs (no delegate), 1 thread")
    L.append("")
    L.append("`to_edge(...).to_executorch()`: every operator on the portable kernels, the official runtime's "
             "portable library against etgo's.")
    L.append("")
    L.append("| model | etgo ms | official ms | etgo/official | rounds × runs | load · others |")
    L.append("|---|---|---|---|---|---|")
    rp = []
    for n in models:
        r = M[n].get("portable", {}).get("1")
        if not r:
            continue
        e, o = r.get("etgo_ms"), r.get("official_ms")
        ro = e / o if e and o else None
        rp.append(ro)
        note = f" ({r['error']})" if r.get("error") else ""
        L.append(f"| {n}{note} | {fmt_ms(e)} | {fmt_ms(o)} | {f'{ro:.2f}' if ro else '–'} | {len(r['rounds'])} × {r['iterations']} | "
                 f"{load_range(r['rounds'])} |")
    g = geomean(rp)
    L.append(f"| **geomean** ({sum(1 for x in rp if x)} models) | | | **{f'{g:.2f}' if g else '–'}** | | |")
    L.append("")
    L.append("### Outputs, checked before timing")
    L.append("")
    L.append(f"Each cell is max |Δ| between the two runtimes' outputs, ✓ when ≤ {TOLERANCE:g}·max(1, max |reference|) "
             "(the second named is the reference; its scale, max(1, max |reference|), in the last column). "
             "Delegates and fallbacks are the official XNNPACK lowering's (`delegation.json`).")
    L.append("")
    L.append("| model | params | delegates | operators outside the delegates | etgo ~ official (xnnpack) | official ~ eager | "
             "ORT ~ eager | etgo ~ official (portable) | output scale |")
    L.append("|---|---|---|---|---|---|---|---|---|")
    for n in models:
        e = M[n]
        b = e.get("build", {})
        c = e.get("check", {}).get("pairs", {})

        def cell(k):
            v = c.get(k)
            if not v:
                return "–"
            return f"{'✓' if v['ok'] else '✗'} {v['max_abs']:.1e}" if v["max_abs"] is not None else "✗ " + v["why"][:40]
        nd = b.get("xnnpack", {}).get("non_delegated") or {}
        nds = ", ".join(f"{k.removeprefix('aten.')}×{v}" for k, v in sorted(nd.items(), key=lambda kv: -kv[1])) or "none"
        params = b.get("export", {}).get("params")
        scale = c.get("official_xnnpack~eager", {}).get("scale")
        L.append(f"| {n} | {f'{params / 1e6:.1f} M' if params else '–'} | {b.get('xnnpack', {}).get('delegates', '–')} | {nds} | "
                 f"{cell('etgo_xnnpack~official_xnnpack')} | {cell('official_xnnpack~eager')} | {cell('ort~eager')} | "
                 f"{cell('etgo_portable~official_portable')} | {f'{scale:.3g}' if scale else '–'} |")
    L.append("")
    fails = []
    for n in models:
        e = M[n]
        for step, st in e.get("build", {}).items():
            if st.get("error"):
                fails.append(f"- **{n}**, {step}: {st['error']}")
        for k, v in e.get("check", {}).items():
            if k.endswith("_error"):
                fails.append(f"- **{n}**, {k.removesuffix('_error').replace('_', ' ')}: {v}")
        for k, v in e.get("check", {}).get("pairs", {}).items():
            if not v["ok"]:
                fails.append(f"- **{n}**, outputs {k.replace('~', ' vs ')}: {v['why']}")
    profiled = sorted((n for n in models if "profile" in M[n]),
                      key=lambda n: -(M[n].get("time", {}).get("1", {}).get("etgo_ms", 0) / M[n].get("time", {}).get("1", {}).get("official_ms", 1)))
    if profiled:
        L.append("### Where etgo's time goes on the models it is slowest on (relative to the official runtime)")
        L.append("")
        L.append("At one thread: `etgo bench --profile` (each instruction's share of Execute, summed by operator: a "
                 "delegate call is one instruction) and a CPU profile of the timed runs (`etgo bench --cpuprofile`, "
                 "`go tool pprof -top`): XNNPACK node functions by cumulative share, then the hottest functions by "
                 "self time.")
        L.append("")
        for n in profiled:
            p, t = M[n]["profile"], M[n].get("time", {}).get("1", {})
            ratio = t.get("etgo_ms", 0) / t.get("official_ms", 1)
            L.append(f"**{n}** (etgo/official {ratio:.2f} at 1 thread; {p.get('iterations')} profiled runs, load {p['loadavg'][0]:.1f})"
                     + (f": {p['error']}" if p.get("error") else ""))
            L.append("")
            ops = p.get("operators", [])
            if ops:
                def op(o):
                    times = f" ×{o['instructions']}" if o["instructions"] > 1 else ""
                    return f"{o['name']}{times} {100 * o['share']:.1f}%"
                L.append("- instructions: " + ", ".join(op(o) for o in ops[:10])
                         + (f", … {len(ops) - 10} more operators" if len(ops) > 10 else ""))
            if p.get("pprof_nodes"):
                L.append("- XNNPACK backend functions (cumulative; a node kernel such as `conv2d` includes its helpers): " + ", ".join(
                    f"`{r['func'].removeprefix('backends/xnnpack.')}` {r['cum']:.0f}%" for r in p["pprof_nodes"]))
            if p.get("pprof_flat"):
                L.append("- hottest functions (self): " + ", ".join(f"`{r['func']}` {r['flat']:.0f}%" for r in p["pprof_flat"][:10]))
            L.append("")
    L.append("### Failures")
    L.append("")
    L += fails or ["None: every model exported, lowered both ways, exported to ONNX and ran in all three runtimes within tolerance."]
    L.append("")
    L.append("Models: " + "; ".join(f"**{m.name}**: {m.description}" for m in MODELS if m.name in M) + ".")
    L.append("")
    L.append(DOC_END)
    return "\n".join(L) + "\n"


def write_doc(doc: Path, data: dict):
    text = doc.read_text() if doc.exists() else ""
    part = render(data)
    if DOC_BEGIN in text and DOC_END in text:
        head, rest = text.split(DOC_BEGIN, 1)
        tail = rest.split(DOC_END, 1)[1].lstrip("\n")
        text = head + part + ("\n" + tail if tail else "")
    else:
        text = text + ("\n" if text else "") + part
    doc.write_text(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="", help="comma-separated model names")
    ap.add_argument("--skip", default="", help="comma-separated model names")
    ap.add_argument("--phases", default=",".join(PHASES), help=f"of {','.join(PHASES)}")
    ap.add_argument("--redo", default="", help="phases to redo even where recorded")
    ap.add_argument("--threads", default="1,2", help="thread counts for the XNNPACK timings")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--portable-rounds", type=int, default=3)
    ap.add_argument("--budget-ms", type=float, default=1000, help="a round of one runtime takes about this long")
    ap.add_argument("--max-iterations", type=int, default=50)
    ap.add_argument("--quiet", type=float, default=None,
                    help="before each round, wait until other processes keep at most this many cores busy (the machine is shared)")
    ap.add_argument("--quiet-wait", type=float, default=120, help="with --quiet: seconds to wait at most per round")
    ap.add_argument("--profile-count", type=int, default=5, help="profile this many models, the slowest relative to official")
    ap.add_argument("--profile-models", default="", help="profile these models instead")
    ap.add_argument("--profile-ms", type=float, default=4000, help="profile about this long per model")
    ap.add_argument("--timeout", type=int, default=2400, help="seconds per build or check step")
    ap.add_argument("--etgo", type=Path, default=None, help="an etgo binary (default: build ./cmd/etgo once)")
    ap.add_argument("--out", type=Path, default=REPO / "testdata" / "bench-full")
    ap.add_argument("--json", type=Path, default=REPO / "testdata" / "bench" / "suite.json")
    ap.add_argument("--doc", type=Path, default=REPO / "docs" / "performance.md")
    ap.add_argument("--log", type=Path, default=None, help="step log (default <out>/suite.log)")
    ap.add_argument("--docs-only", action="store_true")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--job", help=argparse.SUPPRESS)
    ap.add_argument("--status", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return worker_main(args)
    if args.list:
        for m in MODELS:
            print(f"{m.name:20} {m.description}")
        return
    only = [s for s in args.only.split(",") if s]
    skip = {s for s in args.skip.split(",") if s}
    unknown = (set(only) | skip) - set(BY_NAME)
    if unknown:
        sys.exit(f"unknown model(s): {sorted(unknown)}; --list names them")
    phases = [p for p in args.phases.split(",") if p]
    redo = {p for p in args.redo.split(",") if p}
    if (set(phases) | redo) - set(PHASES):
        sys.exit(f"unknown phase(s): {sorted((set(phases) | redo) - set(PHASES))}")
    args.out.mkdir(parents=True, exist_ok=True)
    args.log = args.log or args.out / "suite.log"
    suite = Suite(args)
    if not args.docs_only:
        names = [m.name for m in MODELS if (not only or m.name in only) and m.name not in skip]
        threads = [int(t) for t in args.threads.split(",") if t]
        suite.data["machine"] = machine()
        suite.data["date"] = datetime.date.today().isoformat()
        suite.data["threads"] = sorted(set(suite.data.get("threads", [])) | set(threads))
        suite.run(names, phases, redo, threads)
        suite.save()
    write_doc(args.doc, suite.data)
    print(f"wrote {args.json.relative_to(REPO) if args.json.is_relative_to(REPO) else args.json} and {args.doc}")


if __name__ == "__main__":
    sys.exit(main())
