"""Fixtures for issue 18 (fp32): tiny decoder LLMs exported by the official export_llm flow.

For each model class (llama3_2, qwen3, phi_4_mini) this writes to testdata/llm/<name>/:

  model.pte            export_llama(LlmConfig) -- the function `python -m
                       executorch.extension.llm.export.export_llm` calls -- with XNNPACK,
                       use_kv_cache=True, use_sdpa_with_kv_cache=True, fp32, no quantization,
                       random weights (a seeded checkpoint, so no Hugging Face download)
  steps.json           the token fed at each step and its start_pos: a prefill of a few tokens
                       (one call of [1, n] tokens), then single-token decode steps
  logits/step_<i>.npy  the official runtime's output after each step (same Method, so the KV
                       cache carries over exactly as the official runtime keeps it)
  generate.json        the official TextLLMRunner's greedy generation (temperature 0) on a prompt:
                       the prompt's token ids (the official C++ HF tokenizer), the text pieces the
                       runner streamed, and the token ids an equivalent greedy loop over the
                       official runtime picked
  methods.json         every constant method's value (get_max_seq_len, use_kv_cache, ...)

plus variants of the same llama: `llama3_2_nosdpa/` (without the custom sdpa:
use_sdpa_with_kv_cache=False, a separate flow whose attention is aten ops and whose cache update
is index_put), `llama3_2_static/` (enable_dynamic_shape=False: one token per call, so prefill is
token by token) and `llama3_2_nokv/` (use_kv_cache=False: the whole sequence every call).

testdata/llm/tokenizer.json is a tiny byte-level BPE (HF tokenizers, trained on a fixed text) that
every model shares; tokenizer_cases.json holds the official C++ tokenizer's encodings and
decodings of a set of strings, which etgo's tokenizer must reproduce.

Run: ~/.venvs/et/bin/python tools/reference/generate_llm_fixtures.py [--only llama3_2,...]
     [--bench DIR]   (a stories110M-sized llama with random weights, for timing only; not committed)
"""

import argparse
import copy
import json
import os
import shutil
import sys
import tempfile
import time
import zlib

import numpy as np
import torch

from executorch.kernels import quantized  # noqa: F401  (quantized_decomposed:: kernels for the runtime)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "testdata", "llm")

# The text the tokenizer is trained on and the prompts: ASCII plus a few multi-byte characters,
# so byte-level pieces and merges across UTF-8 bytes both occur.
CORPUS = [
    "Once upon a time there was a little robot who lived in a small town.",
    "The robot liked to read books about the stars, the sea and the mountains.",
    "Every morning it said hello to the baker, the teacher and the cat.",
    "One day the robot found a map. The map showed a path to a hidden garden.",
    "Café, naïve, façade: words with accents. 東京 and 🙂 are here too.",
    "It's 2024; numbers like 12345 and 3.14 split into digits.",
    "    indented code:\n\tif x == 1 {\n\t\treturn y\n\t}\n",
] * 4
SPECIALS = ["<|begin_of_text|>", "<|end_of_text|>", "<|pad|>"]
EOS_IDS = {1}  # the exports' get_eos_ids (metadata below)
VOCAB = 320

PROMPT = "Once upon a time"
STEP_TOKENS_PREFILL = 5
DECODE_STEPS = 6
MAX_SEQ = 32
GEN_TOKENS = 12

TOKENIZER_CASES = [
    "", "a", "hello world", "Once upon a time", "  two  spaces", "line\nbreak\n\n",
    "Café naïve", "東京🙂", "It's 2024!", "<|begin_of_text|>Hi<|end_of_text|>",
    "tabs\tand\ttabs", "robots' robot's ROBOT", "x" * 40, "a<|pad|>b",
]

MODELS = {
    # Llama 3.2: GQA (4 query heads over 2 kv heads), scaled rope.
    "llama3_2": dict(
        model_class="llama3_2",
        params={
            "dim": 32, "n_layers": 2, "n_heads": 4, "n_kv_heads": 2, "hidden_dim": 64,
            "vocab_size": VOCAB, "norm_eps": 1e-5, "rope_theta": 500000.0,
            "use_scaled_rope": True, "ffn_dim_multiplier": 1.0, "multiple_of": 16,
        },
        sdpa=True,
    ),
    # Qwen3: q/k RMSNorm before rope, HF-style rope, head_dim given apart from dim/n_heads.
    "qwen3": dict(
        model_class="qwen3_0_6b",
        params={
            "dim": 32, "n_layers": 2, "n_heads": 4, "n_kv_heads": 2, "head_dim": 16,
            "hidden_dim": 64, "vocab_size": VOCAB, "norm_eps": 1e-6, "rope_theta": 1000000.0,
            "use_scaled_rope": False, "use_hf_rope": True, "attention_qkv_bias": False,
            "use_qk_norm": True, "qk_norm_before_rope": True, "ffn_dim_multiplier": 1,
        },
        sdpa=True,
    ),
    # Phi-4-mini: partial rotary (0.75 of head_dim), LongRoPE short/long factors.
    "phi_4_mini": dict(
        model_class="phi_4_mini",
        params={
            "dim": 32, "n_layers": 2, "n_heads": 4, "n_kv_heads": 2, "hidden_dim": 64,
            "vocab_size": VOCAB, "norm_eps": 1e-5, "rope_theta": 10000.0,
            "use_scaled_rope": False, "use_hf_rope": True, "partial_rotary_factor": 0.75,
            "attention_qkv_bias": False, "original_max_position_embeddings": 16,
            "max_position_embeddings": 64,
            "rope_scaling_short_factor": [1.0, 1.25, 1.5],
            "rope_scaling_long_factor": [1.0, 2.0, 4.0],
            "ffn_dim_multiplier": 1,
        },
        sdpa=True,
    ),
    # The same llama without the custom sdpa op (aten attention, index_put cache update).
    "llama3_2_nosdpa": dict(model_class="llama3_2", params=None, sdpa=False, like="llama3_2"),
    # Static shapes (enable_dynamic_shape=False): one token per call, so the runner prefills token
    # by token.
    "llama3_2_static": dict(model_class="llama3_2", params=None, sdpa=True, like="llama3_2", dynamic=False),
    # No KV cache: forward takes the whole sequence every call.
    "llama3_2_nokv": dict(model_class="llama3_2", params=None, sdpa=False, like="llama3_2", kv=False),
    # 8da4w (quantization.qmode=8da4w, group size 32): every linear is an XNNPACK qd8 x qb4w
    # fully connected layer, with the same seeded weights as the fp32 model of its class.
    "llama3_2_8da4w": dict(model_class="llama3_2", params=None, sdpa=True, like="llama3_2", qmode="8da4w"),
    "qwen3_8da4w": dict(model_class="qwen3_0_6b", params=None, sdpa=True, like="qwen3", qmode="8da4w"),
    "phi_4_mini_8da4w": dict(model_class="phi_4_mini", params=None, sdpa=True, like="phi_4_mini", qmode="8da4w"),
    # ... and with quantization.embedding_quantize=4,32: the embedding table 4-bit too
    # (quantized_decomposed::embedding_4bit, a portable-side kernel).
    "llama3_2_8da4w_emb4": dict(model_class="llama3_2", params=None, sdpa=True, like="llama3_2", qmode="8da4w",
                                embedding_quantize="4,32"),
}

BENCH = dict(  # stories110M: dim 768, 12 layers, 12 heads, vocab 32000
    model_class="stories110m",
    params={"dim": 768, "multiple_of": 32, "n_heads": 12, "n_layers": 12, "norm_eps": 1e-5,
            "vocab_size": 32000},
    sdpa=True,
)


def train_tokenizer(path):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=VOCAB, special_tokens=SPECIALS, show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tok.train_from_iterator(CORPUS, trainer=trainer)
    tok.save(path)
    return tok.get_vocab_size()


def tokenizer_cases(path):
    from pytorch_tokenizers import CppHFTokenizer

    cpp = CppHFTokenizer()
    cpp.load(path)
    cases = []
    for s in TOKENIZER_CASES:
        ids = list(cpp.encode(s, 0, 0))
        pieces = []
        for t in ids:
            # A byte-level token can hold part of a UTF-8 character, which the binding cannot
            # hand back as str: such pieces are null, the whole decoding below covers them.
            try:
                pieces.append(cpp.decode(t))
            except UnicodeDecodeError:
                pieces.append(None)
        cases.append({"text": s, "ids": ids, "pieces": pieces, "decoded": cpp.decode_batch(ids)})
    return {"vocab_size": cpp.vocab_size(), "bos": cpp.bos_tok(), "eos": cpp.eos_tok(),
            "cases": cases}


LLAMA3_SPLIT = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"
                r"|\s*[\r\n]+|\s+(?!\S)|\s+")


def tokenizer_variants(tok_path, outdir):
    """The same vocabulary in the other forms the runner reads, each with the official C++
    tokenizer's encodings of TOKENIZER_CASES: a Llama 3 style tokenizer.json (NFC, a Split on
    Llama 3's pattern, ByteLevel without its regex, a TemplateProcessing BOS) and a tiktoken file."""
    from pytorch_tokenizers import CppHFTokenizer, CppTiktoken

    os.makedirs(outdir, exist_ok=True)
    with open(tok_path) as f:
        j = json.load(f)
    j["normalizer"] = {"type": "NFC"}
    j["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": {"Regex": LLAMA3_SPLIT}, "behavior": "Isolated", "invert": False},
        {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False}]}
    j["post_processor"] = {"type": "TemplateProcessing",
                           "single": [{"SpecialToken": {"id": "<|begin_of_text|>", "type_id": 0}},
                                      {"Sequence": {"id": "A", "type_id": 0}}],
                           "pair": [{"Sequence": {"id": "A", "type_id": 0}}],
                           "special_tokens": {"<|begin_of_text|>": {"id": "<|begin_of_text|>",
                                                                    "ids": [0], "tokens": ["<|begin_of_text|>"]}}}
    split_path = os.path.join(outdir, "llama3_style.json")
    with open(split_path, "w") as f:
        json.dump(j, f, ensure_ascii=False)
    cpp = CppHFTokenizer()
    cpp.load(split_path)
    cases = TOKENIZER_CASES + ["Ｃａｆé\u0301 e\u0301", "word\n\n  next", "a  \n b"]
    # The runner's NFC normalizer is not NFC: it drops accents ("é" becomes "e") and leaves a
    # combining mark after a composed letter. Hugging Face's tokenizers library, whose format this
    # is and whose encoding a model was trained on, is the reference there: each case has its
    # ids too, and etgo follows them.
    from tokenizers import Tokenizer

    hf = Tokenizer.from_file(split_path)
    hf_cases = [{"text": s, "ids_runner": list(cpp.encode(s, 0, 0)), "ids": hf.encode(s, add_special_tokens=False).ids,
                 "ids_bos": hf.encode(s).ids} for s in cases]
    with open(os.path.join(outdir, "llama3_style_cases.json"), "w") as f:
        json.dump({"vocab_size": cpp.vocab_size(), "bos": cpp.bos_tok(), "eos": cpp.eos_tok(),
                   "cases": hf_cases}, f, indent=1, ensure_ascii=False)

    # tiktoken: every regular token's bytes with its id less the 3 added tokens as rank.
    import base64
    vocab = j["model"]["vocab"]
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    unbyte = {chr(c): b for b, c in zip(bs, cs)}
    lines = []
    for tok, i in sorted(vocab.items(), key=lambda kv: kv[1]):
        if tok in SPECIALS:
            continue
        lines.append(base64.b64encode(bytes(unbyte[ch] for ch in tok)).decode() + f" {i - len(SPECIALS)}")
    tk_path = os.path.join(outdir, "tokenizer.tiktoken")
    with open(tk_path, "w") as f:
        f.write("\n".join(lines) + "\n")
    tk = CppTiktoken()
    tk.load(tk_path)
    tk_cases = [{"text": s, "ids": list(tk.encode(s, 0, 0)), "ids_bos_eos": list(tk.encode(s, 1, 1))}
                for s in cases]
    with open(os.path.join(outdir, "tiktoken_cases.json"), "w") as f:
        json.dump({"vocab_size": tk.vocab_size(), "bos": tk.bos_tok(), "eos": tk.eos_tok(),
                   "cases": tk_cases}, f, indent=1, ensure_ascii=False)
    llama2c_variant(outdir, cases)
    unigram_variants(outdir, cases)


def llama2c_variant(outdir, cases):
    """A SentencePiece BPE model (byte fallback, as Llama 2's) trained on the same text, converted
    to the llama2c tokenizer.bin the runner reads (pytorch_tokenizers' Llama2cTokenizer.export), with
    the official C++ Llama2cTokenizer's encodings and pieces."""
    import io

    import sentencepiece as spm
    from pytorch_tokenizers import CppLlama2cTokenizer
    from pytorch_tokenizers.llama2c import Llama2cTokenizer

    # Llama 2's settings: BPE, byte fallback, the identity normalizer (no NFKC table), a dummy
    # prefix, whitespace kept as it is.
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(sentence_iterator=iter(CORPUS), model_writer=model, vocab_size=400,
                                   model_type="bpe", byte_fallback=True, character_coverage=1.0,
                                   normalization_rule_name="identity", remove_extra_whitespaces=False,
                                   num_threads=1, minloglevel=2)
    sp_path = os.path.join(outdir, "sentencepiece.model")
    with open(sp_path, "wb") as f:
        f.write(model.getvalue())
    bin_path = os.path.join(outdir, "llama2c.bin")
    Llama2cTokenizer(sp_path).export(bin_path)
    tk = CppLlama2cTokenizer()
    tk.load(bin_path)
    out = []
    for s in cases:
        if not s:
            continue  # the runner refuses to encode empty text
        ids = list(tk.encode(s, 0, 0))
        # decode(token) decodes the token as if after BOS (a leading space dropped).
        pieces = []
        for t in ids:
            try:
                pieces.append(tk.decode(t))
            except UnicodeDecodeError:
                pieces.append(None)
        out.append({"text": s, "ids": ids, "ids_bos_eos": list(tk.encode(s, 1, 1)), "pieces_after_bos": pieces})
    with open(os.path.join(outdir, "llama2c_cases.json"), "w") as f:
        json.dump({"vocab_size": tk.vocab_size(), "bos": tk.bos_tok(), "eos": tk.eos_tok(), "cases": out},
                  f, indent=1, ensure_ascii=False)
    # The .model itself, as the runner's SPTokenizer (libsentencepiece) reads it.
    from pytorch_tokenizers import CppSPTokenizer

    sp = CppSPTokenizer()
    sp.load(sp_path)
    out = []
    for s in cases:
        ids = list(sp.encode(s, 0, 0))
        pieces = []
        for t in ids:  # decode(token): the token as the first after BOS
            try:
                pieces.append(sp.decode(t))
            except UnicodeDecodeError:
                pieces.append(None)
        out.append({"text": s, "ids": ids, "ids_bos_eos": list(sp.encode(s, 1, 1)), "pieces_first": pieces})
    with open(os.path.join(outdir, "sentencepiece_cases.json"), "w") as f:
        json.dump({"vocab_size": sp.vocab_size(), "bos": sp.bos_tok(), "eos": sp.eos_tok(), "cases": out},
                  f, indent=1, ensure_ascii=False)


# Texts for the unigram models beyond TOKENIZER_CASES: full-width and compatibility characters
# (which NFKC rewrites), characters the vocabulary lacks (unknown runs, byte fallback), runs of
# whitespace and control characters, a user-defined symbol, malformed UTF-8 cannot pass the
# binding (str), so it is the Go fuzz target's.
UNIGRAM_CASES = [
    "Ｏｎｃｅ ｕｐｏｎ ａ ｔｉｍｅ", "ﬁne ① ㍻ Ⅻ ½", "∑∏≈ ☃☃☃ unknown ßß", "the<sep>robot <sep> map",
    "   leading and trailing   ", "tab\tnew\nline\r\n", "\u3000ideographic\u3000space", "a\u00a0b\u200bc",
    "The robot liked to read books about the stars, the sea and the mountains.",
    "Café vs Cafe\u0301", "ＡＢＣ１２３！？", "mixed 東京 and robot",
]


def unigram_variants(outdir, cases):
    """SentencePiece unigram models, as the runner's SPTokenizer (libsentencepiece) reads them:
    `unigram_nfkc.model` with the trainer's defaults (nmt_nfkc: a precompiled character map,
    extra whitespace removed, no byte fallback, so unknown characters become <unk>) and a
    user-defined symbol; `unigram_bytes.model` with byte fallback, the identity normalizer and
    whitespace kept. Each with the official C++ SPTokenizer's encodings of a spread of texts."""
    import io

    import sentencepiece as spm
    from pytorch_tokenizers import CppSPTokenizer

    texts = [c for c in cases if c] + UNIGRAM_CASES
    for name, kw in [
        ("unigram_nfkc", dict(vocab_size=150, user_defined_symbols=["<sep>"])),
        ("unigram_bytes", dict(vocab_size=400, byte_fallback=True, normalization_rule_name="identity",
                               remove_extra_whitespaces=False)),
    ]:
        model = io.BytesIO()
        spm.SentencePieceTrainer.train(sentence_iterator=iter(CORPUS), model_writer=model,
                                       model_type="unigram", character_coverage=0.98, num_threads=1, hard_vocab_limit=False,
                                       minloglevel=2, **kw)
        path = os.path.join(outdir, name + ".model")
        with open(path, "wb") as f:
            f.write(model.getvalue())
        sp = CppSPTokenizer()
        sp.load(path)
        py = spm.SentencePieceProcessor(model_file=path)
        out = []
        for s in texts + ([""] if "" in cases else []):
            ids = list(sp.encode(s, 0, 0))
            assert ids == py.encode(s), (name, s)  # the runner's C++ and the Python binding agree
            pieces = []
            for t in ids:
                try:
                    pieces.append(sp.decode(t))
                except UnicodeDecodeError:
                    pieces.append(None)
            out.append({"text": s, "ids": ids, "ids_bos_eos": list(sp.encode(s, 1, 1)), "pieces_first": pieces})
        with open(os.path.join(outdir, name + "_cases.json"), "w") as f:
            json.dump({"vocab_size": sp.vocab_size(), "bos": sp.bos_tok(), "eos": sp.eos_tok(), "cases": out},
                      f, indent=1, ensure_ascii=False)


def random_checkpoint(params, seed, path):
    """Seeded random weights in the checkpoint layout llama_transformer loads."""
    from executorch.examples.models.llama.llama_transformer import construct_transformer
    from executorch.examples.models.llama.model_args import ModelArgs

    torch.manual_seed(seed)
    args = ModelArgs(max_seq_len=MAX_SEQ, max_context_len=MAX_SEQ, use_kv_cache=False, **params)
    model = construct_transformer(args)
    sd = {}
    g = torch.Generator().manual_seed(seed)
    for k, v in model.state_dict().items():
        if "freqs" in k or "mask" in k or "cache" in k:
            continue
        if k.endswith("norm.weight") or "norm" in k:
            # Norm scales away from 1 so a norm that is skipped or misread shows.
            sd[k] = 1.0 + 0.2 * torch.randn(v.shape, generator=g)
        elif "tok_embeddings" in k:
            sd[k] = torch.randn(v.shape, generator=g)
        else:
            fan_in = v.shape[-1] if v.dim() > 1 else 1
            sd[k] = torch.randn(v.shape, generator=g) * (1.5 / fan_in ** 0.5)
    torch.save(sd, path)


def export(name, spec, outdir, tmp, max_seq=MAX_SEQ):
    from executorch.examples.models.llama.export_llama_lib import export_llama
    from executorch.extension.llm.export.config.llm_config import DtypeOverride, LlmConfig, ModelType

    params = spec["params"]
    params_path = os.path.join(tmp, f"{name}_params.json")
    with open(params_path, "w") as f:
        json.dump(params, f)
    ckpt = os.path.join(tmp, f"{name}.pth")
    random_checkpoint(params, seed=zlib.crc32(spec.get("like", name).encode()), path=ckpt)
    cfg = LlmConfig()
    cfg.base.model_class = ModelType(spec["model_class"])
    cfg.base.params = params_path
    cfg.base.checkpoint = ckpt
    cfg.base.metadata = json.dumps({"get_bos_id": 0, "get_eos_ids": [1]})
    cfg.model.use_kv_cache = spec.get("kv", True)
    cfg.model.use_sdpa_with_kv_cache = spec["sdpa"]
    cfg.model.enable_dynamic_shape = spec.get("dynamic", True)
    cfg.model.dtype_override = DtypeOverride.fp32
    cfg.export.max_seq_length = max_seq
    cfg.export.max_context_length = max_seq
    cfg.export.output_dir = tmp
    cfg.export.output_name = os.path.join(tmp, f"{name}.pte")
    cfg.backend.xnnpack.enabled = True
    if spec.get("qmode"):
        cfg.quantization.qmode = spec["qmode"]
        cfg.quantization.group_size = spec.get("group_size", 32)
    if spec.get("embedding_quantize"):
        cfg.quantization.embedding_quantize = spec["embedding_quantize"]
    export_llama(cfg)
    os.makedirs(outdir, exist_ok=True)
    dst = os.path.join(outdir, "model.pte")
    shutil.copy(os.path.join(tmp, f"{name}.pte"), dst)
    return dst


def constant_methods(prog):
    out = {}
    for m in sorted(prog.method_names):
        if m == "forward":
            continue
        vals = prog.load_method(m).execute([])
        out[m] = [v.item() if isinstance(v, torch.Tensor) else v for v in vals]
    return out


def forward(meth, spec, history, cur, pos):
    """One forward call as the runner makes it: the new tokens and start_pos with a KV cache, the
    whole sequence without one."""
    if not spec.get("kv", True):
        return meth.execute([torch.tensor([history + cur], dtype=torch.long)])[0]
    return meth.execute([torch.tensor([cur], dtype=torch.long), torch.tensor([pos], dtype=torch.long)])[0]


def run_steps(pte, outdir, prompt_ids, spec):
    """Prefill of STEP_TOKENS_PREFILL tokens in one call (one token per call for a static-shape
    program), then DECODE_STEPS single tokens (the greedy choice each time), all through one
    official Method so the KV cache carries over."""
    from executorch.extension.pybindings import portable_lib as pl
    from executorch.runtime import Runtime

    pl._unsafe_reset_threadpool(1)  # the committed logits are the 1-thread run's
    prog = Runtime.get().load_program(pte)
    meth = prog.load_method("forward")
    steps = []
    prefill = list(prompt_ids[:STEP_TOKENS_PREFILL])
    chunks = [prefill] if spec.get("dynamic", True) else [[t] for t in prefill]
    os.makedirs(os.path.join(outdir, "logits"), exist_ok=True)
    pos, history = 0, []
    for i in range(len(chunks) + DECODE_STEPS):
        cur = chunks[i] if i < len(chunks) else cur
        out = forward(meth, spec, history, cur, pos)
        logits = out.detach().numpy().astype(np.float32)
        np.save(os.path.join(outdir, "logits", f"step_{i}.npy"), logits)
        last = logits.reshape(-1, logits.shape[-1])[-1]
        order = np.argsort(-last)
        steps.append({"tokens": cur, "start_pos": pos, "history": list(history), "logits_shape": list(logits.shape),
                      "argmax": int(order[0]), "top2_gap": float(last[order[0]] - last[order[1]])})
        history += cur
        pos += len(cur)
        if i + 1 >= len(chunks):
            cur = [int(order[0])]
    with open(os.path.join(outdir, "steps.json"), "w") as f:
        json.dump(steps, f, indent=1)
    if spec.get("qmode"):
        with open(os.path.join(outdir, "variation.json"), "w") as f:
            json.dump(official_variation(pte, outdir, steps, spec), f, indent=1)
    return prog


def rel_diff(a, b):
    """The Go test's measure: max |a-b| / max(1, |b|)."""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return float(np.max(np.abs(a - b) / np.maximum(1.0, np.abs(b))))


def official_variation(pte, outdir, steps, spec):
    """How far the official runtime's own logits move on the same token steps when only the
    execution changes, which bounds what an 8da4w comparison can demand: the thread count (1, 2,
    4: the threadpool the XNNPACK delegates and custom_sdpa split work over), and the prefill
    split (the first prompt token alone, then the other prefill tokens in one call, against all
    of them in one call: the same positions through different GEMM row tilings and attention
    blocks). Dynamic quantization picks each activation row's scale from its own min/max, so any
    fp32 difference that moves a value across a rounding boundary changes a whole int8 code."""
    from executorch.extension.pybindings import portable_lib as pl
    from executorch.runtime import Runtime

    want = [np.load(os.path.join(outdir, "logits", f"step_{i}.npy")) for i in range(len(steps))]
    out = {"measure": "max |a-b| / max(1, |b|) against the committed 1-thread logits", "threads": {}}
    for threads in (2, 4, 1):
        pl._unsafe_reset_threadpool(threads)
        meth = Runtime.get().load_program(pte).load_method("forward")
        diffs = []
        for i, st in enumerate(steps):
            got = forward(meth, spec, st["history"], st["tokens"], st["start_pos"]).detach().numpy()
            diffs.append(rel_diff(got, want[i]))
        out["threads"][str(threads)] = diffs
    meth = Runtime.get().load_program(pte).load_method("forward")
    first = steps[0]["tokens"]
    forward(meth, spec, [], first[:1], 0)
    b = forward(meth, spec, first[:1], first[1:], 1).detach().numpy()
    # The program returns the last position's logits only (generate_full_logits=False).
    out["prefill_split"] = rel_diff(b.reshape(-1, b.shape[-1])[-1], want[0].reshape(-1, want[0].shape[-1])[-1])
    return out


def greedy_loop(pte, prompt_ids, n, spec):
    """The runner's loop (text_prefiller.cpp, text_token_generator.h) over the official runtime:
    prefill the whole prompt in one call (token by token for a static-shape program), then one
    token per call, argmax each time."""
    from executorch.runtime import Runtime

    meth = Runtime.get().load_program(pte).load_method("forward")
    if spec.get("dynamic", True):
        out = forward(meth, spec, [], list(prompt_ids), 0)
    else:
        for p, t in enumerate(prompt_ids):
            out = forward(meth, spec, list(prompt_ids[:p]), [t], p)
    gaps = []
    toks = []
    history = list(prompt_ids)
    pos = len(prompt_ids)
    last = out.reshape(-1, out.shape[-1])[-1]
    for _ in range(n):
        top = torch.topk(last, 2).values
        gaps.append(float(top[0] - top[1]))
        t = int(torch.argmax(last))
        toks.append(t)
        if len(toks) == n or (len(toks) > 1 and t in EOS_IDS):
            break  # the runner stops after emitting an EOS it decoded (not the prefill's token)
        out = forward(meth, spec, history, [t], pos)
        history.append(t)
        pos += 1
        last = out.reshape(-1, out.shape[-1])[-1]
    return toks, min(gaps)


def runner_generate(pte, tok_path, n):
    """The official TextLLMRunner, greedy. Its token callback hands pieces to Python as str, which
    fails on a piece holding part of a UTF-8 character (random weights pick such tokens), so the
    text is taken from what the runner itself prints to fd 1: each piece through safe_printf
    (which drops a one-byte piece that is neither printable nor space), then a newline."""
    from executorch.extension.llm.runner import GenerationConfig, TextLLMRunner

    runner = TextLLMRunner(pte, tok_path)
    stats = []
    cfg = GenerationConfig(echo=False, max_new_tokens=n, temperature=0.0, num_bos=0)
    sys.stdout.flush()
    saved = os.dup(1)
    with tempfile.TemporaryFile() as cap:
        os.dup2(cap.fileno(), 1)
        try:
            runner.generate(PROMPT, cfg, stats_callback=lambda st: stats.append(
                {"num_prompt_tokens": st.num_prompt_tokens,
                 "num_generated_tokens": st.num_generated_tokens}))
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        cap.seek(0)
        printed = cap.read()
    # print_report's PyTorchObserver line follows the generated text and its newline.
    cut = printed.find(b"PyTorchObserver")
    if cut >= 0:
        printed = printed[:cut]
    return printed, stats[0]


def safe_printf(piece: bytes) -> bytes:
    """extension/llm/runner/util.h: a one-byte piece that is neither printable nor space is
    not printed."""
    if len(piece) == 1 and not (0x20 <= piece[0] < 0x7F or piece[0] in b" \t\n\v\f\r"):
        return b""
    return piece


def piece_bytes(tok_path, ids):
    """Each token's bytes as the runner's HF tokenizer decodes it (ByteLevel: the token string's
    characters map back to bytes through GPT-2's byte table)."""
    from tokenizers import Tokenizer

    vocab = {v: k for k, v in Tokenizer.from_file(tok_path).get_vocab(with_added_tokens=True).items()}
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("\u00a1"), ord("\u00ac") + 1)) + \
        list(range(ord("\u00ae"), ord("\u00ff") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    unbyte = {chr(c): b for b, c in zip(bs, cs)}
    out = []
    for t in ids:
        s = vocab[t]
        if s in SPECIALS:
            out.append(s.encode())
        else:
            out.append(bytes(unbyte[ch] for ch in s))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    ap.add_argument("--bench", default="", help="write a stories110M-sized model.pte here")
    ap.add_argument("--bench-qmode", default="", help="quantize the --bench model (8da4w, group 32)")
    ap.add_argument("--tokenizers", action="store_true", help="only the tokenizer fixtures")
    args = ap.parse_args()

    os.makedirs(OUT, exist_ok=True)
    tok_path = os.path.join(OUT, "tokenizer.json")
    with tempfile.TemporaryDirectory() as tmp:
        if args.bench:
            spec = copy.deepcopy(BENCH)
            if args.bench_qmode:
                spec["qmode"] = args.bench_qmode
            export("stories110m", spec, args.bench, tmp, max_seq=128)
            return
        vocab = train_tokenizer(tok_path)
        assert vocab == VOCAB, vocab
        with open(os.path.join(OUT, "tokenizer_cases.json"), "w") as f:
            json.dump(tokenizer_cases(tok_path), f, indent=1, ensure_ascii=False)
        tokenizer_variants(tok_path, os.path.join(OUT, "tokenizers"))
        if args.tokenizers:
            return
        from pytorch_tokenizers import CppHFTokenizer

        cpp = CppHFTokenizer()
        cpp.load(tok_path)
        prompt_ids = list(cpp.encode(PROMPT, 0, 0))
        assert len(prompt_ids) >= STEP_TOKENS_PREFILL, prompt_ids

        only = [s for s in args.only.split(",") if s]
        for name, spec in MODELS.items():
            if only and name not in only:
                continue
            spec = copy.deepcopy(spec)
            if spec.get("like"):
                spec["params"] = copy.deepcopy(MODELS[spec["like"]]["params"])
            outdir = os.path.join(OUT, name)
            t0 = time.time()
            pte = export(name, spec, outdir, tmp)
            prog = run_steps(pte, outdir, prompt_ids, spec)
            with open(os.path.join(outdir, "methods.json"), "w") as f:
                json.dump(constant_methods(prog), f, indent=1)
            toks, gap = greedy_loop(pte, prompt_ids, GEN_TOKENS, spec)
            printed, stats = runner_generate(pte, tok_path, GEN_TOKENS)
            # The runner's text is the greedy loop's tokens, decoded and printed its way.
            want = b"".join(safe_printf(p) for p in piece_bytes(tok_path, toks)) + b"\n"
            if toks[-1] in EOS_IDS and len(toks) > 1:
                want += b"\n"  # text_token_generator.h prints a newline on EOS
            assert printed == want, (printed, want)
            assert stats["num_generated_tokens"] == len(toks) - 1, stats
            with open(os.path.join(outdir, "generate.json"), "w") as f:
                json.dump({"prompt": PROMPT, "prompt_ids": prompt_ids, "max_new_tokens": GEN_TOKENS,
                           "greedy_tokens": toks, "min_top2_gap": gap,
                           "runner_stdout_hex": printed.hex(), "piece_hex": [p.hex() for p in piece_bytes(tok_path, toks)], "runner_stats": stats},
                          f, indent=1, ensure_ascii=False)
            print(f"{name}: {os.path.getsize(pte)} bytes, {time.time() - t0:.1f}s, gap {gap:.4f}")


if __name__ == "__main__":
    sys.exit(main())
