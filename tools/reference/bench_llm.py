"""Prefill and decode speed of an export_llm program, etgo vs the official runtime, alternating.

The official side is the runner's loop over executorch.runtime (the whole prompt in one forward
call, then one call per token, argmax each time); etgo's is `etgo generate --temperature 0`, whose
report times the same loop (tokenizing and sampling included, both negligible here). Both run the
same prompt ids with the same thread count.

  ~/.venvs/et/bin/python tools/reference/generate_llm_fixtures.py --bench /tmp/bench110m
  go build -o /tmp/etgo ./cmd/etgo
  ~/.venvs/et/bin/python tools/reference/bench_llm.py /tmp/bench110m/model.pte --threads 1
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import time


def _threads_arg():
    for i, a in enumerate(sys.argv):
        if a == "--threads" and i + 1 < len(sys.argv):
            return sys.argv[i + 1]
        if a.startswith("--threads="):
            return a.split("=", 1)[1]
    return "1"


# The official custom_sdpa's block products go to cpublas::gemm, built with a BLAS
# (ET_BUILD_WITH_BLAS) whose threads are OpenMP's: they default to the core count and spin
# between calls, so "1 thread" would be two in attention, and on a loaded machine the spinning
# costs the official prefill its CPU many times over (measured at load 20: a 52-token prefill
# took 1.6 s of CPU, 0.13 s with OMP_NUM_THREADS=1). OpenMP reads this once, before torch loads.
os.environ["OMP_NUM_THREADS"] = _threads_arg()

import torch  # noqa: E402

from executorch.extension.llm.custom_ops import custom_ops  # noqa: F401  (llama:: kernels for the runtime)
from executorch.kernels import quantized  # noqa: F401  (quantized_decomposed:: kernels: 8da4w embeddings)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def official(pte, ids, decode, threads):
    from executorch.extension.pybindings import portable_lib as pl
    from executorch.runtime import Runtime

    pl._unsafe_reset_threadpool(threads)
    torch.set_num_threads(threads)
    meth = Runtime.get().load_program(pte).load_method("forward")
    # Warm up as etgo generate --warmup does: the prompt and a few tokens, then from position 0.
    out = meth.execute([torch.tensor([ids], dtype=torch.long), torch.tensor([0])])[0]
    for p in range(3):
        meth.execute([torch.tensor([[1]], dtype=torch.long), torch.tensor([len(ids) + p])])
    t0, c0 = time.perf_counter(), time.process_time()
    out = meth.execute([torch.tensor([ids], dtype=torch.long), torch.tensor([0])])[0]
    tok = int(torch.argmax(out.reshape(-1, out.shape[-1])[-1]))
    t1, c1 = time.perf_counter(), time.process_time()
    pos = len(ids)
    for _ in range(decode):
        out = meth.execute([torch.tensor([[tok]], dtype=torch.long), torch.tensor([pos])])[0]
        tok = int(torch.argmax(out.reshape(-1, out.shape[-1])[-1]))
        pos += 1
    t2, c2 = time.perf_counter(), time.process_time()
    # process_time: the process's CPU time, every thread (the threadpool's workers included), as
    # etgo's "cpu:" line counts its own.
    return len(ids) / (t1 - t0), decode / (t2 - t1), len(ids) / (c1 - c0), decode / (c2 - c1)


def etgo(binary, pte, tok, prompt, decode, threads):
    out = subprocess.run([binary, "generate", pte, "--tokenizer", tok, "--prompt", prompt,
                          "--temperature", "0", "--ignore-eos", "--max-new-tokens", str(decode + 1),
                          "--threads", str(threads), "--warmup"], capture_output=True, check=True)
    # The generated text of a random-weight model holds partial UTF-8 characters: only the report
    # on stderr is read.
    out.stderr = out.stderr.decode(errors="replace")
    pre = float(re.search(r"prefill: \d+ tokens in [\d.]+ s, ([\d.]+) tokens/s", out.stderr).group(1))
    dec = float(re.search(r"decode: \d+ tokens in [\d.]+ s, ([\d.]+) tokens/s", out.stderr).group(1))
    n_pre = int(re.search(r"prefill: (\d+) tokens", out.stderr).group(1))
    n_dec = int(re.search(r"decode: (\d+) tokens", out.stderr).group(1))
    cpu = re.search(r"cpu: prefill ([\d.]+) s, decode ([\d.]+) s", out.stderr)
    return pre, dec, n_pre / float(cpu.group(1)), n_dec / float(cpu.group(2))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pte")
    ap.add_argument("--tokenizer", default=os.path.join(ROOT, "testdata", "llm", "tokenizer.json"))
    ap.add_argument("--etgo", default="/tmp/etgo")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--decode", type=int, default=64)
    ap.add_argument("--prompt", default="Once upon a time there was a little robot who lived in a small town. "
                                        "The robot liked to read books")
    args = ap.parse_args()
    from pytorch_tokenizers import CppHFTokenizer

    cpp = CppHFTokenizer()
    cpp.load(args.tokenizer)
    ids = list(cpp.encode(args.prompt, 0, 0))
    rows = {"official": [], "etgo": []}
    for _ in range(args.rounds):
        rows["official"].append(official(args.pte, ids, args.decode, args.threads))
        rows["etgo"].append(etgo(args.etgo, args.pte, args.tokenizer, args.prompt, args.decode, args.threads))
    load = os.getloadavg()
    print(f"{os.path.basename(os.path.dirname(args.pte))}: {len(ids)} prompt tokens, {args.decode} decoded, "
          f"{args.threads} thread(s), load average {load[0]:.1f}")
    for name, r in rows.items():
        pre = statistics.median(x[0] for x in r)
        dec = statistics.median(x[1] for x in r)
        print(f"  {name:8s} prefill {pre:8.1f} tok/s   decode {dec:6.2f} tok/s   (rounds: "
              + ", ".join(f"{a:.0f}/{b:.1f}" for a, b, *_ in r) + ")")
    for name, r in rows.items():
        print(f"  {name:8s} best of {len(r)}: prefill {max(x[0] for x in r):8.1f} tok/s   decode {max(x[1] for x in r):6.2f} tok/s")
    o, e = rows["official"], rows["etgo"]
    print(f"  etgo/official: prefill {statistics.median(x[0] for x in e) / statistics.median(x[0] for x in o):.2f}, "
          f"decode {statistics.median(x[1] for x in e) / statistics.median(x[1] for x in o):.2f}")
    # Tokens per CPU second: what each side's work costs, whatever the other processes on a
    # shared machine take from the cores (at 1 thread the closest to an unloaded wall time; at 2
    # it also counts what a thread spends waiting on its partner).
    for name, r in rows.items():
        print(f"  {name:8s} per CPU second: prefill {statistics.median(x[2] for x in r):8.1f} tok   "
              f"decode {statistics.median(x[3] for x in r):6.2f} tok")
    pc = [b[2] / a[2] for a, b in zip(o, e)]
    dc = [b[3] / a[3] for a, b in zip(o, e)]
    print(f"  etgo/official per CPU second: prefill {statistics.median(pc):.2f}, decode {statistics.median(dc):.2f}")
    # On a shared machine the load moves between rounds: the ratio within each round (the two
    # sides run back to back) says more than the ratio of medians.
    pr = [b[0] / a[0] for a, b in zip(o, e)]
    dr = [b[1] / a[1] for a, b in zip(o, e)]
    print(f"  etgo/official per round: prefill {', '.join(f'{x:.2f}' for x in pr)} (median {statistics.median(pr):.2f}), "
          f"decode {', '.join(f'{x:.2f}' for x in dr)} (median {statistics.median(dr):.2f})")


if __name__ == "__main__":
    sys.exit(main())
