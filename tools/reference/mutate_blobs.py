#!/usr/bin/env python3
"""The delegate-blob mutation campaign: corrupt XNNPACK blobs judged by the official runtime and etgo.

  ~/.venvs/et/bin/python tools/reference/mutate_blobs.py [--per-seed 120,200] [--seed 1] [--work DIR]
                                                        [--only SUBSTR,...] [--limit N] [--jobs-etgo N]

1. `go run ./internal/cmd/mutants` mutates the delegate blobs of the committed official files
   (testdata/zoo/*/xnnpack.pte, testdata/quant/*/xnnpack.pte, testdata/dynquant/*/xnnpack.pte, testdata/fp16/*/xnnpack.pte): flatbuffer field flips (value ids,
   dims, node and value types, flags, constant indices and sizes, quantization parameters),
   dropped, duplicated and reordered nodes and values, header and segment truncation, random
   bytes in the XNNGraph, and edits of the program around the blob (delegate call arguments,
   tensor sizes and types, named data). Each mutant is a list of byte edits against its seed.
2. Every mutant runs in the official runtime (one worker process, restarted when a mutant kills
   it; load + execute on the seed's committed inputs) and in etgo (`etgo run`), and gets a
   verdict from each: refused at load / refused at execute / crashed / ran (with the outputs
   compared with the seed's official outputs). etgo's verdicts also count `panicked` (a panic
   its runtime recovered) separately.
3. Writes testdata/mutants/summary.json and summary.md (counts per verdict pair and per family)
   and testdata/mutants/corpus.json: every mutant whose verdicts ever disagreed (kept across
   runs, by sha256, in WORK/disagreed.json), with the official verdict;
   backends/xnnpack's TestMutantCorpus runs etgo over that corpus.

The official verdicts are cached in WORK/official.jsonl by the mutant's sha256, so a rerun after
an etgo change only reruns etgo. Python runs one process at a time (the worker).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "testdata" / "mutants"
TIMEOUT = 120  # seconds per mutant and runtime (the machines are shared and loaded)
ATOL, RTOL = 1e-6, 1e-4  # "diff" below is max |got - want| in units of ATOL + RTOL·max|want|


# ---------------------------------------------------------------------------------------------
# The official runtime, in a worker process.


def worker() -> int:
    """Reads one JSON request per line, answers one JSON line: the official runtime's verdict."""
    import torch
    from executorch.runtime import Runtime

    rt = Runtime.get()
    out = sys.stdout
    sys.stdout = sys.stderr  # nothing but answers on the pipe
    for line in sys.stdin:
        req = json.loads(line)
        # The runtime's C++ log lines go to fd 2: into this mutant's log file.
        fd = os.open(req["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(fd, 2)
        os.close(fd)
        ans = {"verdict": "ran"}
        try:
            try:
                prog = rt.load_program(req["path"])
                m = prog.load_method("forward")
            except Exception as e:  # RuntimeError with the hex error code
                ans = {"verdict": "load-refused", "detail": f"{type(e).__name__}: {e}"}
                raise StopIteration
            try:
                ins = [torch.from_numpy(np.load(p)) for p in req["inputs"]]
                outs = m.execute(ins)
            except Exception as e:
                ans = {"verdict": "exec-refused", "detail": f"{type(e).__name__}: {e}"}
                raise StopIteration
            arrs = [o.numpy() if isinstance(o, torch.Tensor) else np.asarray(o) for o in outs]
            os.makedirs(req["out_dir"], exist_ok=True)
            for i, a in enumerate(arrs):
                np.save(os.path.join(req["out_dir"], f"output_{i}.npy"), a)
            ans.update(compare(arrs, [np.load(p) for p in req["expected"]]))
        except StopIteration:
            pass
        except Exception as e:  # anything else is the judge's fault: say so
            ans = {"verdict": "judge-error", "detail": f"{type(e).__name__}: {e}"}
        prog = m = None  # release the program before its file goes away
        out.write(json.dumps(ans) + "\n")
        out.flush()
    return 0


def compare(got, want) -> dict:
    """same: every output has the expected dtype, shape and values: within ATOL + RTOL x the
    output's largest magnitude (some zoo outputs are all below 3e-3, where an absolute tolerance
    alone would call different results equal)."""
    if len(got) != len(want):
        return {"same": False, "diff": f"{len(got)} outputs, {len(want)} expected"}
    worst = 0.0
    finite = True
    for g, w in zip(got, want):
        if g.shape != w.shape or g.dtype != w.dtype:
            return {"same": False, "diff": f"{g.dtype}{list(g.shape)} vs {w.dtype}{list(w.shape)}"}
        if g.size:
            if np.issubdtype(g.dtype, np.floating):
                finite = finite and bool(np.isfinite(g).all())
            g64, w64 = g.astype(np.float64), w.astype(np.float64)
            same = (g64 == w64) | (np.isnan(g64) & np.isnan(w64))  # equal infinities and NaNs agree
            with np.errstate(invalid="ignore"):
                d = np.where(same, 0.0, np.abs(g64 - w64))
            d = np.where(np.isnan(d), np.inf, d)
            scale = float(np.abs(w64[np.isfinite(w64)]).max()) if np.isfinite(w64).any() else 0.0
            worst = max(worst, float(d.max()) / (ATOL + RTOL * scale))
    return {"same": worst <= 1, "diff": worst, "finite": finite}


class Official:
    """The worker: restarted after a mutant crashes it or hangs."""

    def __init__(self, python: str):
        self.python = python
        self.proc = None

    def start(self):
        self.proc = subprocess.Popen([self.python, __file__, "--worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1, cwd=ROOT)

    def judge(self, req: dict) -> dict:
        if self.proc is None or self.proc.poll() is not None:
            self.start()
        try:
            self.proc.stdin.write(json.dumps(req) + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            pass
        ready, _, _ = select.select([self.proc.stdout], [], [], TIMEOUT)
        line = self.proc.stdout.readline() if ready else ""
        if line:
            return json.loads(line)
        if not ready:
            self.proc.kill()
            self.proc.wait()
            self.proc = None
            return {"verdict": "crashed", "detail": f"no answer in {TIMEOUT}s"}
        rc = self.proc.wait()
        self.proc = None
        return {"verdict": "crashed", "detail": f"worker died (exit {rc})"}

    def close(self):
        if self.proc is not None:
            self.proc.stdin.close()
            self.proc.wait()


# ---------------------------------------------------------------------------------------------
# etgo


def etgo_judge(etgo: Path, path: Path, inputs, expected, out_dir: Path, official_out: Path | None) -> dict:
    shutil.rmtree(out_dir, ignore_errors=True)
    args = [str(etgo), "run", str(path), "--output-dir", str(out_dir)]
    for p in inputs:
        args += ["--input", str(p)]
    try:
        r = subprocess.run(args, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return {"verdict": "crashed", "detail": f"no answer in {TIMEOUT}s"}
    return etgo_verdict(r.returncode, r.stderr, out_dir, expected, official_out)


def etgo_verdict(returncode: int, stderr: str, out_dir: Path, expected, official_out: Path | None) -> dict:
    """The verdict of one `etgo run` from its exit code, its stderr and the outputs it wrote."""
    err = stderr.strip()
    if returncode == 0:
        got = [np.load(out_dir / f"output_{i}.npy") for i in range(len(list(out_dir.glob("output_*.npy"))))]
        ans = {"verdict": "ran"}
        ans.update(compare(got, [np.load(p) for p in expected]))
        if official_out is not None and official_out.exists():
            off = [np.load(official_out / f"output_{i}.npy") for i in range(len(list(official_out.glob("output_*.npy"))))]
            c = compare(got, off)
            ans["matches_official"], ans["diff_official"] = c["same"], c["diff"]
        return ans
    # The error is the line "etgo run: ..." (a refusal naming missing operators lists them after it).
    last = next((l for l in err.splitlines() if l.startswith("etgo run:")), err.splitlines()[-1] if err else "")
    if "panic:" in err or "fatal error:" in err or returncode not in (0, 1):
        return {"verdict": "crashed", "detail": (err[:400] or f"exit {returncode}")}
    if "panicked" in err:
        return {"verdict": "panicked", "detail": last[:600]}
    if last.startswith("etgo run: load:"):
        return {"verdict": "load-refused", "detail": last[len("etgo run: load: "):][:600]}
    if last.startswith("etgo run: execute:"):
        return {"verdict": "exec-refused", "detail": last[len("etgo run: execute: "):][:600]}
    return {"verdict": "judge-error", "detail": last[:600]}


# ---------------------------------------------------------------------------------------------
# The campaign


def seed_io(seed_path: Path):
    d = seed_path.parent
    num = lambda p: int(re.search(r"(\d+)", p.stem).group(1))
    inputs = sorted((d / "inputs").glob("input_*.npy"), key=num)
    exp_dir = d / "expected" / "xnnpack" if (d / "expected" / "xnnpack").is_dir() else d / "expected"
    expected = sorted(exp_dir.glob("output_*.npy"), key=num)
    return inputs, expected


def apply(seed: bytes, m: dict) -> bytes:
    """internal/mutate's Mutant.Apply: edits in order; with a splice among them, every offset
    is the seed's and they apply from the last back."""
    edits = m.get("edits") or []
    if any(e.get("splice") for e in edits):
        b = bytearray(seed)
        for e in sorted(edits, key=lambda e: -e["off"]):
            data = bytes.fromhex(e["data"])
            n = e.get("cut", 0) if e.get("splice") else len(data)
            b[e["off"]:e["off"] + n] = data
        if m.get("length"):
            del b[m["length"]:]
        return bytes(b)
    b = bytearray(seed)
    for e in edits:
        data = bytes.fromhex(e["data"])
        b[e["off"]:e["off"] + len(data)] = data
    if m.get("length"):
        del b[m["length"]:]
    return bytes(b)


REFUSED = ("load-refused", "exec-refused")


def load_official_cache(work: Path):
    """WORK/official.jsonl, the official verdicts by the mutant's sha256 (shared by the blob and
    file campaigns), and its path for appending."""
    path = work / "official.jsonl"
    cache = {}
    if path.exists():
        for line in path.read_text().splitlines():
            r = json.loads(line)
            cache[r["sha256"]] = r
    return path, cache


def official_class(o: dict) -> str:
    """The official verdict with the outputs folded in: ran-same, ran-diff, ran-garbage."""
    v = o["verdict"]
    if v != "ran":
        return v
    if o.get("same"):
        return "ran-same"
    return "ran-diff" if o.get("finite", True) else "ran-nonfinite"


def etgo_class(e: dict) -> str:
    v = e["verdict"]
    if v != "ran":
        return v
    if e.get("matches_official"):
        return "ran-as-official"
    return "ran-same" if e.get("same") else "ran-diff"


def disagrees(o: dict, e: dict) -> bool:
    oc, ec = official_class(o), etgo_class(e)
    if ec in ("panicked", "crashed", "judge-error") or oc == "judge-error":
        return True
    if (oc in REFUSED) != (ec in REFUSED):
        return True  # one refused, the other ran (or crashed)
    if oc.startswith("ran") and ec.startswith("ran") and ec != "ran-as-official":
        return True
    return False


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--per-seed", default="120,200", help="mutants asked per seed; a comma list runs several generations")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--work", type=Path, default=ROOT / "build" / "mutants")
    ap.add_argument("--only", help="comma-separated substrings of seed names")
    ap.add_argument("--limit", type=int, default=0, help="judge at most this many mutants (a smoke run)")
    ap.add_argument("--no-write", action="store_true", help="do not write testdata/mutants")
    args = ap.parse_args()
    if args.worker:
        return worker()

    work = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    seeds = [s for d in ("zoo", "quant", "dynquant", "fp16") for s in sorted((ROOT / "testdata" / d).glob("*/xnnpack.pte"))]
    if args.only:
        keys = args.only.split(",")
        seeds = [s for s in seeds if any(k in str(s) for k in keys)]
    etgo = work / "etgo"
    subprocess.run(["go", "build", "-o", str(etgo), "./cmd/etgo"], cwd=ROOT, check=True)
    # One generation per --per-seed count; the campaign is their union (a mutant two of them
    # draw counts once). A later generation's ids get an @count suffix.
    man = {"seeds": []}
    by_path = {}
    seen_edits = set()
    counts = [int(x) for x in str(args.per_seed).split(",")]
    for gen, count in enumerate(counts):
        manifest = work / f"manifest-{count}.json"
        subprocess.run(["go", "run", "./internal/cmd/mutants", "-n", str(count), "-seed", str(args.seed), "-o", str(manifest)]
                       + [str(s.relative_to(ROOT)) for s in seeds], cwd=ROOT, check=True)
        for s in json.loads(manifest.read_text())["seeds"]:
            if s["path"] not in by_path:
                by_path[s["path"]] = {**s, "mutants": []}
                man["seeds"].append(by_path[s["path"]])
            for m in s["mutants"]:
                key = (s["path"], json.dumps(m.get("edits")), m.get("length", 0))
                if key in seen_edits:
                    continue
                seen_edits.add(key)
                if gen > 0:
                    m = {**m, "id": f"{m['id']}@{count}"}
                by_path[s["path"]]["mutants"].append(m)

    cache_path, cache = load_official_cache(work)
    # The mutants whose verdicts ever disagreed, by the sha256 of their bytes.
    disagreed_path = work / "disagreed.json"
    disagreed = set(json.loads(disagreed_path.read_text())) if disagreed_path.exists() else set()
    old_corpus = OUT / "corpus.json"
    if old_corpus.exists():  # a fresh work dir still remembers what the committed corpus holds
        for m in json.loads(old_corpus.read_text())["mutants"]:
            disagreed.add(hashlib.sha256(apply((ROOT / m["seed"]).read_bytes(), m)).hexdigest())

    official = Official(sys.executable)
    results = []
    tmp = Path(tempfile.mkdtemp(prefix="mutants-", dir=work))
    started = time.time()
    n = 0
    try:
        with cache_path.open("a") as cache_file:
            for s in man["seeds"]:
                seed_path = ROOT / s["path"]
                seed = seed_path.read_bytes()
                inputs, expected = seed_io(seed_path)
                for m in s["mutants"]:
                    if args.limit and n >= args.limit:
                        break
                    n += 1
                    data = apply(seed, m)
                    sha = hashlib.sha256(data).hexdigest()
                    path = tmp / f"{sha[:16]}.pte"  # a fresh name: the worker may still map the last one
                    path.write_bytes(data)
                    off_out = work / "official-out" / sha[:16]
                    o = cache.get(sha)
                    if o is None:
                        log = tmp / "official.log"
                        o = official.judge({"path": str(path), "inputs": [str(p) for p in inputs], "expected": [str(p) for p in expected],
                                            "out_dir": str(off_out), "log": str(log)})
                        if log.exists():
                            lines = [l for l in log.read_text(errors="replace").splitlines() if " E " in l or "rror" in l]
                            o["log"] = "\n".join(lines[-4:])[-800:]
                        o["sha256"] = sha
                        cache[sha] = o
                        cache_file.write(json.dumps(o) + "\n")
                        cache_file.flush()
                    if o["verdict"] == "ran" and off_out.is_dir():  # recompare: the tolerance may have changed
                        got = [np.load(off_out / f"output_{i}.npy") for i in range(len(list(off_out.glob("output_*.npy"))))]
                        o.update(compare(got, [np.load(p) for p in expected]))
                    e = etgo_judge(etgo, path, inputs, expected, tmp / "etgo-out", off_out if o["verdict"] == "ran" else None)
                    results.append({"id": m["id"], "seed": s["path"], "kind": m["kind"], "desc": m["desc"], "edits": m["edits"],
                                    "length": m.get("length", 0), "sha256": sha, "official": o, "etgo": e})
                    path.unlink()
                    if disagrees(o, e):
                        disagreed.add(sha)
                    if n % 100 == 0:
                        print(f"{n} mutants, {time.time() - started:.0f}s", file=sys.stderr)
    finally:
        official.close()
        shutil.rmtree(tmp, ignore_errors=True)
    disagreed_path.write_text(json.dumps(sorted(disagreed), indent=0))
    (work / "results.json").write_text(json.dumps(results, indent=1))
    summary = summarize(results, man, args)
    print(summary["md"])
    if not args.no_write:
        OUT.mkdir(parents=True, exist_ok=True)
        (OUT / "summary.json").write_text(json.dumps(summary["json"], indent=1) + "\n")
        (OUT / "summary.md").write_text(summary["md"])
        corpus = [corpus_entry(r) for r in results if r["sha256"] in disagreed]
        head = {"about": "mutants whose official and etgo verdicts once disagreed; written by tools/reference/mutate_blobs.py",
                "campaign_seed": args.seed, "per_seed": args.per_seed}
        lines = ",\n".join(json.dumps(m, separators=(",", ":")) for m in corpus)  # one mutant a line
        (OUT / "corpus.json").write_text(json.dumps(head)[:-1] + ',\n"mutants":[\n' + lines + "\n]}\n")
    return 0


def corpus_entry(r: dict) -> dict:
    o = r["official"]
    return {"id": r["id"], "seed": r["seed"], "kind": r["kind"], "desc": r["desc"], "edits": r["edits"], "length": r["length"],
            "official": official_class(o), "official_detail": (o.get("detail") or "")[:120], "etgo": etgo_class(r["etgo"])}


# Why etgo refuses a mutant the official runtime does not: the first pattern matching etgo's
# error, and what the official runtime does instead.
REASONS = [
    (r"is not a graph input, a constant or the output of any node", "reads a value nothing computes",
     "the official runtime runs the node on whatever memory holds"),
    (r"is not computed by any node|the graph has no outputs", "an output nothing computes",
     "the official runtime returns whatever the output tensor held"),
    (r"which it computes itself|the graph has a cycle", "a cycle",
     "XNNPACK drops the nodes it cannot schedule and runs the rest"),
    (r"computes already", "a value written twice", "both writes run; readers see one of them"),
    (r"writes value \d+, a graph input", "writes a graph input",
     "the node writes into the caller's tensor (when an output is re-flagged an input, that tensor is the output, and the result can even be right)"),
    (r"writes value \d+, a constant", "writes a constant", "the node writes into constant data"),
    (r"constant has \d+ bytes|scale buffer", "constant data of another size than its dims",
     "XNNPACK reads a filter by the node's geometry (it checks only its first dim) and a bias per output channel, past the data when it is short"),
    (r"both have external id", "two values with one external id", "the later definition takes the slot"),
    (r"hold more than", "a value declared over 2^28 elements",
     "a constant is read by the node's geometry; an internal value XNNPACK keeps is allocated at its declared size, out of memory (the exec-refused mutants of this kind)"),
    (r"delegate argument", "a call argument of another dtype than the graph's",
     "the official runtime reinterprets the tensor's bytes"),
    (r"external but has no external id", "an external value without an external id",
     "the official runtime indexes delegate argument 0xFFFFFFFF"),
    (r"not found: named data|identifier", "a key or identifier with a non-UTF-8 byte",
     "the official runtime crashes formatting it for its log"),
    (r"does not exist", "an operand id no value has", "the official runtime leaves the operand undefined"),
    (r"output range", "a NaN output bound", "XNNPACK's unary clamp does not check its bounds"),
    (r"unsupported by etgo", "a datatype etgo does not run", "(fp16, bf16, quantized operations beyond the static 8-bit flow)"),
    (r"geometry|bias of shape|filter of shape|is not \d-d|outside dimension|channels|broadcast|reshape|perm|padding|window", "operand shapes the operation does not fit",
     "XNNPACK uses its own parameters (kernel, channels) and clamps slices, reading past or around the operands"),
]


def reason(detail: str):
    for pat, name, why in REASONS:
        if re.search(pat, detail or ""):
            return name, why
    return "other", ""


def summarize(results, man, args) -> dict:
    pairs = Counter((official_class(r["official"]), etgo_class(r["etgo"])) for r in results)
    by_kind = defaultdict(Counter)
    for r in results:
        by_kind[r["kind"]][(official_class(r["official"]), etgo_class(r["etgo"]))] += 1
    bad = [r for r in results if official_class(r["official"]) in REFUSED and etgo_class(r["etgo"]).startswith("ran")]
    panics = [r for r in results if etgo_class(r["etgo"]) in ("panicked", "crashed")]
    extra = [r for r in results if etgo_class(r["etgo"]) in REFUSED and not official_class(r["official"]) in REFUSED]
    extra_why = Counter(official_class(r["official"]) for r in extra)
    js = {
        "mutants": len(results),
        "seeds": len(man["seeds"]),
        "campaign_seed": args.seed,
        "per_seed": args.per_seed,
        "official_refused_etgo_ran": len(bad),
        "etgo_panicked_or_crashed": len(panics),
        "etgo_refused_official_did_not": dict(sorted(extra_why.items())),
        "pairs": {f"{a} / {b}": c for (a, b), c in sorted(pairs.items())},
        "by_kind": {k: {f"{a} / {b}": c for (a, b), c in sorted(v.items())} for k, v in sorted(by_kind.items())},
        "examples_official_refused_etgo_ran": [{"id": r["id"], "desc": r["desc"], "official": r["official"].get("detail", "")[:200]} for r in bad[:20]],
        "examples_etgo_refused_official_ran": [{"id": r["id"], "desc": r["desc"], "official": official_class(r["official"]),
                                                 "etgo": r["etgo"].get("detail", "")[:200]} for r in extra[:40]],
    }
    md = ["# Delegate-blob mutation campaign", "",
          f"Written by `tools/reference/mutate_blobs.py` (campaign seed {args.seed}, {args.per_seed} mutants asked per seed): "
          f"{len(results)} mutants of {len(man['seeds'])} official XNNPACK files, each run in the official runtime "
          "(executorch 1.5.1) and in etgo (`etgo run`).", "",
          "Official verdicts: `load-refused`, `exec-refused`, `crashed` (the process died or hung), `ran-same` (the seed's "
          "outputs), `ran-diff` (other finite outputs), `ran-nonfinite` (NaN or Inf among them). etgo's: the same, "
          "`ran-as-official` (the official runtime's outputs for that mutant), and `panicked` (a panic its runtime recovered).", "",
          "etgo refuses at load some mutants the official runtime refuses only when it executes (`exec-refused` / "
          "`load-refused`): etgo checks the shapes through the graph when it initialises the delegate, from the call's tensors.", "",
          f"- official refused, etgo ran: **{len(bad)}**",
          f"- etgo panicked or crashed: **{len(panics)}**",
          f"- etgo refused where the official runtime did not: {len(extra)} ({', '.join(f'{v} {k}' for k, v in sorted(extra_why.items())) or 'none'})",
          "", "| official | etgo | mutants |", "|---|---|---:|"]
    for (a, b), c in sorted(pairs.items(), key=lambda kv: (-kv[1], kv[0])):
        md.append(f"| {a} | {b} | {c} |")
    md += ["", "## By family", "", "| family | mutants | official refused | etgo refused | both ran |", "|---|---:|---:|---:|---:|"]
    for k, v in sorted(by_kind.items()):
        tot = sum(v.values())
        orf = sum(c for (a, b), c in v.items() if a in REFUSED)
        erf = sum(c for (a, b), c in v.items() if b in REFUSED)
        both = sum(c for (a, b), c in v.items() if a.startswith("ran") and b.startswith("ran"))
        md.append(f"| {k} | {tot} | {orf} | {erf} | {both} |")
    if extra:
        why = {}
        table = defaultdict(Counter)
        for r in extra:
            name, w = reason(r["etgo"].get("detail", ""))
            why[name] = w
            table[name][official_class(r["official"])] += 1
        cols = ["crashed", "ran-nonfinite", "ran-diff", "ran-same"]
        md += ["", "## Where etgo refuses and the official runtime does not", "",
               "By etgo's reason, with the official verdicts: it crashes, or runs the corrupt graph to other outputs; "
               "`ran-same` counts the mutants where what it does happens to give the seed's outputs.", "",
               "| etgo refuses | " + " | ".join(cols) + " | what the official runtime does |", "|---|" + "---:|" * len(cols) + "---|"]
        for name, c in sorted(table.items(), key=lambda kv: -sum(kv[1].values())):
            md.append(f"| {name} | " + " | ".join(str(c.get(k, 0)) for k in cols) + f" | {why[name]} |")
        js["etgo_refused_official_did_not_by_reason"] = {name: dict(c) for name, c in table.items()}
        md += ["", "Examples:", ""]
        for r in extra[:40]:
            md.append(f"- `{r['id']}` ({official_class(r['official'])}): {r['desc']} — etgo: {r['etgo'].get('detail', '')[:220]}")
    both = [r for r in results if official_class(r["official"]).startswith("ran") and etgo_class(r["etgo"]) in ("ran-same", "ran-diff")]
    if both:
        md += ["", "## Both ran, to different outputs", ""]
        for r in both:
            md.append(f"- `{r['id']}` (official {official_class(r['official'])}): {r['desc']}")
    md.append("")
    return {"json": js, "md": "\n".join(md)}


if __name__ == "__main__":
    sys.exit(main())
