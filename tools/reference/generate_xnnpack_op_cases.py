#!/usr/bin/env python3
"""Cases for etgo's XNNPACK node implementations, computed with torch in XNNPACK's layouts.

Each case is a node (type, parameters), NHWC/row-major inputs and filters as XNNPACK stores them
(conv filters OHWI, depthwise 1HWC), and torch's output in the same layout. Writes
backends/xnnpack/testdata/op_cases.json.   python tools/reference/generate_xnnpack_op_cases.py
"""

import json
from pathlib import Path

import torch
import torch.nn.functional as F

OUT = Path(__file__).resolve().parents[2] / "backends" / "xnnpack" / "testdata" / "op_cases.json"
g = torch.Generator().manual_seed(11)


def r(*shape):
    return torch.randn(*shape, generator=g)


def nhwc(t):
    return t.permute(0, 2, 3, 1).contiguous()


def flat(t):
    return {"dims": list(t.shape), "data": [float(x) for x in t.reshape(-1).tolist()]}


cases = []


def conv_case(name, N, C, H, W, OC, k, stride, pad, dil, groups, bias=True):
    x, w = r(N, C, H, W), r(OC, C // groups, k, k)
    b = r(OC) if bias else None
    y = F.conv2d(x, w, b, stride=stride, padding=pad, dilation=dil, groups=groups)
    depthwise = groups == C and groups > 1
    if depthwise:  # XNNPACK depthwise filter: [1, kh, kw, channels*multiplier]
        wx = w.permute(1, 2, 3, 0).contiguous()
    else:  # [oc, kh, kw, ic/groups]
        wx = w.permute(0, 2, 3, 1).contiguous()
    cases.append({"name": name, "op": "XNNDepthwiseConv2d" if depthwise else "XNNConv2d",
                  "conv": {"pad": [pad, pad, pad, pad], "kernel": [k, k], "stride": [stride, stride], "dilation": [dil, dil],
                           "groups": groups, "group_in": C // groups, "group_out": OC // groups},
                  "inputs": [flat(nhwc(x)), flat(wx)] + ([flat(b)] if bias else []), "output": flat(nhwc(y))})


conv_case("conv 3x3 pad 1", 1, 3, 6, 5, 4, 3, 1, 1, 1, 1)
conv_case("conv stride 2 no bias", 2, 4, 7, 7, 6, 3, 2, 0, 1, 1, bias=False)
conv_case("conv dilation 2", 1, 2, 8, 8, 3, 3, 1, 2, 2, 1)
conv_case("grouped conv", 1, 4, 5, 5, 6, 3, 1, 1, 1, 2)
conv_case("depthwise 3x3", 1, 6, 6, 6, 6, 3, 1, 1, 1, 6)
conv_case("depthwise multiplier 2 stride 2", 1, 3, 7, 7, 6, 3, 2, 1, 1, 3)

# Transposed convolution: XNNPACK filter [oc, kh, kw, ic/groups].
x, w, b = r(1, 4, 3, 3), r(4, 5, 3, 3), r(5)
y = F.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1)
cases.append({"name": "deconv stride 2", "op": "XNNConvTranspose2d",
              "conv": {"pad": [1, 1, 1, 1], "kernel": [3, 3], "stride": [2, 2], "dilation": [1, 1], "groups": 1,
                       "group_in": 4, "group_out": 5, "adjustment": [1, 1]},
              "inputs": [flat(nhwc(x)), flat(w.permute(1, 2, 3, 0).contiguous()), flat(b)], "output": flat(nhwc(y))})

x = r(2, 3, 6, 7)
cases.append({"name": "max pool 3x3 s2 p1", "op": "XNNMaxPooling2d", "pool": {"pad": [1, 1, 1, 1], "kernel": [3, 3], "stride": [2, 2]},
              "inputs": [flat(nhwc(x))], "output": flat(nhwc(F.max_pool2d(x, 3, 2, 1)))})
cases.append({"name": "avg pool 2x2", "op": "XNNAvgPooling2d", "pool": {"pad": [0, 0, 0, 0], "kernel": [2, 2], "stride": [2, 2]},
              "inputs": [flat(nhwc(x))], "output": flat(nhwc(F.avg_pool2d(x, 2)))})
cases.append({"name": "avg pool padding excluded", "op": "XNNAvgPooling2d", "pool": {"pad": [1, 1, 1, 1], "kernel": [3, 3], "stride": [1, 1]},
              "inputs": [flat(nhwc(x))], "output": flat(nhwc(F.avg_pool2d(x, 3, 1, 1, count_include_pad=False)))})
cases.append({"name": "global average", "op": "XNNGlobalAvgPooling2d", "flags": 64,
              "inputs": [flat(nhwc(x))], "output": flat(nhwc(x.mean(dim=(2, 3), keepdim=True)))})

a, w, b = r(3, 5), r(4, 5), r(4)
cases.append({"name": "fully connected", "op": "XNNFullyConnected", "inputs": [flat(a), flat(w), flat(b)], "output": flat(F.linear(a, w, b))})
cases.append({"name": "fully connected transposed weights, no bias", "op": "XNNFullyConnected", "flags": 1,
              "inputs": [flat(a), flat(w.t().contiguous())], "output": flat(F.linear(a, w))})
a3 = r(2, 3, 5)
cases.append({"name": "fully connected 3-d input", "op": "XNNFullyConnected", "inputs": [flat(a3), flat(w), flat(b)], "output": flat(F.linear(a3, w, b))})
p, q = r(2, 3, 4), r(2, 4, 5)
cases.append({"name": "batch matmul", "op": "XNNBatchMatrixMultiply", "inputs": [flat(p), flat(q)], "output": flat(torch.bmm(p, q))})
q1 = r(1, 4, 5)
cases.append({"name": "batch matmul broadcast", "op": "XNNBatchMatrixMultiply", "inputs": [flat(p), flat(q1)], "output": flat(torch.matmul(p, q1))})

s = r(3, 7) * 3
cases.append({"name": "softmax", "op": "XNNSoftmax", "inputs": [flat(s)], "output": flat(torch.softmax(s, -1))})
cases.append({"name": "gelu", "op": "XNNGelu", "inputs": [flat(s)], "output": flat(F.gelu(s))})
cases.append({"name": "hardswish", "op": "XNNHardswish", "inputs": [flat(s)], "output": flat(F.hardswish(s))})
cases.append({"name": "sigmoid", "op": "XNNSigmoid", "inputs": [flat(s)], "output": flat(torch.sigmoid(s))})
cases.append({"name": "elu", "op": "XNNELU", "alpha": 0.7, "inputs": [flat(s)], "output": flat(F.elu(s, 0.7))})
cases.append({"name": "leaky relu", "op": "XNNLeakyReLU", "alpha": 0.1, "inputs": [flat(s)], "output": flat(F.leaky_relu(s, 0.1))})
cases.append({"name": "clamp", "op": "XNNClamp", "min_max": [-0.5, 1.5], "inputs": [flat(s)], "output": flat(s.clamp(-0.5, 1.5))})

pos = torch.rand(3, 7, generator=g) * 4 + 0.1  # positive: sqrt, rsqrt, log
for op, fn, x in [("XNNAbs", torch.abs, s), ("XNNNegate", torch.neg, s), ("XNNSquare", torch.square, s),
                  ("XNNSquareRoot", torch.sqrt, pos), ("XNNReciprocalSquareRoot", torch.rsqrt, pos),
                  ("XNNFloor", torch.floor, s), ("XNNCeiling", torch.ceil, s), ("XNNExp", torch.exp, s),
                  ("XNNLog", torch.log, pos), ("XNNSin", torch.sin, s), ("XNNCos", torch.cos, s),
                  ("XNNTanh", torch.tanh, s), ("XNNCopy", lambda t: t.clone(), s), ("XNNConvert", lambda t: t.clone(), s)]:
    cases.append({"name": op[3:].lower(), "op": op, "inputs": [flat(x)], "output": flat(fn(x))})

u, v = r(2, 3, 4), r(3, 1)
cases.append({"name": "add broadcast", "op": "XNNAdd", "inputs": [flat(u), flat(v)], "output": flat(u + v)})
cases.append({"name": "multiply with relu range", "op": "XNNMultiply", "min_max": [0, 1e30], "inputs": [flat(u), flat(v)], "output": flat(torch.relu(u * v))})
cases.append({"name": "divide", "op": "XNNDiv", "inputs": [flat(u), flat(v)], "output": flat(u / v)})
cases.append({"name": "subtract", "op": "XNNSubtract", "inputs": [flat(u), flat(v)], "output": flat(u - v)})
cases.append({"name": "minimum", "op": "XNNMinimum", "inputs": [flat(u), flat(v)], "output": flat(torch.minimum(u, v))})
cases.append({"name": "maximum", "op": "XNNMaximum", "inputs": [flat(u), flat(v)], "output": flat(torch.maximum(u, v))})
img4 = r(1, 5, 5, 3)  # NHWC: the slope is per channel, the last dimension
slope = r(3) * 0.2
cases.append({"name": "prelu", "op": "XNNPReLU", "inputs": [flat(img4), flat(slope)], "output": flat(torch.where(img4 >= 0, img4, img4 * slope))})
w3 = r(2, 1, 4)
cases.append({"name": "concatenate 3", "op": "XNNConcatenate3", "axis": 1, "inputs": [flat(u), flat(w3), flat(u)],
              "output": flat(torch.cat([u, w3, u], 1))})
cases.append({"name": "transpose", "op": "XNNStaticTranspose", "perm": [2, 0, 1], "inputs": [flat(u)], "output": flat(u.permute(2, 0, 1))})
cases.append({"name": "reshape", "op": "XNNStaticReshape", "new_shape": [4, 6], "inputs": [flat(u)], "output": flat(u.reshape(4, 6))})
cases.append({"name": "slice", "op": "XNNStaticSlice", "offsets": [0, 1, 1], "sizes": [2, 2, 3], "inputs": [flat(u)], "output": flat(u[:, 1:3, 1:4])})
cases.append({"name": "constant pad", "op": "XNNStaticConstantPad", "pre": [0, 1, 2], "post": [1, 0, 1], "pad_value": 0.5,
              "inputs": [flat(u)], "output": flat(F.pad(u, (2, 1, 1, 0, 0, 1), value=0.5))})
w2 = r(2, 2, 4)
cases.append({"name": "concatenate", "op": "XNNConcatenate2", "axis": 1, "inputs": [flat(u), flat(w2)], "output": flat(torch.cat([u, w2], 1))})
img = r(1, 3, 4, 5)
for align in (False, True):
    y = F.interpolate(img, size=(7, 9), mode="bilinear", align_corners=align)
    cases.append({"name": f"resize bilinear align_corners={align}", "op": "XNNStaticResizeBilinear2D", "new_hw": [7, 9],
                  "flags": 8 if align else 0, "inputs": [flat(nhwc(img))], "output": flat(nhwc(y))})

OUT.parent.mkdir(parents=True, exist_ok=True)
OUT.write_text(json.dumps(cases) + "\n")
print(f"{len(cases)} cases -> {OUT}")
