#!/usr/bin/env python3
"""The file-format mutation campaign: corrupt .pte, .pt2 and .npy files through every etgo command.

  ~/.venvs/et/bin/python tools/reference/mutate_files.py [--per-seed pte=20,pt2=20,npy=70] [--seed 1]
                                                         [--work DIR] [--limit N] [--timeout S] [--no-write]

1. `go run ./internal/cmd/mutants -kind pte|pt2|npy` mutates the committed seeds: every
   testdata/zoo/*/{portable,xnnpack}.pte and testdata/corpus/*/xnnpack.pte (program fields,
   instructions, memory plan, segments, offsets, vector lengths, header, truncation), every
   testdata/zoo/*/model.pt2 and testdata/corpus/*/model.pt2 (zip sizes, methods, CRCs, offsets,
   names, duplicated entries, truncation, inflation bombs; JSON types, numbers, missing members,
   deep nesting, references, targets, weight dtypes and shapes), every testdata/zoo/*/inputs/*.npy
   and testdata/npy/*.npy (shape, descr, fortran_order, dictionary syntax, header length,
   version, truncation, trailing data). Each mutant is a list of byte edits against its seed.
2. Every mutant goes through every etgo command that reads its kind, each in its own process
   with a timeout (a hang), recording the exit code, a Go panic or runtime fatal error on
   stderr, and the peak RSS (wait4's ru_maxrss) against the budget: 64 MiB + the tensors the
   seed declares (a .pte's file and planned buffers, a .pt2's weights, a .npy's data):
     .pte: run (with the seed's inputs), check, inspect, inspect --json, bench --iterations 1
     .pt2: lower --plan, lower -o OUT.pte, inspect
     .npy: npy, run SEED.pte --input MUTANT.npy (the zoo model the input belongs to; zoo/add
           for testdata/npy)
3. The judges: for a .pte the official runtime (mutate_blobs.py's worker, its verdicts cached
   by sha256 in WORK/official.jsonl, shared with the blob campaign): a mutant it refuses that
   `etgo run` runs is a defect. For a .npy, numpy.load (only when the declared data fits in
   64 MiB): where one reads and the other refuses, they disagree.
4. Writes testdata/mutants/files_summary.json and files_summary.md, and
   testdata/mutants/files_corpus.json: every mutant that failed (panic, hang, RSS over budget,
   official refused and etgo ran) or whose verdict differs from its judge's, kept across runs
   in WORK/files_disagreed.json; cmd/etgo's TestFileMutantCorpus replays it.

One process at a time: etgo's commands one after another, the official worker between them.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mutate_blobs as mb  # noqa: E402

ROOT = mb.ROOT
OUT = mb.OUT
MIB = 1 << 20
BASE_BUDGET = 64 * MIB
AS_LIMIT = 6 << 30  # address space per command: a runaway allocation dies instead of taking the machine


def run_cmd(args, timeout: float, stdout_path: Path, stderr_path: Path) -> dict:
    """Runs one command; returns its exit code, peak RSS (bytes), wall time, whether it hung.

    The command runs under /usr/bin/time, which reports the peak RSS of the process it forks:
    a child forked from this Python process would inherit this process's peak (Linux keeps
    the high-water mark across exec)."""

    t0 = time.time()
    rss_path = stdout_path.with_name("rss")
    with open(stdout_path, "wb") as so, open(stderr_path, "wb") as se:
        p = subprocess.Popen(["/usr/bin/time", "-q", "-f", "%M %x", "-o", str(rss_path)] + list(args), stdout=so, stderr=se,
                             stdin=subprocess.DEVNULL, start_new_session=True, cwd=ROOT)
    hung = False
    try:
        p.wait(timeout)
    except subprocess.TimeoutExpired:
        hung = True
        os.killpg(p.pid, 9)
        p.wait()
    rss, rc = 0, p.returncode
    text = rss_path.read_text() if rss_path.exists() else ""
    parts = text.split()
    if len(parts) >= 2 and not hung:
        rss, rc = int(parts[-2]) * 1024, int(parts[-1])
        if text.startswith("Command terminated by signal"):
            rc = 128 + int(parts[4])  # killed: out of address space, a segfault
    rss_path.unlink(missing_ok=True)
    err = stderr_path.read_bytes()[-20000:].decode(errors="replace")
    if "Command terminated by signal" in err or "Command exited with non-zero status" in err:
        err = "\n".join(l for l in err.splitlines() if not l.startswith("Command "))
    panicked = "panic:" in err or "fatal error:" in err or ("goroutine " in err and "[running]" in err)
    tail = err.strip().splitlines()
    return {"rc": rc, "rss": rss, "secs": round(time.time() - t0, 3), "hung": hung, "panicked": panicked,
            "err": next((l for l in tail if l.startswith("etgo ")), tail[-1] if tail else "")[:300],
            "trace": err[:1500] if panicked else ""}


# ---------------------------------------------------------------------------------------------
# Seeds and their budgets


def num(p: Path) -> int:
    import re
    m = re.search(r"(\d+)", p.stem)
    return int(m.group(1)) if m else -1


def pte_io(seed: Path):
    d = seed.parent
    inputs = sorted((d / "inputs").glob("input_*.npy"), key=num)
    which = "portable" if seed.name == "portable.pte" else "xnnpack"
    exp = d / "expected" / which
    if not exp.is_dir():
        exp = d / "expected"
    return inputs, sorted(exp.glob("output_*.npy"), key=num)


def pte_tensors(etgo: Path, seed: Path) -> int:
    """A program's tensors: the file (constants, blobs) and its planned buffers."""
    r = subprocess.run([str(etgo), "inspect", "--json", str(seed)], capture_output=True, text=True, check=True)
    d = json.loads(r.stdout)
    planned = sum(sum(m.get("planned_buffers") or []) for m in d.get("methods") or [])
    return seed.stat().st_size + planned


def pt2_tensors(seed: Path) -> int:
    with zipfile.ZipFile(seed) as z:
        return sum(i.file_size for i in z.infolist() if "/data/" in i.filename)


def npy_tensors(b: bytes) -> int:
    try:
        f = io.BytesIO(b)
        v = np.lib.format.read_magic(f)
        read = np.lib.format.read_array_header_1_0 if v == (1, 0) else np.lib.format.read_array_header_2_0
        shape, _, dtype = read(f)
        return int(np.prod(shape, dtype=np.float64) * dtype.itemsize)
    except Exception:
        return -1


def numpy_verdict(b: bytes) -> str:
    """numpy's reading of a .npy: read, refused, or skipped (declares more than 64 MiB)."""
    n = npy_tensors(b)
    if n < 0:
        return "refused"
    if n > 64 * MIB:
        return "skipped"
    try:
        a = np.load(io.BytesIO(b), allow_pickle=False)
        if a.dtype.hasobject:
            return "refused"
        return "read"
    except Exception:
        return "refused"


# ---------------------------------------------------------------------------------------------
# The campaign


def commands(kind: str, etgo: Path, path: Path, seed: dict, out_dir: Path):
    """(name, args) of every command that reads this mutant."""
    e = str(etgo)
    if kind == "pte":
        run = [e, "run", str(path), "--output-dir", str(out_dir)]
        for p in seed["inputs"]:
            run += ["--input", str(p)]
        return [("run", run), ("check", [e, "check", str(path)]), ("inspect", [e, "inspect", str(path)]),
                ("inspect --json", [e, "inspect", "--json", str(path)]), ("bench", [e, "bench", "--iterations", "1", str(path)])]
    if kind == "pt2":
        return [("lower --plan", [e, "lower", str(path), "--plan"]), ("lower -o", [e, "lower", str(path), "-o", str(out_dir / "x.pte")]),
                ("inspect", [e, "inspect", str(path)])]
    run = [e, "run", str(seed["pte"]), "--output-dir", str(out_dir)]
    for i, p in enumerate(seed["inputs"]):
        run += ["--input", str(path) if i == seed["slot"] else str(p)]
    return [("npy", [e, "npy", str(path)]), ("run", run)]


def seed_list(kind: str):
    z, c = ROOT / "testdata" / "zoo", ROOT / "testdata" / "corpus"
    if kind == "pte":
        # A corpus program the official runtime cannot run unmutated (3-D kernels its portable
        # library lacks, >6-d XNNPACK tensors) is no seed: its mutants' official verdict would
        # be the seed's own refusal, not the mutation's.
        report = json.loads((c / "report.json").read_text())
        broken = {m["name"] for m in report["models"] if m.get("official_runs_official_pte") is False}
        corpus = [p for p in sorted(c.glob("*/xnnpack.pte")) if p.parent.name not in broken]
        return sorted(z.glob("*/portable.pte")) + sorted(z.glob("*/xnnpack.pte")) + corpus
    if kind == "pt2":
        return sorted(z.glob("*/model.pt2")) + sorted(c.glob("*/model.pt2"))
    return sorted(z.glob("*/inputs/*.npy")) + sorted((ROOT / "testdata" / "npy").glob("*.npy"))


def seed_context(kind: str, etgo: Path, p: Path) -> dict:
    if kind == "pte":
        inputs, expected = pte_io(p)
        return {"inputs": inputs, "expected": expected, "tensors": pte_tensors(etgo, p)}
    if kind == "pt2":
        return {"tensors": pt2_tensors(p)}
    data = p.read_bytes()
    if p.parent.name == "inputs":
        pte = p.parent.parent / "xnnpack.pte"
        inputs = sorted(p.parent.glob("input_*.npy"), key=num)
        slot = inputs.index(p)
    else:
        pte = ROOT / "testdata" / "zoo" / "add" / "xnnpack.pte"
        inputs = sorted(pte.parent.glob("inputs/input_*.npy"), key=num)
        slot = 0
    return {"pte": pte, "inputs": inputs, "slot": slot, "tensors": max(npy_tensors(data), 0) + pte_tensors(etgo, pte)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--per-seed", default="pte=20,pt2=20,npy=70")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--work", type=Path, default=ROOT / "build" / "mutants")
    ap.add_argument("--limit", type=int, default=0, help="at most this many mutants of each kind (a smoke run)")
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds per command: longer is a hang")
    ap.add_argument("--kinds", default="npy,pte,pt2")
    ap.add_argument("--minutes", default="npy=6,pte=11,pt2=8",
                    help="time per kind: its mutants run round-robin over the seeds until it is up")
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    per_seed = dict(kv.split("=") for kv in args.per_seed.split(","))
    work = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    etgo = work / "etgo"
    subprocess.run(["go", "build", "-o", str(etgo), "./cmd/etgo"], cwd=ROOT, check=True)
    mutants_bin = work / "mutants"
    subprocess.run(["go", "build", "-o", str(mutants_bin), "./internal/cmd/mutants"], cwd=ROOT, check=True)

    cache_path, cache = mb.load_official_cache(work)
    disagreed_path = work / "files_disagreed.json"
    disagreed = set(json.loads(disagreed_path.read_text())) if disagreed_path.exists() else set()
    old_corpus = OUT / "files_corpus.json"
    if old_corpus.exists():
        for m in json.loads(old_corpus.read_text())["mutants"]:
            disagreed.add(hashlib.sha256(mb.apply((ROOT / m["seed"]).read_bytes(), m)).hexdigest())

    official = mb.Official(sys.executable)
    official.start()  # before the address-space limit, which every etgo command inherits
    resource.setrlimit(resource.RLIMIT_AS, (AS_LIMIT, AS_LIMIT))
    minutes = {k: float(v) for k, v in (kv.split("=") for kv in args.minutes.split(","))}
    tmp = Path(tempfile.mkdtemp(prefix="files-", dir=work))
    results, seeds_n = [], {}
    started = time.time()
    try:
        with cache_path.open("a") as cache_file:
            for kind in args.kinds.split(","):
                seeds = seed_list(kind)
                seeds_n[kind] = len(seeds)
                manifest = work / f"files-{kind}.json"
                subprocess.run([str(mutants_bin), "-kind", kind, "-n", per_seed[kind], "-seed", str(args.seed), "-o", str(manifest)]
                               + [str(s.relative_to(ROOT)) for s in seeds], cwd=ROOT, check=True)
                man = json.loads(manifest.read_text())
                manifest.unlink()
                n = 0
                deadline = time.time() + 60 * minutes.get(kind, 1e9)
                seeds_b, ctxs = {}, {}
                for s in man["seeds"]:
                    seeds_b[s["path"]] = (ROOT / s["path"]).read_bytes()
                    ctxs[s["path"]] = seed_context(kind, etgo, ROOT / s["path"])
                # Round-robin over the seeds, so a campaign cut short by its time covers them all.
                queue = []
                for i in range(max(len(s["mutants"]) for s in man["seeds"])):
                    queue += [(s, s["mutants"][i]) for s in man["seeds"] if i < len(s["mutants"])]
                man = None
                for s, m in queue:
                    if (args.limit and n >= args.limit) or time.time() > deadline:
                        break
                    if True:
                        seed, ctx = seeds_b[s["path"]], ctxs[s["path"]]
                        budget = BASE_BUDGET + ctx["tensors"]
                        n += 1
                        data = mb.apply(seed, m)
                        sha = hashlib.sha256(data).hexdigest()
                        path = tmp / f"{sha[:16]}.{ {'pte': 'pte', 'pt2': 'pt2', 'npy': 'npy'}[kind]}"
                        path.write_bytes(data)
                        out_dir = tmp / "out"
                        r = {"id": m["id"], "kind": kind, "family": m["kind"], "seed": s["path"], "desc": m["desc"], "edits": m["edits"],
                             "length": m.get("length", 0), "sha256": sha, "budget": budget, "size": len(data)}
                        off_out = work / "official-out" / sha[:16]
                        if kind == "pte":
                            o = cache.get(sha)
                            if o is None:
                                o = official.judge({"path": str(path), "inputs": [str(p) for p in ctx["inputs"]],
                                                    "expected": [str(p) for p in ctx["expected"]], "out_dir": str(off_out),
                                                    "log": str(tmp / "official.log")})
                                o["sha256"] = sha
                                cache[sha] = o
                                cache_file.write(json.dumps(o) + "\n")
                                cache_file.flush()
                            r["official"] = mb.official_class(o)
                            r["official_detail"] = (o.get("detail") or "")[:200]
                        elif kind == "npy":
                            r["official"] = numpy_verdict(data)
                        cmds = {}
                        for name, cargs in commands(kind, etgo, path, ctx, out_dir):
                            shutil.rmtree(out_dir, ignore_errors=True)
                            out_dir.mkdir()
                            c = run_cmd(cargs, args.timeout, tmp / "stdout", tmp / "stderr")
                            if kind == "pte" and name == "run" and not c["hung"]:
                                v = mb.etgo_verdict(c["rc"], (tmp / "stderr").read_text(errors="replace"), out_dir, ctx["expected"],
                                                    off_out if r["official"].startswith("ran") else None)
                                c["verdict"] = mb.etgo_class(v)
                            cmds[name] = c
                        r["commands"] = cmds
                        r["failures"] = failures(r)
                        r["disagrees"] = disagreement(r)
                        if r["failures"] or r["disagrees"]:
                            disagreed.add(sha)
                        results.append(r)
                        path.unlink()
                        if len(results) % 200 == 0:
                            print(f"{len(results)} mutants, {time.time() - started:.0f}s", file=sys.stderr, flush=True)
    finally:
        official.close()
        shutil.rmtree(tmp, ignore_errors=True)
    elapsed = time.time() - started
    # A run of some kinds only keeps the last run's results and corpus entries of the others.
    kinds = args.kinds.split(",")
    prev_path = work / "files_results.jsonl"
    kept_corpus = []
    if prev_path.exists() and set(kinds) != {"pte", "pt2", "npy"}:
        prev = [json.loads(l) for l in prev_path.read_text().splitlines()]
        results = [r for r in prev if r["kind"] not in kinds] + results
        elapsed += max((r.get("elapsed_total", 0) for r in prev), default=0)
        for k in {"pte", "pt2", "npy"} - set(kinds):
            seeds_n[k] = len(seed_list(k))
        if old_corpus.exists():
            kept_corpus = [m for m in json.loads(old_corpus.read_text())["mutants"] if ("." + m["seed"].rsplit(".", 1)[1]).lstrip(".") not in kinds]
    disagreed_path.write_text(json.dumps(sorted(disagreed), indent=0))
    with (work / "files_results.jsonl").open("w") as f:
        for r in results:
            f.write(json.dumps({**{k: v for k, v in r.items() if k != "edits"}, "elapsed_total": round(elapsed)}) + "\n")
    summary = summarize(results, seeds_n, args, elapsed)
    print(summary["md"])
    if not args.no_write:
        (OUT / "files_summary.json").write_text(json.dumps(summary["json"], indent=1) + "\n")
        (OUT / "files_summary.md").write_text(summary["md"])
        corpus = kept_corpus + [corpus_entry(r) for r in results if r["sha256"] in disagreed and "edits" in r]
        # Where etgo is only stricter than numpy (trailing bytes, Fortran order: refused by
        # name), the summary counts them all and the corpus keeps a few of each family.
        strict = Counter()
        corpus = [m for m in corpus if not m["why"].startswith("numpy read") or (strict.update([m["kind"]]) or strict[m["kind"]] <= 5)]
        head = {"about": "file mutants that failed or disagreed with their judge; written by tools/reference/mutate_files.py",
                "campaign_seed": args.seed, "per_seed": args.per_seed}
        lines = ",\n".join(json.dumps(m, separators=(",", ":")) for m in corpus)
        (OUT / "files_corpus.json").write_text(json.dumps(head)[:-1] + ',\n"mutants":[\n' + lines + "\n]}\n")
    return 0


def failures(r: dict) -> list:
    out = []
    for name, c in r["commands"].items():
        if c["hung"]:
            out.append(f"{name}: hang")
        elif c["panicked"]:
            out.append(f"{name}: panic")
        elif c["rc"] not in (0, 1):
            out.append(f"{name}: exit {c['rc']}")
        if c["rss"] > r["budget"]:
            out.append(f"{name}: rss {c['rss'] // MIB} MiB > {r['budget'] // MIB} MiB")
    if r["kind"] == "pte" and r["official"] in mb.REFUSED and r["commands"]["run"].get("verdict", "").startswith("ran"):
        out.append("official refused, etgo ran")
    return out


def disagreement(r: dict) -> str:
    if r["kind"] == "pte":
        o, e = r["official"], r["commands"]["run"].get("verdict", "crashed")
        if (o in mb.REFUSED) != (e in mb.REFUSED):
            return f"official {o}, etgo {e}"
    if r["kind"] == "npy" and r["official"] != "skipped":
        etgo_read = r["commands"]["npy"]["rc"] == 0
        if etgo_read != (r["official"] == "read"):
            return f"numpy {r['official']}, etgo npy {'read' if etgo_read else 'refused'}"
    return ""


def corpus_entry(r: dict) -> dict:
    return {"id": r["id"], "seed": r["seed"], "kind": r["family"], "desc": r["desc"], "edits": r["edits"], "length": r["length"],
            "official": r.get("official", ""), "etgo": {k: c["rc"] for k, c in r["commands"].items()},
            "why": "; ".join(r["failures"]) or r["disagrees"]}


def summarize(results, seeds_n, args, elapsed) -> dict:
    by_kind = defaultdict(list)
    for r in results:
        by_kind[r["kind"]].append(r)
    procs = sum(len(r["commands"]) for r in results)
    fails = [r for r in results if r["failures"]]
    blob = json.loads((OUT / "summary.json").read_text()) if (OUT / "summary.json").exists() else {}
    js = {"mutants": len(results), "processes": procs, "seconds": round(elapsed), "campaign_seed": args.seed, "per_seed": args.per_seed,
          "budget": "64 MiB + the seed's tensors (a .pte's file and planned buffers, a .pt2's weights, a .npy's data and its program's)",
          "panics": sum(1 for r in results for c in r["commands"].values() if c["panicked"]),
          "hangs": sum(1 for r in results for c in r["commands"].values() if c["hung"]),
          "rss_over_budget": sum(1 for r in results for c in r["commands"].values() if c["rss"] > r["budget"]),
          "official_refused_etgo_ran": sum(1 for r in results if "official refused, etgo ran" in r["failures"]),
          "with_blob_campaign": {"blob_mutants": blob.get("mutants", 0), "total": len(results) + blob.get("mutants", 0)},
          "kinds": {}}
    md = ["# File mutation campaign", "",
          f"Written by `tools/reference/mutate_files.py` (campaign seed {args.seed}, {args.per_seed} mutants asked per seed): "
          f"{len(results)} mutants of .pte, .pt2 and .npy seeds, each through every etgo command that reads its kind, "
          f"one process per command ({procs} processes, {elapsed / 60:.0f} minutes). With the delegate-blob campaign's "
          f"{blob.get('mutants', 0)} (`summary.md`, `etgo run` only), {len(results) + blob.get('mutants', 0)} mutants in all.", "",
          "A command fails when it panics (a Go panic or runtime fatal error on stderr), hangs (no exit in "
          f"{args.timeout:.0f} s), exits other than 0 or 1, or peaks above its RSS budget: 64 MiB + the tensors the seed "
          "declares (a .pte's file and planned buffers; a .pt2's weights; a .npy's data plus its program's). Judges: the "
          "official runtime (executorch 1.5.1) for every .pte mutant, numpy.load for .npy mutants declaring at most 64 MiB.", "",
          f"- panics: **{js['panics']}**, hangs: **{js['hangs']}**, RSS over budget: **{js['rss_over_budget']}**",
          f"- official refused, etgo ran: **{js['official_refused_etgo_ran']}**", ""]
    for kind, rs in by_kind.items():
        cmd_names = list(rs[0]["commands"])
        peak = {c: max(r["commands"][c]["rss"] for r in rs) for c in cmd_names}
        worst = {c: max(r["commands"][c]["rss"] - r["budget"] for r in rs) for c in cmd_names}
        slow = {c: max(r["commands"][c]["secs"] for r in rs) for c in cmd_names}
        fam = defaultdict(Counter)
        for r in rs:
            fam[r["family"]]["mutants"] += 1
            for c in cmd_names:
                if r["commands"][c]["rc"] == 0:
                    fam[r["family"]][c] += 1
            if r.get("official") in mb.REFUSED + ("refused",):
                fam[r["family"]]["judge refused"] += 1
            if r["failures"]:
                fam[r["family"]]["failed"] += 1
            if r["disagrees"]:
                fam[r["family"]]["disagree"] += 1
        k = {"mutants": len(rs), "seeds": seeds_n.get(kind, 0), "failed": sum(1 for r in rs if r["failures"]),
             "disagree": sum(1 for r in rs if r["disagrees"]),
             "commands": {c: {"exit0": sum(1 for r in rs if r["commands"][c]["rc"] == 0), "peak_rss_mib": round(peak[c] / MIB, 1),
                              "max_over_budget_mib": round(worst[c] / MIB, 1), "max_secs": slow[c]} for c in cmd_names},
             "judge": dict(Counter(r.get("official", "") for r in rs)),
             "pairs": dict(Counter(f"{r.get('official', '-')} / " + (r["commands"]["run"].get("verdict") or ("ran" if r["commands"]["run"]["rc"] == 0 else "refused"))
                                   for r in rs if "run" in r["commands"])) if kind != "pt2" else {},
             "families": {f: dict(c) for f, c in sorted(fam.items())}}
        js["kinds"][kind] = k
        md += [f"## .{kind}: {len(rs)} mutants of {seeds_n.get(kind, 0)} seeds", "",
               "| command | exit 0 | peak RSS MiB | worst vs budget MiB | slowest s |", "|---|---:|---:|---:|---:|"]
        for c in cmd_names:
            cc = k["commands"][c]
            md.append(f"| `{c}` | {cc['exit0']} | {cc['peak_rss_mib']} | {cc['max_over_budget_mib']:+} | {cc['max_secs']} |")
        if k["pairs"]:
            md += ["", "| judge / etgo run | mutants |", "|---|---:|"]
            for p_, c in sorted(k["pairs"].items(), key=lambda kv: -kv[1]):
                md.append(f"| {p_} | {c} |")
        md += ["", "| family | mutants | judge refused | " + " | ".join(f"`{c}` exit 0" for c in cmd_names) + " | failed | disagree |",
               "|---|---:|---:|" + "---:|" * len(cmd_names) + "---:|---:|"]
        for f, c in sorted(fam.items()):
            md.append(f"| {f} | {c['mutants']} | {c['judge refused']} | " + " | ".join(str(c[x]) for x in cmd_names) + f" | {c['failed']} | {c['disagree']} |")
        md.append("")
    if fails:
        md += ["## Failures", ""]
        for r in fails[:60]:
            md.append(f"- `{r['id']}`: {r['desc']} — {'; '.join(r['failures'])}")
        md.append("")
    dis = [r for r in results if r["disagrees"] and not r["failures"]]
    if dis:
        md += ["## Disagreements with the judge (not failures)", ""]
        for r in dis[:40]:
            e = next(iter(r["commands"].values()))["err"] if r["kind"] == "npy" else r["commands"]["run"]["err"]
            md.append(f"- `{r['id']}`: {r['desc']} — {r['disagrees']}: {e[:200]}")
        md.append("")
    return {"json": js, "md": "\n".join(md)}


if __name__ == "__main__":
    sys.exit(main())
