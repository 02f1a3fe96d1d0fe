#!/usr/bin/env python3
"""Expected values of the 3-D (video) portable kernel tests, from eager PyTorch.

etgo's portable kernels run aten::convolution.out on 5-D inputs, aten::max_pool3d_with_indices.out
and aten::avg_pool3d.out, which the official runtime does not (its convolution takes 3-D/4-D
inputs only, the two pools have no portable kernel): there is no official output to hold them
to, so their table-driven tests hold them to eager PyTorch. This prints the Go table rows of
kernels/portable/op_convolution_test.go ("3d ..." cases), op_max_pool3d_with_indices_test.go
and op_avg_pool3d_test.go, computed by torch on the tests' inputs:

  convolution  input linalgSeq(n, 7, 11, 5, 0.5), weight linalgSeq(n, 5, 7, 3, 0.25), bias
               linalgSeq(oc, 3, 5, 2, 1): multiples of 1/8, exact in every floating dtype
  pools        input poolSeq3d(n) (below), values printed with float32's 9 significant digits

  ~/.venvs/et/bin/python tools/reference/print_3d_kernel_cases.py [conv|maxpool|avgpool]
"""

from __future__ import annotations

import math
import sys

import torch
import torch.nn.functional as F


def linalg_seq(n, mul, m, off, scale):
    return [float(((i * mul) % m) - off) * scale for i in range(n)]


def numel(s):
    return math.prod(s)


def golist(v):
    return "[]int64{" + ", ".join(str(x) for x in v) + "}"


def goints(v):
    return "[]int{" + ", ".join(str(x) for x in v) + "}"


def gofloat(x, digits=9):
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == int(x) and abs(x) < 1e15:
        return str(int(x))
    return repr(float(f"{x:.{digits}g}")) if digits < 17 else repr(x)


def gofloats(v, digits=9):
    return "[]float64{" + ", ".join(gofloat(x, digits) for x in v) + "}"


# name, input, weight, bias, stride, padding, dilation, transposed, output_padding, groups
CONV = [
    ("3d pad 1 bias", [1, 2, 3, 4, 4], [2, 2, 3, 3, 3], True, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1),
    ("3d stride dilation uneven", [1, 2, 5, 6, 7], [2, 2, 2, 2, 2], False, [2, 1, 2], [1, 0, 1], [2, 2, 1], False, [0, 0, 0], 1),
    ("3d groups 2 batch 2", [2, 4, 3, 3, 3], [4, 2, 2, 2, 2], True, [1, 1, 1], [0, 0, 0], [1, 1, 1], False, [0, 0, 0], 2),
    ("3d depthwise multiplier 2", [1, 3, 4, 4, 4], [6, 1, 3, 3, 3], True, [2, 2, 2], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 3),
    ("3d depthwise dilated", [1, 2, 5, 5, 5], [2, 1, 3, 3, 3], False, [1, 1, 1], [2, 2, 2], [2, 2, 2], False, [0, 0, 0], 2),
    ("3d pointwise", [1, 3, 2, 2, 3], [2, 3, 1, 1, 1], True, [1, 1, 1], [0, 0, 0], [1, 1, 1], False, [0, 0, 0], 1),
    ("3d spatial 1x3x3", [1, 2, 4, 5, 5], [3, 2, 1, 3, 3], True, [1, 2, 2], [0, 1, 1], [1, 1, 1], False, [0, 0, 0], 1),
    ("3d temporal 3x1x1", [1, 3, 4, 2, 3], [2, 3, 3, 1, 1], False, [1, 1, 1], [1, 0, 0], [1, 1, 1], False, [0, 0, 0], 1),
    ("3d single-value lists", [1, 1, 4, 4, 4], [1, 1, 2, 2, 2], False, [2], [1], [1], False, [0], 1),
    ("transposed 3d", [1, 2, 2, 3, 3], [2, 3, 3, 3, 3], True, [2, 2, 2], [1, 1, 1], [1, 1, 1], True, [1, 1, 1], 1),
    ("transposed 3d groups dilation", [1, 4, 2, 2, 2], [4, 1, 2, 2, 2], False, [1, 1, 1], [0, 0, 0], [2, 2, 2], True, [0, 0, 0], 2),
    ("transposed 3d depthwise uneven", [1, 2, 2, 2, 3], [2, 1, 2, 3, 2], True, [2, 1, 2], [0, 1, 0], [1, 1, 1], True, [1, 0, 1], 2),
]


def representable(v):
    """Every value exact in float16 and bfloat16 (the test runs all four floating dtypes)."""
    t = torch.tensor(v, dtype=torch.float64)
    return all(torch.equal(t.to(d).to(torch.float64), t) for d in (torch.float16, torch.bfloat16))


def conv():
    for name, si, sw, bias, s, p, d, tr, op, g in CONV:
        x = torch.tensor(linalg_seq(numel(si), 7, 11, 5, 0.5), dtype=torch.float64).reshape(si)
        w = torch.tensor(linalg_seq(numel(sw), 5, 7, 3, 0.25), dtype=torch.float64).reshape(sw)
        oc = g * sw[1] if tr else sw[0]
        b = torch.tensor(linalg_seq(oc, 3, 5, 2, 1), dtype=torch.float64) if bias else None
        y = torch.ops.aten.convolution(x, w, b, s, p, d, tr, op, g)
        v = y.flatten().tolist()
        assert representable(v), name
        print(f'\t{{"{name}", {goints(si)}, {goints(sw)}, {str(bias).lower()}, {golist(s)}, {golist(p)}, {golist(d)}, '
              f'{str(tr).lower()}, {golist(op)}, {g}, {goints(list(y.shape))}, {gofloats(v)}}},')


def pool_seq3d(n):
    """The pools' input: distinct-ish values in [-4, 4), not multiples of a power of two."""
    return [((i * 37) % 29 - 14) * 0.29 for i in range(n)]


# name, shape, kernel, stride, padding, dilation, ceil_mode, specials {index: value}
MAXPOOL = [
    ("cube kernel, default stride", [1, 1, 4, 4, 4], [2], [], [0], [1], False, {}),
    ("padding = kernel/2, stride 1", [1, 2, 3, 3, 4], [3, 3, 3], [1, 1, 1], [1, 1, 1], [1], False, {}),
    ("uneven kernel, stride, padding", [1, 5, 6, 7], [2, 3, 2], [1, 2, 2], [1, 1, 0], [1, 1, 1], False, {}),
    ("dilation 2", [2, 1, 5, 5, 5], [2, 2, 2], [1, 2, 1], [1, 0, 1], [2, 2, 2], False, {}),
    ("ceil mode, last window starts in the padding", [1, 1, 5, 5, 4], [2, 2, 2], [2, 2, 2], [1, 1, 1], [1], True, {}),
    ("ceil mode without padding", [1, 1, 3, 5, 4], [2, 3, 2], [2, 2, 3], [0, 0, 0], [1], True, {}),
    ("a NaN wins, the last NaN's index", [1, 1, 2, 3, 3], [2, 2, 2], [1, 1, 1], [0], [1], False, {0: "nan", 5: "nan", 10: "nan", 13: 100.0}),
    ("NaN with padding and ceil", [1, 1, 3, 3, 3], [2, 2, 2], [2, 2, 2], [1, 1, 1], [1], True, {13: "nan", 26: "nan"}),
    ("Inf and -Inf", [1, 1, 2, 2, 3], [2, 1, 2], [1, 1, 1], [0], [1], False, {1: "inf", 6: "-inf", 7: "-inf", 9: "-inf", 10: "-inf"}),
    ("all -Inf, padded", [1, 1, 1, 2, 2], [1, 2, 2], [1, 1, 1], [0, 1, 1], [1], False, {0: "-inf", 1: "-inf", 2: "-inf", 3: "-inf"}),
]


def special(v):
    return {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}.get(v, v) if isinstance(v, str) else v


def pool_input(shape, specials):
    v = pool_seq3d(numel(shape))
    for i, x in specials.items():
        v[i] = special(x)
    return torch.tensor(v, dtype=torch.float32).reshape(shape)


def gospecials(specials):
    if not specials:
        return "nil"
    return "map[int]float64{" + ", ".join(f"{i}: {gofloat(special(x))}" for i, x in specials.items()) + "}"


def maxpool():
    for name, shape, k, s, p, d, ceil, sp in MAXPOOL:
        x = pool_input(shape, sp)
        y, idx = torch.ops.aten.max_pool3d_with_indices(x, k, s, p, d, ceil)
        print(f'\t\t{{"{name}", {goints(shape)}, {gospecials(sp)}, {golist(k)}, {golist(s)}, {golist(p)}, {golist(d)}, {str(ceil).lower()},\n'
              f'\t\t\t{goints(list(y.shape))}, {gofloats(y.flatten().tolist())},\n\t\t\t{golist(idx.flatten().tolist())}}},')
    # Other dtypes on the second case's input (integers: the input times 10, rounded; uint8 plus 50).
    name, shape, k, s, p, d, ceil, _ = MAXPOOL[1]
    for dt in (torch.float64, torch.float16, torch.bfloat16, torch.int32, torch.uint8):
        y, idx = torch.ops.aten.max_pool3d_with_indices(dtype_input(shape, dt), k, s, p, d, ceil)
        print(f"\t\t{{runtime.{GO_DTYPE[dt]}, {gofloats(y.double().flatten().tolist(), 17)},\n\t\t\t{golist(idx.flatten().tolist())}}},")


GO_DTYPE = {torch.float64: "Float64", torch.float16: "Float16", torch.bfloat16: "BFloat16", torch.int32: "Int32",
            torch.uint8: "Uint8", torch.int64: "Int64"}


def dtype_input(shape, dt):
    x = pool_input(shape, {})
    if not dt.is_floating_point:
        x = (x * 10).round()
        if dt == torch.uint8:
            x = x + 50
    return x.to(dt)


# name, shape, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override
AVGPOOL = [
    ("cube kernel, default stride", [1, 1, 4, 4, 4], [2], [], [0], False, True, None),
    ("padding = kernel/2 counted", [1, 2, 3, 3, 4], [3, 3, 3], [1, 1, 1], [1, 1, 1], False, True, None),
    ("padding = kernel/2 not counted", [1, 2, 3, 3, 4], [3, 3, 3], [1, 1, 1], [1, 1, 1], False, False, None),
    ("uneven kernel, stride, padding", [1, 5, 6, 7], [2, 3, 2], [1, 2, 2], [1, 1, 0], False, True, None),
    ("ceil mode, last window starts in the padding", [1, 1, 5, 5, 4], [2, 2, 2], [2, 2, 2], [1, 1, 1], True, True, None),
    ("ceil mode, padding not counted", [1, 1, 5, 5, 4], [2, 2, 2], [2, 2, 2], [1, 1, 1], True, False, None),
    ("ceil mode without padding", [1, 1, 3, 5, 4], [2, 3, 2], [2, 2, 3], [0, 0, 0], True, True, None),
    ("divisor override", [2, 1, 3, 3, 3], [2, 2, 2], [1, 1, 1], [1, 0, 1], False, True, 3),
    ("s3d's 3x3x3 stride 1 pad 1", [1, 3, 3, 4, 4], [3, 3, 3], [1, 1, 1], [1, 1, 1], False, True, None),
]


def avgpool():
    for name, shape, k, s, p, ceil, cip, div in AVGPOOL:
        x = pool_input(shape, {})
        y = torch.ops.aten.avg_pool3d(x, k, s, p, ceil, cip, div)
        dv = "none" if div is None else str(div)
        print(f'\t\t{{"{name}", {goints(shape)}, {golist(k)}, {golist(s)}, {golist(p)}, {str(ceil).lower()}, {str(cip).lower()}, {dv},\n'
              f'\t\t\t{goints(list(y.shape))}, {gofloats(y.flatten().tolist())}}},')
    # Other dtypes on the second case's input (Int64: the input times 10, rounded). PyTorch's
    # CPU kernel refuses Float16 and BFloat16.
    name, shape, k, s, p, ceil, cip, div = AVGPOOL[1]
    for dt in (torch.float64, torch.int64):
        y = torch.ops.aten.avg_pool3d(dtype_input(shape, dt), k, s, p, ceil, cip, div)
        print(f"\t\t{{runtime.{GO_DTYPE[dt]}, {gofloats(y.double().flatten().tolist(), 17)}}},")


if __name__ == "__main__":
    which = sys.argv[1:] or ["conv", "maxpool", "avgpool"]
    for w in which:
        print(f"// {w}")
        {"conv": conv, "maxpool": maxpool, "avgpool": avgpool}[w]()
