"""Fixtures for Mistral's tekken tokenizer (issue 18): testdata/llm/tokenizers/tekken.json and
tekken_cases.json.

The vocabulary is testdata/llm/tokenizer.json's byte-level BPE recast as tekken wants it: the 256
single bytes first (rank = byte value), then the merged tokens in the order they were learned, as
base64 byte strings; 20 special tokens (the file lists 5, the rest are filled as <SPECIAL_i>),
Mistral's own pattern (with its \\s+(?!\\S) lookahead), and default_vocab_size 8 short of what the
file holds, so the cut is exercised.

The runner's Tekken (pytorch/tokenizers tekken.cpp) has no Python binding; mistral-common's
Tekkenizer, which tekken.cpp follows (its comments say so: ids offset by the special count, the
same cut), encodes the cases. The one place they differ by design is a special token's string
inside the text: the runner splits there and emits the special id (BPETokenizerBase's
encode_with_special_token_), mistral-common reads it as text; those cases are built the runner's
way, from mistral-common's encodings of the parts around the special token.

mistral-common pins its own dependencies, so it lives in a venv of its own:
  python3 -m venv /tmp/mc && /tmp/mc/bin/pip install mistral-common
  /tmp/mc/bin/python tools/reference/generate_tekken_fixtures.py
"""

import base64
import json
import os
import re

from mistral_common.tokens.tokenizers.tekken import Tekkenizer

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "testdata", "llm", "tokenizers")

PATTERN = (r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+|"
           r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*|\p{N}|"
           r" ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+")
SPECIALS = ["<unk>", "<s>", "</s>", "[INST]", "[/INST]"]
NUM_SPECIAL = 20
CUT = 8

TEXTS = [
    "a", "hello world", "Once upon a time", "  two  spaces", "line\nbreak\n\n", "Café naïve", "東京🙂",
    "It's 2024!", "tabs\tand\ttabs", "robots' robot's ROBOT", "x" * 40, "word\n\n  next", "a  \n b",
    "The robot liked to read books about the stars, the sea and the mountains.", "CamelCaseWords andMore",
    "path/to/file.txt\n", "   trailing   ", "numbers 1234567 3.14", "ÀÉÎõü ǅ ǈ", "\u3000\u00a0 spaces",
    "Every morning it said hello to the baker, the teacher and the cat.",
]
# Texts with special tokens' strings, encoded the runner's way (see above).
SPECIAL_TEXTS = ["<s>Once upon</s>", "[INST] hello [/INST] robot", "a<unk>b", "<SPECIAL_7>x", "<s"]


def build_vocab():
    with open(os.path.join(ROOT, "testdata", "llm", "tokenizer.json")) as f:
        hf = json.load(f)
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    unbyte = {chr(c): b for b, c in zip(bs, cs)}
    added = {t["content"] for t in hf.get("added_tokens", [])}
    merged = []
    for tok, _ in sorted(hf["model"]["vocab"].items(), key=lambda kv: kv[1]):
        if tok in added:
            continue
        b = bytes(unbyte[ch] for ch in tok)
        if len(b) > 1:
            merged.append(b)
    vocab = []
    for i, b in enumerate([bytes([i]) for i in range(256)] + merged):
        try:
            s = b.decode("utf-8")
        except UnicodeDecodeError:
            s = None
        vocab.append({"rank": i, "token_bytes": base64.b64encode(b).decode(), "token_str": s})
    return vocab


def main():
    vocab = build_vocab()
    tekken = {
        "config": {"pattern": PATTERN, "num_vocab_tokens": len(vocab),
                   "default_vocab_size": NUM_SPECIAL + len(vocab) - CUT,
                   "default_num_special_tokens": NUM_SPECIAL, "version": "v7"},
        "vocab": vocab,
        "special_tokens": [{"rank": i, "token_str": s, "is_control": True} for i, s in enumerate(SPECIALS)],
    }
    path = os.path.join(OUT, "tekken.json")
    with open(path, "w") as f:
        json.dump(tekken, f, ensure_ascii=False)
    tk = Tekkenizer.from_file(path)
    specials = {s: i for i, s in enumerate(SPECIALS)}
    specials.update({f"<SPECIAL_{i}>": i for i in range(len(SPECIALS), NUM_SPECIAL)})
    split = re.compile("(" + "|".join(re.escape(s) for s in sorted(specials, key=len, reverse=True)) + ")")

    def runner_ids(s):
        out = []
        for part in split.split(s):
            if part in specials:
                out.append(specials[part])
            elif part:
                out.extend(tk.encode(part, bos=False, eos=False))
        return out

    cases = []
    for s in TEXTS + SPECIAL_TEXTS:
        ids = runner_ids(s)
        if s in TEXTS:
            assert ids == tk.encode(s, bos=False, eos=False)
        cases.append({"text": s, "ids": ids, "ids_bos_eos": [tk.bos_id] + ids + [tk.eos_id],
                      "piece_hex": [tk.id_to_byte_piece(i, special_token_policy="keep").hex()
                                    if i >= NUM_SPECIAL else
                                    (SPECIALS + [f"<SPECIAL_{k}>" for k in range(len(SPECIALS), NUM_SPECIAL)])[i].encode().hex()
                                    for i in ids]})
    with open(os.path.join(OUT, "tekken_cases.json"), "w") as f:
        json.dump({"vocab_size": tk.n_words, "bos": tk.bos_id, "eos": tk.eos_id, "cases": cases},
                  f, indent=1, ensure_ascii=False)
    print(f"tekken: {tk.n_words} ids, {len(cases)} cases")


if __name__ == "__main__":
    main()
