"""kernels/llm/testdata/op_cases.json: the official LLM custom operators (the same C++ kernels the
runtime registers, through their ATen bindings in libcustom_ops_aot_lib) on small inputs.

Inputs are not stored: every tensor is filled by fill(numel, seed) below, which etgo's test
computes bit for bit (integer arithmetic, then one exact float32 division), then NaN/Inf are put
at the listed flat indices. Each case stores the official output, with NaN and +-Inf as strings.

Run: ~/.venvs/et/bin/python tools/reference/generate_llm_op_cases.py
"""

import json
import math
import os

import torch

from executorch.extension.llm.custom_ops import custom_ops  # noqa: F401  (registers llama::*)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "kernels", "llm", "testdata", "op_cases.json")


def fill(shape, seed):
    n = math.prod(shape)
    vals = [((i * 7919 + seed * 104729) % 2001 - 1000) / 1000.0 for i in range(n)]
    return torch.tensor(vals, dtype=torch.float32).reshape(shape)


def poke(t, specials):
    flat = t.reshape(-1)
    for idx, v in specials:
        flat[idx] = float(v)
    return t


def enc(t):
    out = []
    for x in t.reshape(-1).tolist():
        if math.isnan(x):
            out.append("NaN")
        elif math.isinf(x):
            out.append("Inf" if x > 0 else "-Inf")
        else:
            out.append(x)
    return out


def sdpa_case(name, B, S, H, D, cap, Hkv, start, causal=True, mask=None, scale=None,
              q_special=(), k_special=(), v_special=(), mask_special=()):
    q = poke(fill([B, S, H, D], 1), q_special)
    k = poke(fill([B, cap, Hkv, D], 2), k_special)
    v = poke(fill([B, cap, Hkv, D], 3), v_special)
    m = None
    if mask is not None:
        m = poke(fill(mask, 4) * 4, mask_special)
    out = torch.ops.llama.custom_sdpa(q, k, v, start, m, 0.0, causal, scale)
    return {
        "op": "custom_sdpa", "name": name, "q": [B, S, H, D], "kv": [B, cap, Hkv, D],
        "start_pos": start, "causal": causal, "mask": mask, "scale": scale,
        "q_special": enc_special(q_special), "k_special": enc_special(k_special),
        "v_special": enc_special(v_special), "mask_special": enc_special(mask_special),
        "out": enc(out),
    }


def enc_special(sp):
    return [[i, v] for i, v in sp]


def update_case(name, value, cache, start):
    c = fill(cache, 6)
    torch.ops.llama.update_cache(fill(value, 5), c, start)
    return {"op": "update_cache", "name": name, "value": value, "cache": cache,
            "start_pos": start, "out": enc(c)}


def main():
    inf, nan = "Inf", "NaN"
    cases = [
        sdpa_case("prefill causal", 1, 5, 2, 8, 16, 2, 0),
        sdpa_case("prefill at start_pos 3", 1, 4, 2, 8, 16, 2, 3),
        sdpa_case("decode", 1, 1, 4, 16, 32, 4, 9),
        sdpa_case("gqa 4 over 2", 1, 3, 4, 8, 16, 2, 5),
        sdpa_case("gqa 6 over 1 (mqa)", 1, 2, 6, 4, 8, 1, 2),
        sdpa_case("batch 2", 2, 3, 2, 4, 8, 2, 1),
        sdpa_case("not causal: sees the whole chunk", 1, 4, 2, 8, 16, 2, 2, causal=False),
        sdpa_case("scale 0.5", 1, 3, 2, 8, 16, 2, 1, scale=0.5),
        sdpa_case("scale 0 turns the masked future into NaN", 1, 3, 1, 4, 8, 1, 0, scale=0.0),
        sdpa_case("mask over the whole cache", 1, 3, 2, 8, 12, 2, 4, causal=False, mask=[3, 12]),
        sdpa_case("mask with -inf", 1, 2, 1, 8, 12, 1, 0, causal=False, mask=[2, 12],
                  mask_special=[(0, "-Inf"), (5, "-Inf"), (13, "-Inf")]),
        sdpa_case("mask row all -inf gives NaN", 1, 2, 1, 4, 4, 1, 0, causal=False, mask=[2, 4],
                  mask_special=[(0, "-Inf"), (1, "-Inf"), (2, "-Inf"), (3, "-Inf")]),
        sdpa_case("head dim 20 (tails)", 1, 3, 2, 20, 24, 1, 7),
        sdpa_case("33 queries: two query blocks", 1, 33, 1, 4, 40, 1, 0),
        sdpa_case("200 queries: query blocks of 64", 1, 200, 1, 4, 210, 1, 3),
        sdpa_case("600 keys: two kv blocks, online softmax", 1, 2, 2, 4, 640, 1, 598),
        sdpa_case("600 keys causal prefill across the kv block edge", 1, 40, 1, 4, 640, 1, 490),
        sdpa_case("NaN in q", 1, 2, 2, 8, 16, 2, 3, q_special=[(3, nan)]),
        sdpa_case("NaN in a read key", 1, 2, 1, 8, 16, 1, 3, k_special=[(9, nan)]),
        sdpa_case("NaN in a key past start_pos+seq is not read", 1, 2, 1, 8, 16, 1, 3,
                  k_special=[(8 * 10, nan)]),
        sdpa_case("NaN in a future key of the chunk", 1, 3, 1, 8, 16, 1, 0, k_special=[(8 * 2, nan)]),
        sdpa_case("NaN in a future value of the chunk", 1, 3, 1, 8, 16, 1, 0, v_special=[(8 * 2 + 1, nan)]),
        sdpa_case("Inf in q", 1, 2, 1, 8, 16, 1, 3, q_special=[(0, inf)]),
        sdpa_case("-Inf in a key", 1, 2, 1, 8, 16, 1, 3, k_special=[(8, "-Inf")]),
        sdpa_case("Inf in a value", 1, 2, 1, 8, 16, 1, 3, v_special=[(8 * 2 + 3, inf)]),
        sdpa_case("NaN key among 12 (vector lanes and tail)", 1, 1, 1, 4, 16, 1, 11, k_special=[(4 * 2, nan)]),
        sdpa_case("NaN key in the tail of 12", 1, 1, 1, 4, 16, 1, 11, k_special=[(4 * 10, nan)]),
        sdpa_case("NaN key among 16 (lanes only)", 1, 1, 1, 4, 16, 1, 15, k_special=[(4 * 5, nan)]),
        update_case("prefill at 0", [1, 3, 2, 4], [1, 8, 2, 4], 0),
        update_case("decode at 7", [1, 1, 2, 4], [1, 8, 2, 4], 7),
        update_case("batch 2 at 2", [2, 2, 1, 3], [2, 6, 1, 3], 2),
    ]
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump({"torch": torch.__version__, "cases": cases}, f, separators=(",", ":"))
    print(f"{len(cases)} cases, {os.path.getsize(OUT)} bytes")


if __name__ == "__main__":
    main()
