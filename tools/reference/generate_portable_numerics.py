"""Writes kernels/portable/testdata/numerics.json.gz: a differential sweep of etgo's portable
float unary operators and float reductions against the official runtime's own kernels.

Each case is a one-instruction program (built with ExecuTorch's schema dataclasses by
generate_quantized_kernel_fixtures.py's build, run by its run_official in a forked child) whose
input is a constant: float32 values that cover ±0, denormals,
±Inf, NaN, huge and near-1 values and random ones, plus float16/bfloat16 copies. The official
runtime runs it (portable kernels; exp.out, sum.IntList_out and _log_softmax.out are served by
the optimized library in the official runtime and are left to kernels/optimized); the outputs'
bytes are recorded. kernels/portable/numerics_test.go replays every case bit for bit.

With --half, it writes kernels/portable/testdata/numerics_half.json.gz instead: the float16 and
bfloat16 matrix products, convolutions, normalizations, poolings, resamplings, distances and
elementwise arithmetic (half_cases), on shapes whose reductions are long enough (hundreds of
terms) that per-step rounding to half against float accumulation, and the order of the terms,
show in the result; each op also once with NaN and infinities among its inputs. Every output of
a multi-output op (layer/group/batch norm's mean and rstd) is recorded. The official runtime
serves mm, bmm, linear, native_layer_norm, sum, _log_softmax, add, sub, mul and div from its
optimized library; kernels/optimized's numerics test replays those cases through etgo's
optimized registry, kernels/portable's the rest.

    ~/.venvs/et/bin/python tools/reference/generate_portable_numerics.py [--half]
"""
import base64
import gzip
import json
import math
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import generate_quantized_kernel_fixtures as Q  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "kernels" / "portable" / "testdata" / "numerics.json.gz"

UNARY = ["acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "erf", "expm1", "log",
         "log10", "log1p", "log2", "reciprocal", "rsqrt", "sigmoid", "sin", "sinh", "sqrt", "tan", "tanh"]
# (plus logit below; exp, gelu, elu, sum and _log_softmax are the optimized library's in the
# official runtime, and silu, hardsigmoid, hardswish and cumprod are not in its kernel set)


IL = Q.IL


def build(op, args, outs):
    return Q.build(op, args, [Q.Out(d, s) for d, s in outs])


def edge_values():
    tiny = torch.tensor([1e-45, 1.4e-40, 1.1754942e-38, 1.17549435e-38], dtype=torch.float32)
    v = [0.0, -0.0, math.inf, -math.inf, math.nan, 1.0, -1.0, 0.5, -0.5, 2.0, 3.4028235e38, -3.4028235e38,
         1e30, -1e30, 1e10, 88.7, 89.0, -87.3, -104.0, 20.0, -20.0, 15.9, 1e-7, -1e-7, 1e-20,
         0.9999999, 1.0000001, 0.99999994, 1.0000002, -0.9999999, 3.1415927, 1.5707964, 100.5, 7e5]
    t = torch.cat([torch.tensor(v, dtype=torch.float32), tiny, -tiny])
    gen = torch.Generator().manual_seed(7)
    r = torch.cat([torch.randn(96, generator=gen) * 3, torch.rand(64, generator=gen) * 2 - 1,
                   torch.exp(torch.randn(64, generator=gen) * 8)])
    return torch.cat([t, r.to(torch.float32)])


def cases():
    x = edge_values()
    for op in UNARY:
        for dt in (torch.float32, torch.float16, torch.bfloat16):
            xi = x.to(dt)
            yield f"{op}/{dt}", f"aten::{op}.out", [xi], [(dt, list(xi.shape))]
    for op, extra in (("logit", [None]), ("logit_eps", [1e-6]), ("logit_eps_big", [0.25])):
        for dt in (torch.float32, torch.float16, torch.bfloat16):
            xi = x.to(dt)
            yield f"{op}/{dt}", "aten::logit.out", [xi] + extra, [(dt, list(xi.shape))]
            yield f"{op}/{dt}->float64", "aten::logit.out", [xi] + extra, [(torch.float64, list(xi.shape))]
    gen = torch.Generator().manual_seed(11)
    base = (torch.randn(4, 6, 37, generator=gen) * 10).to(torch.float32)
    big = (torch.rand(3, 1000, generator=gen) * 1000).to(torch.float32)
    edge = x[: 8 * 9].reshape(8, 9)  # the edge values (Inf, NaN, ±0, denormals) in reductions
    for tname, t in (("base", base), ("big", big), ("edge", edge)):
        nd = t.dim()
        for dt in (torch.float32, torch.float16, torch.bfloat16):
            ti = t.to(dt)
            for dims in ([nd - 1], [0], list(range(nd)), []):
                kept = [1 if (d in dims or not dims) else s for d, s in enumerate(ti.shape)]
                red = [s for d, s in enumerate(ti.shape) if not (d in dims or not dims)]
                tag = f"{tname}/{dt}/dims{dims}"
                yield f"mean/{tag}", "aten::mean.out", [ti, IL(dims), False, None], [(dt, red)]
                yield f"mean_keep/{tag}", "aten::mean.out", [ti, IL(dims), True, None], [(dt, kept)]
                yield f"var/{tag}", "aten::var.correction_out", [ti, IL(dims), 1, False], [(dt, red)]
                yield f"var0/{tag}", "aten::var.correction_out", [ti, IL(dims), 0, True], [(dt, kept)]
                if len(dims) == 1:
                    d = dims[0]
                    yield f"prod/{tag}", "aten::prod.int_out", [ti, d, False, None], [(dt, red)]
                    yield f"amax/{tag}", "aten::amax.out", [ti, IL(dims), False], [(dt, red)]
                    yield f"amin/{tag}", "aten::amin.out", [ti, IL(dims), False], [(dt, red)]
                    yield f"cumsum/{tag}", "aten::cumsum.out", [ti, d, None], [(dt, list(ti.shape))]
                    yield f"softmax/{tag}", "aten::_softmax.out", [ti, d, False], [(dt, list(ti.shape))]
            yield f"mean_all/{tname}/{dt}", "aten::mean.dtype_out", [ti, None], [(dt, [])]
            yield f"prod_all/{tname}/{dt}", "aten::prod.out", [ti, None], [(dt, [])]


def half_cases():
    """The float16/bfloat16 linear-algebra and accumulation sweep (--half)."""
    gen = torch.Generator().manual_seed(23)

    def rn(*shape, scale=1.0):
        return torch.randn(*shape, generator=gen) * scale

    def spoil(t):
        # NaN, +Inf and -Inf at three places of a copy
        t = t.clone()
        f = t.view(-1)
        f[1], f[f.numel() // 2], f[-2] = math.nan, math.inf, -math.inf
        return t

    # float32 resampling: whether the official build contracts the interpolation into FMAs
    ux = rn(2, 3, 7, 9)
    for ac in (False, True):
        yield (f"upsample_bilinear2d/float32/ac{ac}", "aten::upsample_bilinear2d.vec_out", [ux, IL([17, 20]), ac, None],
               [(torch.float32, [2, 3, 17, 20])])
    for dt in (torch.float16, torch.bfloat16):
        d = str(dt).removeprefix("torch.")
        H = lambda t: t.to(dt)  # noqa: E731
        a, b = rn(5, 300), rn(300, 7)
        for tag, x in (("", a), ("/nonfinite", spoil(a))):
            yield f"mm/{d}/5x300x7{tag}", "aten::mm.out", [H(x), H(b)], [(dt, [5, 7])]
        yield f"mm/{d}/3x4x2", "aten::mm.out", [H(rn(3, 4)), H(rn(4, 2))], [(dt, [3, 2])]
        x, y = rn(3, 4, 150), rn(3, 150, 5)
        for tag, xx in (("", x), ("/nonfinite", spoil(x))):
            yield f"bmm/{d}/3x4x150x5{tag}", "aten::bmm.out", [H(xx), H(y)], [(dt, [3, 4, 5])]
        bias = rn(7)
        for beta, alpha in ((1, 1), (0.5, 2.0), (0, 1), (1, 0.25)):
            for tag, x in (("", a), ("/nonfinite", spoil(a))):
                yield (f"addmm/{d}/b{beta}a{alpha}{tag}", "aten::addmm.out", [H(bias), H(x), H(b), beta, alpha],
                       [(dt, [5, 7])])
        yield f"addmm/{d}/self2d", "aten::addmm.out", [H(rn(5, 7)), H(a), H(b), 1, 1], [(dt, [5, 7])]
        w, lb = rn(7, 300), rn(7)
        for tag, x in (("", a), ("/nonfinite", spoil(a))):
            yield f"linear/{d}/bias{tag}", "aten::linear.out", [H(x), H(w), H(lb)], [(dt, [5, 7])]
        yield f"linear/{d}/nobias", "aten::linear.out", [H(a), H(w), None], [(dt, [5, 7])]
        yield f"linear/{d}/3d", "aten::linear.out", [H(rn(2, 3, 300)), H(w), H(lb)], [(dt, [2, 3, 7])]

        conv = "aten::convolution.out"
        xi, wi, bi = rn(1, 16, 9, 9), rn(8, 16, 3, 3), rn(8)
        for tag, xx in (("", xi), ("/nonfinite", spoil(xi))):
            yield (f"conv2d/{d}/16to8k3p1{tag}", conv,
                   [H(xx), H(wi), H(bi), IL([1, 1]), IL([1, 1]), IL([1, 1]), False, IL([0, 0]), 1], [(dt, [1, 8, 9, 9])])
        yield (f"conv2d/{d}/nobias_s2d2", conv,
               [H(xi), H(wi), None, IL([2, 2]), IL([2, 1]), IL([2, 2]), False, IL([0, 0]), 1], [(dt, [1, 8, 5, 4])])
        yield (f"conv2d/{d}/groups4", conv,
               [H(xi), H(rn(8, 4, 3, 3)), H(bi), IL([1, 1]), IL([0, 0]), IL([1, 1]), False, IL([0, 0]), 4], [(dt, [1, 8, 7, 7])])
        yield (f"conv2d/{d}/depthwise", conv,
               [H(rn(2, 8, 7, 7)), H(rn(8, 1, 3, 3)), H(bi), IL([1, 1]), IL([1, 1]), IL([1, 1]), False, IL([0, 0]), 8],
               [(dt, [2, 8, 7, 7])])
        yield (f"conv1d/{d}/12to6k5", conv,
               [H(rn(2, 12, 30)), H(rn(6, 12, 5)), H(rn(6)), IL([1]), IL([2]), IL([1]), False, IL([0]), 1], [(dt, [2, 6, 30])])
        xt = rn(1, 6, 5, 5)
        for tag, xx in (("", xt), ("/nonfinite", spoil(xt))):
            yield (f"conv_transpose2d/{d}/s2{tag}", conv,
                   [H(xx), H(rn(6, 4, 3, 3)), H(rn(4)), IL([2, 2]), IL([1, 1]), IL([1, 1]), True, IL([1, 1]), 1],
                   [(dt, [1, 4, 10, 10])])
        yield (f"conv_transpose1d/{d}/g2", conv,
               [H(rn(2, 6, 9)), H(rn(6, 2, 4)), None, IL([3]), IL([0]), IL([1]), True, IL([0]), 2], [(dt, [2, 4, 28])])

        ln, lw, lbb = rn(4, 300, scale=3) + 1, rn(300), rn(300)
        for tag, xx in (("", ln), ("/nonfinite", spoil(ln))):
            yield (f"layer_norm/{d}/300{tag}", "aten::native_layer_norm.out", [H(xx), IL([300]), H(lw), H(lbb), 1e-5],
                   [(dt, [4, 300]), (dt, [4, 1]), (dt, [4, 1])])
        yield (f"layer_norm/{d}/2d_noaffine", "aten::native_layer_norm.out", [H(rn(3, 5, 40)), IL([5, 40]), None, None, 1e-5],
               [(dt, [3, 5, 40]), (dt, [3, 1, 1]), (dt, [3, 1, 1])])
        gx = rn(2, 8, 6, 6, scale=2) + 0.5
        for tag, xx in (("", gx), ("/nonfinite", spoil(gx))):
            yield (f"group_norm/{d}/g4{tag}", "aten::native_group_norm.out", [H(xx), H(rn(8)), H(rn(8)), 2, 8, 36, 4, 1e-5],
                   [(dt, [2, 8, 6, 6]), (dt, [2, 4]), (dt, [2, 4])])
        bx = rn(2, 8, 5, 5)
        for tag, xx in (("", bx), ("/nonfinite", spoil(bx))):
            yield (f"batch_norm/{d}{tag}", "aten::_native_batch_norm_legit_no_training.out",
                   [H(xx), H(rn(8)), H(rn(8)), H(rn(8) * 0.3), H(torch.rand(8, generator=gen) + 0.5), 0.1, 1e-5],
                   [(dt, [2, 8, 5, 5]), (dt, [0]), (dt, [0])])

        rm, rv = rn(8) * 0.3, torch.rand(8, generator=gen) + 0.5
        for training in (False, True):
            yield (f"batch_norm_legit/{d}/training{training}", "aten::_native_batch_norm_legit.out",
                   [H(bx), H(rn(8)), H(rn(8)), H(rm), H(rv), training, 0.1, 1e-5],
                   [(dt, [2, 8, 5, 5]), (dt, [8] if training else [0]), (dt, [8] if training else [0])])
        yield (f"batch_norm_legit_no_stats/{d}", "aten::_native_batch_norm_legit.no_stats_out",
               [H(bx), H(rn(8)), H(rn(8)), True, 0.1, 1e-5], [(dt, [2, 8, 5, 5]), (dt, [8]), (dt, [8])])
        yield (f"upsample_bilinear2d_aa/{d}", "aten::_upsample_bilinear2d_aa.out", [H(rn(1, 2, 12, 10)), IL([5, 4]), False, None, None],
               [(dt, [1, 2, 5, 4])])
        yield f"glu/{d}", "aten::glu.out", [H(rn(4, 38)), -1], [(dt, [4, 19])]
        px = rn(1, 4, 12, 12)
        for tag, xx in (("", px), ("/nonfinite", spoil(px))):
            yield (f"avg_pool2d/{d}/k3s2p1{tag}", "aten::avg_pool2d.out",
                   [H(xx), IL([3, 3]), IL([2, 2]), IL([1, 1]), False, True, None], [(dt, [1, 4, 6, 6])])
        yield (f"avg_pool2d/{d}/k5_exclude_pad_ceil", "aten::avg_pool2d.out",
               [H(px), IL([5, 5]), IL([3, 3]), IL([2, 2]), True, False, None], [(dt, [1, 4, 5, 5])])
        yield (f"avg_pool2d/{d}/k4_divisor3", "aten::avg_pool2d.out",
               [H(px), IL([4, 4]), IL([4, 4]), IL([0, 0]), False, True, 3], [(dt, [1, 4, 3, 3])])
        yield (f"adaptive_avg_pool2d/{d}/to1", "aten::_adaptive_avg_pool2d.out", [H(rn(2, 3, 17, 19)), IL([1, 1])],
               [(dt, [2, 3, 1, 1])])
        yield (f"adaptive_avg_pool2d/{d}/to3x4", "aten::_adaptive_avg_pool2d.out", [H(rn(1, 3, 10, 9)), IL([3, 4])],
               [(dt, [1, 3, 3, 4])])
        ux = rn(2, 3, 7, 9)
        for ac in (False, True):
            yield (f"upsample_bilinear2d/{d}/ac{ac}", "aten::upsample_bilinear2d.vec_out", [H(ux), IL([17, 20]), ac, None],
                   [(dt, [2, 3, 17, 20])])
        yield (f"upsample_nearest2d/{d}", "aten::upsample_nearest2d.vec_out", [H(ux), IL([17, 20]), None],
               [(dt, [2, 3, 17, 20])])

        sx = rn(3, 1000, scale=4)
        for tag, xx in (("", sx), ("/nonfinite", spoil(sx))):
            yield f"sum/{d}/dim1{tag}", "aten::sum.IntList_out", [H(xx), IL([1]), False, None], [(dt, [3])]
        yield f"sum/{d}/dim0", "aten::sum.IntList_out", [H(sx), IL([0]), False, None], [(dt, [1000])]
        yield f"sum/{d}/all", "aten::sum.IntList_out", [H(sx), None, False, None], [(dt, [])]
        yield f"sum/{d}/to_float", "aten::sum.IntList_out", [H(sx), IL([1]), True, DTy(torch.float32)], [(torch.float32, [3, 1])]
        lx = rn(4, 300, scale=3)
        yield f"log_softmax/{d}/last", "aten::_log_softmax.out", [H(lx), 1, False], [(dt, [4, 300])]
        yield f"log_softmax/{d}/dim0", "aten::_log_softmax.out", [H(lx), 0, False], [(dt, [4, 300])]
        yield f"cdist/{d}/p2", "aten::_cdist_forward.out", [H(rn(2, 5, 64)), H(rn(2, 6, 64)), 2.0, None], [(dt, [2, 5, 6])]
        yield f"cdist/{d}/p1", "aten::_cdist_forward.out", [H(rn(5, 64)), H(rn(6, 64)), 1.0, None], [(dt, [5, 6])]
        yield f"pdist/{d}/p2", "aten::_pdist_forward.out", [H(rn(6, 64)), 2.0], [(dt, [15])]
        ea, eb = rn(4, 37, scale=5), rn(4, 37)
        yield f"add/{d}/alpha", "aten::add.out", [H(ea), H(eb), 0.3], [(dt, [4, 37])]
        yield f"add/{d}/bcast", "aten::add.out", [H(ea), H(rn(37)), 1], [(dt, [4, 37])]
        yield f"sub/{d}/alpha", "aten::sub.out", [H(ea), H(eb), 1.7], [(dt, [4, 37])]
        yield f"mul/{d}", "aten::mul.out", [H(ea), H(eb)], [(dt, [4, 37])]
        yield f"div/{d}", "aten::div.out", [H(ea), H(eb)], [(dt, [4, 37])]
        yield f"add_scalar/{d}", "aten::add.Scalar_out", [H(ea), 0.1, 3], [(dt, [4, 37])]
        yield f"mul_scalar/{d}", "aten::mul.Scalar_out", [H(ea), 0.1], [(dt, [4, 37])]
        yield f"mean/{d}/dim1", "aten::mean.out", [H(sx), IL([1]), False, None], [(dt, [3])]


def DTy(dt):
    return Q.DT(dt)


def enc(a):
    if isinstance(a, torch.Tensor):
        return {"tensor": str(a.dtype).removeprefix("torch."), "sizes": list(a.shape),
                "data": base64.b64encode(Q.tensor_bytes(a)).decode()}
    if isinstance(a, IL):
        return {"ints": a.v}
    if isinstance(a, Q.DT):
        return {"int": int(Q.scalar_type_enum(a.dtype))}
    if isinstance(a, bool):
        return {"bool": a}
    if isinstance(a, int):
        return {"int": a}
    if isinstance(a, float):
        return {"double": a}
    return {"none": True}


def main():
    half = "--half" in sys.argv[1:]
    dest = OUT.with_name("numerics_half.json.gz") if half else OUT
    out = []
    for name, op, args, outs in (half_cases() if half else cases()):
        kind, val = Q.run_official(build(op, args, outs), [None] * len(outs))
        rec = {"name": name, "op": op, "args": [enc(a) for a in args],
               "out": [{"dtype": str(d).removeprefix("torch."), "sizes": s} for d, s in outs]}
        if kind == "ok":
            rec["result"] = {"dtype": val[0][0], "sizes": val[0][1], "data": val[0][2]}
            if len(val) > 1:
                rec["results"] = [{"dtype": v[0], "sizes": v[1], "data": v[2]} for v in val]
        else:
            rec["error"] = val
            print(name, kind, val, file=sys.stderr)
        out.append(rec)
    dest.parent.mkdir(parents=True, exist_ok=True)
    with gzip.GzipFile(dest, "wb", mtime=0) as f:
        f.write(json.dumps(out, separators=(",", ":")).encode())
    print(f"{len(out)} cases -> {dest} ({dest.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
