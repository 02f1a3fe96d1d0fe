#!/usr/bin/env python3
"""Build the public model corpus (corpus.py) with the official ExecuTorch and check etgo on it.

For every model this records, in <out>/report.json and <out>/report.md:
  exported                 torch.export.export (non-strict, else strict) succeeded
  official_lowers          to_edge_transform_and_lower([XnnpackPartitioner()], XNNPACK's
                           recommended transform passes) + to_executorch succeeded
  official_runs_official_pte  the official runtime ran xnnpack.pte matching eager
  plan_equal               `etgo lower model.pt2 --plan --json` has the official number of
                           delegates and per-operator delegated / non-delegated counts
  etgo_lowers              `etgo lower model.pt2 -o etgo.pte` succeeded
  official_runs_etgo_pte   the official runtime ran etgo.pte matching eager
  etgo_runs_official_pte   `etgo run xnnpack.pte` matched eager
  etgo_runs_etgo_pte       `etgo run etgo.pte` matched eager
  note                     the first failure's first line (etgo's refusal names the operator)
A column is null where an earlier step failed. "Matching" is max |out - eager| <= 1e-4 *
max(1, max |eager|) for floats, equality otherwise.

Per model, <out>/<name>/ holds model.pt2 (as torch.export.save wrote it, its JSON entries
deflated in the committed corpus to keep it lean; torch.export.load and etgo read both),
inputs/input_<i>.npy, expected/eager/output_<i>.npy, and when the official toolchain lowered it
xnnpack.pte, expected/xnnpack/output_<i>.npy (the official runtime) and delegation.json (as
generate_zoo.py writes it). A model whose files exceed --max-kb is reported but not kept.

Every step runs in its own process with a timeout, so a crash of the official runtime or a hang
costs one column of one model. The report is rewritten after each model.

Usage:
  python tools/reference/generate_corpus.py                    # everything -> testdata/corpus
  python tools/reference/generate_corpus.py --only vgg11,hf_bert
  python tools/reference/generate_corpus.py --skip-official    # reuse recorded official results
  python tools/reference/generate_corpus.py --etgo-only        # redo only the etgo columns
  python tools/reference/generate_corpus.py --full             # full sizes -> testdata/corpus-full (ignored)
  python tools/reference/generate_corpus.py --list             # the models and their sources
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))

COLUMNS = ["exported", "official_lowers", "official_runs_official_pte", "plan_equal", "etgo_lowers",
           "official_runs_etgo_pte", "etgo_runs_official_pte", "etgo_runs_etgo_pte"]
OFFICIAL = ["exported", "export_strict", "official_lowers", "official_runs_official_pte", "official_max_abs_diff", "params"]
ETGO = ["plan_equal", "etgo_lowers", "etgo_error", "official_runs_etgo_pte", "etgo_runs_official_pte", "etgo_runs_etgo_pte",
        "etgo_max_abs_diff", "etgo_pte_sha256"]


def first_line(s: str) -> str:
    for line in (s or "").splitlines():
        line = line.strip()
        if line:
            return line[:400]
    return ""


def tolerance(expected) -> float:
    import numpy as np

    finite = np.abs(expected[np.isfinite(expected)].astype(np.float64))
    return 1e-4 * max(1.0, float(finite.max()) if finite.size else 0.0)


def compare(outs, expected) -> tuple[bool, float, str]:
    """(match, worst abs diff over float outputs, reason if not): same count, dtypes and shapes;
    floats within tolerance(eager), NaN exactly where eager has NaN; other types equal. The Go
    tests (internal/npyconv.Compare) judge the same way."""
    import numpy as np

    if len(outs) != len(expected):
        return False, float("inf"), f"{len(outs)} outputs, eager has {len(expected)}"
    worst = 0.0
    for i, (o, e) in enumerate(zip(outs, expected)):
        o = np.asarray(o)
        if o.dtype != e.dtype or o.shape != e.shape:
            return False, float("inf"), f"output {i}: {o.dtype}{list(o.shape)}, eager {e.dtype}{list(e.shape)}"
        if e.dtype.kind == "f":
            a, b = o.astype(np.float64), e.astype(np.float64)
            if np.any(np.isnan(a) != np.isnan(b)):
                return False, float("inf"), f"output {i}: NaN where eager has none (or the reverse)"
            ok = ~np.isnan(b)
            d = float(np.max(np.abs(a[ok] - b[ok]))) if ok.any() else 0.0
            if np.isnan(d) or d > tolerance(e):
                return False, d, f"output {i}: max abs diff {d:.3g} > {tolerance(e):.3g}"
            worst = max(worst, d)
        elif not np.array_equal(o, e):
            return False, worst, f"output {i}: {int(np.sum(o != e))} of {e.size} values differ"
    return True, worst, ""


def numbered(folder: Path, prefix: str) -> list[Path]:
    return sorted(folder.glob(f"{prefix}_*.npy"), key=lambda p: int(p.stem.split("_")[1]))


def load_npys(folder: Path, prefix: str):
    import numpy as np

    return [np.load(p) for p in numbered(folder, prefix)]


# ---------------------------------------------------------------------------------------------
# Workers: each runs in its own process and writes its result as JSON to --status.


def deflate_json_entries(path: Path):
    """Rewrite a .pt2 with its JSON entries deflated (same entries, same bytes once inflated):
    the graph's JSON is most of a small model's archive and compresses ~5x."""
    tmp = path.with_suffix(".tmp")
    with zipfile.ZipFile(path) as zin, zipfile.ZipFile(tmp, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            out = zipfile.ZipInfo(info.filename, date_time=info.date_time)
            out.external_attr = info.external_attr
            out.compress_type = zipfile.ZIP_DEFLATED if info.filename.endswith(".json") else zipfile.ZIP_STORED
            zout.writestr(out, data, compresslevel=9)
    tmp.replace(path)


def worker_official(name: str, d: Path, full: bool, status: dict, save):
    """Build, export, save; lower with the official toolchain; record delegation. save()
    writes the status so far, so that a crash later keeps what was learnt."""
    import torch

    import corpus
    from generate_zoo import as_tuple, delegate_ids, delegation_record, operator_names, save_npys, seed_of

    spec = {s.name: s for s in corpus.all_specs()}[name]
    seed = seed_of(name)
    torch.manual_seed(seed)
    model = spec.build(full).eval()
    inputs = spec.inputs(torch.Generator().manual_seed(seed + 1), full)
    status["params"] = sum(p.numel() for p in model.parameters()) + sum(b.numel() for b in model.buffers())
    with torch.no_grad():
        eager = as_tuple(model(*inputs))
    eager = tuple(t for t in eager if isinstance(t, torch.Tensor))
    status["exported"] = False
    errors = []
    for strict in (False, True):
        try:
            with torch.no_grad():
                ep = torch.export.export(model, inputs, strict=strict)
            status["exported"], status["export_strict"] = True, strict
            break
        except Exception as e:  # noqa: BLE001  (recorded, not hidden)
            errors.append(f"torch.export (strict={strict}): {type(e).__name__}: {first_line(str(e))}")
    save()
    if not status["exported"]:
        status["note"] = errors[0]
        return
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    torch.export.save(ep, d / "model.pt2")
    if not full:
        deflate_json_entries(d / "model.pt2")
    save_npys(d / "inputs", "input", inputs)
    save_npys(d / "expected" / "eager", "output", eager)
    status["official_lowers"] = False
    save()
    try:
        ep = torch.export.load(d / "model.pt2")  # lower what etgo reads
        from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
        from executorch.backends.xnnpack.utils.configs import get_transform_passes
        from executorch.exir import to_edge_transform_and_lower

        edge = to_edge_transform_and_lower(ep, partitioner=[XnnpackPartitioner()], transform_passes=get_transform_passes())
        record = delegation_record(edge)
        xnn = edge.to_executorch()
    except Exception as e:  # noqa: BLE001
        status["note"] = f"official lowering: {type(e).__name__}: {first_line(str(e))}"
        return
    (d / "xnnpack.pte").write_bytes(xnn.buffer)
    record["operators"] = {"xnnpack": operator_names(xnn)}
    record["delegates"] = {"xnnpack": delegate_ids(xnn)}
    record["model"] = {"description": spec.description, "source": spec.source, "seed": seed, "dynamic": False,
                       "export_strict": status["export_strict"]}
    (d / "delegation.json").write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")
    status["official_lowers"] = True
    save()
    # The official runtime on the official file (a segfault here keeps the lowering's result).
    status["official_run"] = run_official_runtime(d / "xnnpack.pte", d / "inputs", d / "expected" / "xnnpack")


def run_official_runtime(pte: Path, inputs_dir: Path, out_dir: Path) -> dict:
    """Run a .pte with the official runtime on the inputs and save the outputs."""
    from generate_zoo import save_npys
    from run_pte import load_and_run

    # The runtime says why in its log (on fd 2), not in the exception: keep its first error line.
    with tempfile.TemporaryFile() as logf:
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(logf.fileno(), 2)
        try:
            outs, err = load_and_run(pte, load_npys(inputs_dir, "input"))
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
        logf.seek(0)
        log = logf.read().decode(errors="replace")
    sys.stderr.write(log)
    if err:
        why = next((ln for ln in log.splitlines() if re.search(r"\.cpp:\d+\]", ln) and "cpuinfo" not in ln
                    and re.search(r"[Ff]ailed|not found|[Mm]issing|[Uu]nsupported", ln)), "")
        why = re.sub(r"^.*?\[[\w.]+\.cpp:\d+\] ", "", why)
        return {"error": first_line(err) + (f" ({why.strip()})" if why else "")}
    if out_dir.exists():
        shutil.rmtree(out_dir)
    save_npys(out_dir, "output", outs)
    return {"outputs": len(outs)}


def worker_run_batch(jobs_file: Path, status_file: Path):
    """run_official_runtime for each job, one process for many files: each job's start and end
    are appended to the status file, so the driver can tell which file crashed or hung."""
    jobs = json.loads(jobs_file.read_text())
    for i, job in jobs:
        with status_file.open("a") as f:
            f.write(json.dumps({"start": i}) + "\n")
        try:
            r = run_official_runtime(Path(job["pte"]), Path(job["inputs"]), Path(job["outputs"]))
        except Exception as e:  # noqa: BLE001
            r = {"error": f"{type(e).__name__}: {first_line(str(e))}"}
        with status_file.open("a") as f:
            f.write(json.dumps({"done": i, "result": r}) + "\n")


def worker_main(args):
    status: dict = {}

    def save():
        Path(args.status).write_text(json.dumps(status))

    if args.worker == "run-batch":
        return worker_run_batch(Path(args.jobs), Path(args.status))
    try:
        worker_official(args.name, Path(args.dir), args.full, status, save)
    except Exception as e:  # noqa: BLE001
        status["error"] = f"{type(e).__name__}: {first_line(str(e))}"
        traceback.print_exc()
    save()


# ---------------------------------------------------------------------------------------------
# The driver


class Step:
    """One subprocess with a timeout; .status is the worker's JSON, or an error."""

    def __init__(self, cmd, timeout, log: Path, cwd=None, status: Path | None = None):
        t = time.perf_counter()
        self.error, self.stdout, self.stderr = "", "", ""
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=cwd)
            self.stdout, self.stderr, self.rc = r.stdout, r.stderr, r.returncode
            if r.returncode < 0:
                self.error = f"crashed (signal {-r.returncode})"
        except subprocess.TimeoutExpired as e:
            self.rc = None
            self.stdout = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
            self.stderr = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
            self.error = f"timed out after {timeout} s"
        self.seconds = time.perf_counter() - t
        with log.open("a") as f:
            f.write(f"$ {' '.join(map(str, cmd))}\n# rc={self.rc} {self.seconds:.1f}s {self.error}\n{self.stdout[-4000:]}{self.stderr[-8000:]}\n")
        self.status = {}
        if status and status.exists():
            self.status = json.loads(status.read_text())
            status.unlink()
        if self.error and self.status:
            self.status.setdefault("error", self.error)
        if not self.error and status and not self.status:
            self.error = f"exited {self.rc} without a result: {first_line(self.stderr[-2000:].splitlines()[-1] if self.stderr else '')}"


def python_worker(args_list, timeout, log, tmp: Path) -> Step:
    status = tmp / "status.json"
    return Step([sys.executable, str(Path(__file__).resolve()), "--worker", *args_list, "--status", str(status)],
                timeout, log, status=status)


def run_batch(jobs: list[dict], timeout: int, log: Path, tmp: Path) -> list[dict]:
    """Run the official runtime on many files in as few processes as possible: a worker takes
    the pending jobs in order; when it crashes or a job exceeds the timeout, that job is marked
    and a new worker takes the rest."""
    results: list[dict | None] = [None] * len(jobs)
    pending = list(range(len(jobs)))
    while pending:
        jobs_file, status = tmp / "jobs.json", tmp / "batch.jsonl"
        jobs_file.write_text(json.dumps([(i, jobs[i]) for i in pending]))
        status.write_text("")
        with log.open("a") as logf:
            logf.write(f"# run-batch: {len(pending)} file(s)\n")
            logf.flush()
            p = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--worker", "run-batch", "--jobs", str(jobs_file),
                                  "--status", str(status)], stdout=logf, stderr=logf)
            current, last, seen, reason = None, time.monotonic(), 0, ""
            while True:
                rc = p.poll()
                lines = status.read_text().splitlines()
                for line in lines[seen:]:
                    msg = json.loads(line)
                    if "start" in msg:
                        current = msg["start"]
                    else:
                        results[msg["done"]], current = msg["result"], None
                    last = time.monotonic()
                seen = len(lines)
                if rc is not None:
                    reason = f"crashed (signal {-rc})" if rc < 0 else f"exited {rc}"
                    break
                if time.monotonic() - last > timeout:
                    p.kill()
                    p.wait()
                    reason = f"timed out after {timeout} s"
                    break
                time.sleep(0.2)
        if current is not None and results[current] is None:
            results[current] = {"error": f"official runtime {reason}"}
        left = [i for i in pending if results[i] is None]
        if len(left) == len(pending):  # the worker died before any job: do not loop forever
            for i in left:
                results[i] = {"error": f"official runtime worker {reason}"}
            left = []
        pending = left
    return results


def fx_name(target: str) -> str:
    """How get_delegation_info keys an operator (the same rule as the Go tests' fxName)."""
    if target == "aten.scalar_tensor.default":
        return "scalar_tensor"
    out, prev_lower = [], False
    for c in target.replace(".", "_"):
        if prev_lower and c.isupper():
            out.append("_")
        out.append(c.lower())
        prev_lower = c.islower()
    return "".join(out)


def plan_difference(plan: dict, official: dict) -> str:
    """'' when etgo's plan has the official delegate count and per-operator counts."""
    diffs = []
    if len(plan["delegates"]) != official["num_delegated_subgraphs"]:
        diffs.append(f"{len(plan['delegates'])} delegates, official {official['num_delegated_subgraphs']}")
    got = {fx_name(t): (c["Delegated"], c["NonDelegated"]) for t, c in plan["operators"].items()}
    want = {k: (v["delegated"], v["non_delegated"]) for k, v in official["delegation_by_operator"].items()}
    for k in sorted(set(got) | set(want)):
        g, w = got.get(k), want.get(k)
        if g != w:
            fmt = lambda x: "absent" if x is None else f"{x[0]} delegated / {x[1]} not"  # noqa: E731
            diffs.append(f"{k}: {fmt(g)}, official {fmt(w)}")
    return "; ".join(diffs[:3]) + (f"; … {len(diffs) - 3} more" if len(diffs) > 3 else "")


def etgo_message(stderr: str) -> str:
    """etgo's error, first line, without the command and file prefixes ("etgo lower: model.pt2: ");
    lower -o prints its stage times to stderr before it."""
    lines = stderr.splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith(("etgo lower: ", "etgo run: "))), 0)
    line = first_line("\n".join(lines[start:]))
    for prefix in ("etgo lower: ", "etgo run: ", "model.pt2: "):
        line = line.removeprefix(prefix)
    return line


def etgo_run(etgo: str, pte: Path, inputs: list[Path], out: Path, timeout, log) -> tuple[list | None, str]:
    if out.exists():
        shutil.rmtree(out)
    cmd = [etgo, "run", str(pte)] + [a for p in inputs for a in ("--input", str(p))] + ["--output-dir", str(out)]
    s = Step(cmd, timeout, log)
    if s.error or s.rc != 0:
        return None, s.error or etgo_message(s.stderr)
    return load_npys(out, "output"), ""


def run_etgo_columns(e: dict, d: Path, etgo: str, timeout: int, log: Path, tmp: Path) -> dict | None:
    """The etgo columns but official_runs_etgo_pte, for which it returns the official runtime's
    job (run_batch runs them all at once; record_official_etgo_run reads the result)."""
    job = None
    tmp.mkdir(parents=True, exist_ok=True)
    for k in ETGO:
        e.pop(k, None)
    notes = e.setdefault("notes", {})
    for k in ("plan_equal", "etgo_lowers", "official_runs_etgo_pte", "etgo_runs_official_pte", "etgo_runs_etgo_pte"):
        notes.pop(k, None)
    inputs = numbered(d / "inputs", "input")
    eager = load_npys(d / "expected" / "eager", "output")
    official = json.loads((d / "delegation.json").read_text()) if (d / "delegation.json").exists() else None

    s = Step([etgo, "lower", "model.pt2", "--plan", "--json"], timeout, log, cwd=d)
    if s.error or s.rc != 0:
        e["etgo_lowers"] = False
        e["etgo_error"] = notes["etgo_lowers"] = s.error or etgo_message(s.stderr)
    else:
        if official:
            diff = plan_difference(json.loads(s.stdout), official)
            e["plan_equal"] = not diff
            if diff:
                notes["plan_equal"] = "plan differs: " + diff
                if e.get("official_runs_official_pte") is False and "xnn_status_unsupported_parameter" in e.get("notes", {}).get("official_runs_official_pte", ""):
                    notes["plan_equal"] = ("deliberate: the official plan puts tensors of more than 6 dims into XNNPACK blobs, "
                                           "which both runtimes refuse at load; etgo leaves those nodes to the portable kernels; "
                                           + notes["plan_equal"])
        pte = tmp / "etgo.pte"
        s = Step([etgo, "lower", "model.pt2", "-o", str(pte)], timeout, log, cwd=d)
        e["etgo_lowers"] = not s.error and s.rc == 0
        if not e["etgo_lowers"]:
            e["etgo_error"] = notes["etgo_lowers"] = s.error or etgo_message(s.stderr)
        else:
            e["etgo_pte_sha256"] = hashlib.sha256(pte.read_bytes()).hexdigest()
            job = {"pte": str(pte), "inputs": str(d / "inputs"), "outputs": str(tmp / "official_etgo")}
            outs, err = etgo_run(etgo, pte, inputs, tmp / "etgo_etgo", timeout, log)
            if outs is not None:
                ok, worst, err = compare(outs, eager)
                e.setdefault("etgo_max_abs_diff", {})["etgo_runs_etgo_pte"] = worst
            e["etgo_runs_etgo_pte"] = not err
            if err:
                notes["etgo_runs_etgo_pte"] = err
    if (d / "xnnpack.pte").exists():
        outs, err = etgo_run(etgo, d / "xnnpack.pte", inputs, tmp / "etgo_official", timeout, log)
        if outs is not None:
            ok, worst, err = compare(outs, eager)
            e.setdefault("etgo_max_abs_diff", {})["etgo_runs_official_pte"] = worst
        e["etgo_runs_official_pte"] = not err
        if err:
            notes["etgo_runs_official_pte"] = err
    return job


def record_official_etgo_run(e: dict, d: Path, job: dict, result: dict):
    err = result.get("error", "")
    if not err:
        ok, worst, err = compare(load_npys(Path(job["outputs"]), "output"), load_npys(d / "expected" / "eager", "output"))
        e.setdefault("etgo_max_abs_diff", {})["official_runs_etgo_pte"] = worst
    e["official_runs_etgo_pte"] = not err
    if err:
        e.setdefault("notes", {})["official_runs_etgo_pte"] = err
    summarize_note(e)


def run_official_columns(e: dict, name: str, d: Path, full: bool, timeout: int, log: Path, tmp: Path):
    for k in OFFICIAL + ["note", "notes"]:
        e.pop(k, None)
    notes = e.setdefault("notes", {})
    args = ["official", "--name", name, "--dir", str(d)] + (["--full"] if full else [])
    s = python_worker(args, timeout, log, tmp)
    st = s.status
    for k in ("params", "exported", "export_strict", "official_lowers"):
        if k in st:
            e[k] = st[k]
    err = s.error or st.get("error", "")
    if "exported" not in e:
        e["exported"] = False
    if err or st.get("note"):
        msg = st.get("note") or err
        notes["official_lowers" if e["exported"] else "exported"] = msg
        if e["exported"] and "official_lowers" not in e:
            e["official_lowers"] = False
    if e.get("official_lowers"):
        err = st.get("official_run", {}).get("error", "") if "official_run" in st else (s.error or "no result")
        if not err:
            ok, worst, err = compare(load_npys(d / "expected" / "xnnpack", "output"), load_npys(d / "expected" / "eager", "output"))
            e["official_max_abs_diff"] = worst
        e["official_runs_official_pte"] = not err
        if err:
            notes["official_runs_official_pte"] = err


def recheck_official_run(e: dict, d: Path):
    """Judge the recorded official outputs again (the comparison may have changed)."""
    got = d / "expected" / "xnnpack"
    if e.get("official_lowers") and got.exists():
        ok, worst, err = compare(load_npys(got, "output"), load_npys(d / "expected" / "eager", "output"))
        e["official_runs_official_pte"], e["official_max_abs_diff"] = ok, worst
        notes = e.setdefault("notes", {})
        notes.pop("official_runs_official_pte", None)
        if err:
            notes["official_runs_official_pte"] = err


def folder_bytes(d: Path) -> int:
    return sum(p.stat().st_size for p in d.rglob("*") if p.is_file()) if d.exists() else 0


def summarize_note(e: dict):
    notes = e.get("notes", {})
    for c in COLUMNS + ["committed"]:
        if notes.get(c):
            e["note"] = f"{c}: {notes[c]}"
            return
    e.pop("note", None)


# ---------------------------------------------------------------------------------------------
# report.md


_OP = re.compile(r"\b(?:aten|executorch_prim|quantized_decomposed|torchvision|dim_order_ops)(?:\.|::)[\w.]+")


def refusal_key(note: str) -> str:
    """The operator an etgo refusal names, else the message with numbers and names masked."""
    m = re.search(r"calls ([\w.:]+?),", note)
    if m:
        return m.group(1)
    m = _OP.search(note)
    if m:
        return m.group(0).rstrip(".")
    return re.sub(r"\([^)]*\)|\d+", "…", note)[:120]


def refusal_kind(note: str) -> str:
    if "no decomposition" in note:
        return "a decomposition (to Edge)"
    if "no visitor" in note or "not supported in XNNPACK" in note:
        return "an XNNPACK node for a claimed operator (preprocess)"
    if "kernel" in note:
        return "a portable kernel"
    return note.split(":")[0][:60]


def write_markdown(out: Path, report: dict):
    models = report["models"]
    sources = sorted({m["source"] for m in models})

    def count(ms, col):
        return sum(1 for m in ms if m.get(col) is True), sum(1 for m in ms if m.get(col) is not None)

    lines = ["# The public model corpus", "",
             "Made by `tools/reference/generate_corpus.py` (models in `tools/reference/corpus.py`) with "
             f"executorch {report['versions'].get('executorch')}, torch {report['versions'].get('torch')}, "
             f"torchvision {report['versions'].get('torchvision')}, transformers {report['versions'].get('transformers')}. "
             "Each cell counts the models for which the column is true, of those where it was tried "
             "(a column is not tried when an earlier step failed). Committed: the model's files are in "
             "`testdata/corpus/<name>/`; `internal/corpus` checks etgo's columns against them.", "",
             "| source | models | committed | " + " | ".join(COLUMNS) + " |",
             "|---|---|---|" + "---|" * len(COLUMNS)]
    for src in sources + ["all"]:
        ms = models if src == "all" else [m for m in models if m["source"] == src]
        cells = [f"{a}/{b}" for a, b in (count(ms, c) for c in COLUMNS)]
        label = "**all**" if src == "all" else f"`{src}`"
        lines.append(f"| {label} | {len(ms)} | {sum(1 for m in ms if m.get('committed'))} | " + " | ".join(cells) + " |")

    refusals: dict[tuple[str, str], list[str]] = {}
    for m in models:
        if m.get("etgo_lowers") is False:
            note = m.get("etgo_error", "")
            refusals.setdefault((refusal_key(note), refusal_kind(note)), []).append(m["name"])
    lines += ["", "## etgo's refusals, by the operator they name", "",
              "What `etgo lower` stops at (the first refusal only: a model may need more), most models first: "
              "the decompositions, XNNPACK visitors and kernels that would unblock the most.", "",
              "| operator | what etgo lacks | models | which |", "|---|---|---|---|"]
    for (k, kind), names in sorted(refusals.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        lines.append(f"| `{k}` | {kind} | {len(names)} | {', '.join(names)} |")

    def cell(v):
        return {True: "✓", False: "✗", None: "·"}[v]

    other: dict[str, list[str]] = {}
    broken = [m for m in models if m.get("official_runs_official_pte") is False]
    for m in models:
        if m in broken:
            continue
        for c in ("plan_equal", "official_runs_etgo_pte", "etgo_runs_official_pte", "etgo_runs_etgo_pte"):
            if m.get(c) is False:
                other.setdefault(c, []).append(m["name"])
    if other:
        lines += ["", "## Other etgo failures", "", "| column | models |", "|---|---|"]
        for c, names in other.items():
            lines.append(f"| {c} | {', '.join(names)} |")
    if broken:
        lines += ["", "## Where the official toolchain's own program fails", "",
                  "The official toolchain lowers these, but the official runtime cannot run the result (a kernel "
                  "its portable library lacks, or an XNNPACK blob it refuses at load). What etgo does instead:", "",
                  "| model | official runtime on the official `.pte` | etgo's plan | etgo runs the official `.pte` | etgo runs its own `.pte` | official runtime on etgo's `.pte` |",
                  "|---|---|---|---|---|---|"]
        for m in broken:
            n = m.get("notes", {})
            plan = "equal" if m.get("plan_equal") else ("differs on purpose: >6-d nodes left to portable kernels"
                                                       if n.get("plan_equal", "").startswith("deliberate") else "differs")
            def ran(c):
                return cell(m.get(c)) + ("" if m.get(c) is not False else " " + n.get(c, "")[:140].replace("|", "\\|"))
            lines.append(f"| {m['name']} | {n.get('official_runs_official_pte', '')[:140].replace('|', chr(92) + '|')} | {plan} | "
                         f"{ran('etgo_runs_official_pte')} | {ran('etgo_runs_etgo_pte')} | {ran('official_runs_etgo_pte')} |")

    lines += ["", "## Models", "", "✓ true, ✗ false, · not tried. Size: the committed files.", "",
              "| model | source | params | KB | " + " | ".join(COLUMNS) + " | note |",
              "|---|---|---|---|" + "---|" * len(COLUMNS) + "---|"]
    for m in sorted(models, key=lambda m: (m["source"], m["name"])):
        kb = f"{m['bytes'] // 1024}" if m.get("committed") else "-"
        note = (m.get("note") or "").replace("|", "\\|")
        lines.append(f"| {m['name']} | {m['source']} | {m.get('params', '-')} | {kb} | "
                     + " | ".join(cell(m.get(c)) for c in COLUMNS) + f" | {note} |")
    (out / "report.md").write_text("\n".join(lines) + "\n")


def versions() -> dict:
    v = {"python": platform.python_version()}
    for pkg in ("torch", "torchvision", "torchaudio", "executorch", "transformers", "torchsr", "numpy"):
        try:
            v[pkg] = importlib.metadata.version(pkg)
        except importlib.metadata.PackageNotFoundError:
            v[pkg] = None
    return v


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="", help="comma-separated model names or sources")
    ap.add_argument("--skip", default="", help="comma-separated model names or sources to leave as recorded")
    ap.add_argument("--skip-official", action="store_true", help="reuse recorded official results where present")
    ap.add_argument("--etgo-only", action="store_true", help="redo only the etgo columns (models with files)")
    ap.add_argument("--full", action="store_true", help="full-size models into testdata/corpus-full (ignored)")
    ap.add_argument("--out", default=None)
    ap.add_argument("--etgo", default=None, help="etgo binary (default: go build ./cmd/etgo once)")
    ap.add_argument("--timeout", type=int, default=None, help="seconds per step (default 900, 3600 with --full)")
    ap.add_argument("--max-kb", type=int, default=1024, help="do not keep a reduced model whose files exceed this")
    ap.add_argument("--list", action="store_true", help="print the models and exit")
    # worker mode (internal)
    ap.add_argument("--worker", choices=["official", "run-batch"])
    ap.add_argument("--status"), ap.add_argument("--name"), ap.add_argument("--dir"), ap.add_argument("--jobs")
    args = ap.parse_args()
    if args.worker:
        return worker_main(args)

    import corpus

    specs = corpus.all_specs()
    if args.list:
        for s in specs:
            print(f"{s.name:36} {s.source:28} {s.description}")
        return
    sel = {x for x in args.only.split(",") if x}
    skip = {x for x in args.skip.split(",") if x}
    known = {s.name for s in specs} | {s.source for s in specs}
    if (sel | skip) - known:
        sys.exit(f"unknown model(s) or source(s): {sorted((sel | skip) - known)}")
    chosen = [s for s in specs if (not sel or s.name in sel or s.source in sel) and s.name not in skip and s.source not in skip]

    out = Path(args.out) if args.out else REPO / "testdata" / ("corpus-full" if args.full else "corpus")
    out.mkdir(parents=True, exist_ok=True)
    timeout = args.timeout or (3600 if args.full else 900)
    etgo = args.etgo
    tmp = Path(tempfile.mkdtemp(prefix="corpus-"))
    if not etgo:
        etgo = str(tmp / "etgo")
        subprocess.run(["go", "build", "-o", etgo, "./cmd/etgo"], cwd=REPO, check=True)
    log = Path(tempfile.gettempdir()) / ("generate_corpus_full.log" if args.full else "generate_corpus.log")
    log.write_text("")
    print(f"log: {log}", flush=True)

    report_path = out / "report.json"
    report = json.loads(report_path.read_text()) if report_path.exists() else {"models": []}
    entries = {m["name"]: m for m in report["models"]}
    # Models that left the corpus leave the report (and their folders).
    names = {s.name for s in specs}
    for n in list(entries):
        if n not in names:
            del entries[n]
            shutil.rmtree(out / n, ignore_errors=True)

    def save_report():
        report = {"versions": versions(), "models": sorted(entries.values(), key=lambda m: m["name"])}
        report_path.write_text(json.dumps(report, indent=1, sort_keys=True) + "\n")
        write_markdown(out, report)

    def show(i, e, seconds):
        cols = " ".join(f"{c}={ {True: 'y', False: 'n', None: '-'}[e.get(c)] }" for c in COLUMNS)
        print(f"[{i + 1}/{len(chosen)}] {e['name']:34} {seconds:6.1f}s {cols}  {e.get('note', '')[:160]}", flush=True)

    # 1. The official side, one process per model.
    if not args.etgo_only:
        for i, spec in enumerate(chosen):
            d, e = out / spec.name, entries.setdefault(spec.name, {"name": spec.name})
            e["source"], e["description"] = spec.source, spec.description
            if args.skip_official and "exported" in e and (not e.get("exported") or d.exists()):
                recheck_official_run(e, d)
                continue
            t = time.perf_counter()
            run_official_columns(e, spec.name, d, args.full, timeout, log, tmp)
            summarize_note(e)
            show(i, e, time.perf_counter() - t)
            save_report()
    else:
        for spec in chosen:
            if spec.name in entries:
                recheck_official_run(entries[spec.name], out / spec.name)
    # 2. etgo's side, then the official runtime on every etgo-lowered file in one batch.
    jobs = []
    for i, spec in enumerate(chosen):
        d, e = out / spec.name, entries.setdefault(spec.name, {"name": spec.name, "source": spec.source})
        if e.get("exported") and (d / "model.pt2").exists():
            job = run_etgo_columns(e, d, etgo, timeout, log, tmp / spec.name)
            if job:
                jobs.append((spec.name, job))
    results = run_batch([j for _, j in jobs], timeout, log, tmp) if jobs else []
    for (name, job), r in zip(jobs, results):
        record_official_etgo_run(entries[name], out / name, job, r)
    # 3. What is kept.
    for i, spec in enumerate(chosen):
        d, e = out / spec.name, entries[spec.name]
        if not args.etgo_only:
            e["bytes"] = folder_bytes(d)
            e["committed"] = bool(e.get("exported")) and d.exists() and (args.full or e["bytes"] <= args.max_kb * 1024)
            if d.exists() and not e["committed"]:
                e.setdefault("notes", {})["committed"] = f"not kept: {e['bytes'] // 1024} KB > {args.max_kb} KB"
                shutil.rmtree(d)
        summarize_note(e)
        show(i, e, 0)
    save_report()
    shutil.rmtree(tmp, ignore_errors=True)

if __name__ == "__main__":
    main()
