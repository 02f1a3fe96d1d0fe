"""Writes kernels/quantized/testdata/pte/<name>/: small programs whose quantized operators stay
outside any delegate, so the runtime runs them with ExecuTorch's quantized kernel library —
program.pte, input_<i>.npy, and expected_<i>.npy from the official runtime (with
libexecutorch_kernels_quantized loaded, as a runtime linking the quantized library has them).

  qdq_cnn_per_channel  conv/linear model through XNNPACKQuantizer (per-channel int8 weights),
                       lowered with no partitioner: quantize_per_tensor / dequantize_per_tensor
                       / dequantize_per_channel between portable fp32 kernels
  qdq_cnn_per_tensor   the same with per-tensor weights
  dynamic_linear       XNNPACKQuantizer's dynamic config: choose_qparams.Tensor_out and the
                       .Tensor_out quantize / dequantize before fp32 addmm
  dynamic_qdq          the same quantized operators on the same input without the addmm, so
                       their outputs are compared bit for bit
  embeddings           embedding_4bit.dtype_out / embedding_byte.dtype_out / embedding_2bit,
                       as the LLM export's embedding quantizer emits them, then per-token
                       choose_qparams / quantize / dequantize

The Go test (kernels/quantized/pte_test.go) runs each with etgo's portable, optimized and
quantized kernels and requires the official outputs bit for bit (dynamic_linear within 1e-6:
its fp32 addmm sums in another order than the official BLAS one).

    ~/.venvs/et/bin/python tools/reference/generate_quantized_pte_fixtures.py
"""
import ctypes
import pathlib
import shutil

import numpy as np
import torch
from torch import nn

from executorch.extension.pybindings import _C

ctypes.CDLL(str(pathlib.Path(_C.__file__).parent / ".." / ".." / "lib" / "libexecutorch_kernels_quantized.so"),
            mode=ctypes.RTLD_GLOBAL)
import executorch.exir.passes._quant_patterns_and_replacements  # noqa: E402,F401  registers embedding_*bit
import executorch.kernels.quantized  # noqa: E402,F401  the .out variants to_executorch needs
from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import (  # noqa: E402
    XNNPACKQuantizer, get_symmetric_quantization_config)
from executorch.exir import to_edge_transform_and_lower  # noqa: E402
from executorch.runtime import Runtime  # noqa: E402
from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "kernels" / "quantized" / "testdata" / "pte"


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 8, 3, stride=2)
        self.fc = nn.Linear(8 * 3 * 3, 10)

    def forward(self, x):
        y = torch.relu(self.conv(x))
        y = self.conv2(y) + 0.5
        return self.fc(y.flatten(1))


class Dyn(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 12)
        self.fc2 = nn.Linear(12, 5)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


class DynQDQ(nn.Module):
    """The dynamic-quantization pattern without the matmul: choose_qparams, then quantize and
    dequantize with the chosen parameters, and a per-channel dequantized constant weight."""

    def __init__(self):
        super().__init__()
        g = torch.Generator().manual_seed(6)
        self.register_buffer("w", torch.randint(-127, 128, (5, 16), generator=g, dtype=torch.int32).to(torch.int8))
        self.register_buffer("ws", (torch.rand(5, generator=g) * 0.02).double())
        self.register_buffer("wz", torch.zeros(5, dtype=torch.long))

    def forward(self, x):
        qd = torch.ops.quantized_decomposed
        s, z = qd.choose_qparams.tensor(x, -128, 127, 1e-5, torch.int8)
        q = qd.quantize_per_tensor.tensor(x, s, z, -128, 127, torch.int8)
        xd = qd.dequantize_per_tensor.tensor(q, s, z, -128, 127, torch.int8)
        wd = qd.dequantize_per_channel(self.w, self.ws, self.wz, 0, -127, 127, torch.int8)
        return xd, wd, q


class Emb(nn.Module):
    def __init__(self):
        super().__init__()
        g = torch.Generator().manual_seed(5)
        self.register_buffer("w4", torch.randint(0, 256, (11, 8), generator=g, dtype=torch.int32).to(torch.uint8))
        self.register_buffer("s4", (torch.rand(11, 4, generator=g) * 0.1 + 0.01).half())
        self.register_buffer("w8", torch.randint(-128, 128, (11, 16), generator=g, dtype=torch.int32).to(torch.int8))
        self.register_buffer("s8", torch.rand(11, generator=g) * 0.05)
        self.register_buffer("z8", torch.randint(-3, 4, (11,), generator=g).float())
        self.register_buffer("w2", torch.randint(0, 256, (11, 4), generator=g, dtype=torch.int32).to(torch.uint8))
        self.register_buffer("s2", torch.rand(11, 2, generator=g) * 0.2)

    def forward(self, idx):
        qd = torch.ops.quantized_decomposed
        a = qd.embedding_4bit.dtype(self.w4, self.s4, None, -8, 7, idx, dtype=torch.float32)
        b = qd.embedding_byte.dtype(self.w8, self.s8, self.z8, -128, 127, idx, dtype=torch.float32)
        c = qd.embedding_2bit.dtype(self.w2, self.s2, None, -2, 1, idx, dtype=torch.float32)
        y = a * b + c
        s, z = qd.choose_qparams_per_token_asymmetric(y, torch.int8)
        q = qd.quantize_per_token(y, s, z, -128, 127, torch.int8)
        return qd.dequantize_per_token(q, s, z, -128, 127, torch.int8, torch.float32), y.half()


def quantized(model, x, config):
    ep = torch.export.export(model, (x,))
    pm = prepare_pt2e(ep.module(), XNNPACKQuantizer().set_global(config))
    pm(x)
    return torch.export.export(convert_pt2e(pm), (x,))


def write(name, ep, inputs):
    lowered = to_edge_transform_and_lower(ep)  # no partitioner: every operator stays in the graph
    et = lowered.to_executorch()
    targets = sorted({str(n.target) for n in lowered.exported_program().graph.nodes if n.op == "call_function"})
    d = OUT / name
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    (d / "program.pte").write_bytes(et.buffer)
    for i, x in enumerate(inputs):
        np.save(d / f"input_{i}.npy", x.numpy(), allow_pickle=False)
    outs = Runtime.get().load_program(et.buffer).load_method("forward").execute(list(inputs))
    for i, o in enumerate(outs):
        a = o.numpy() if o.dtype != torch.bfloat16 else o.view(torch.int16).numpy()
        np.save(d / f"expected_{i}.npy", np.ascontiguousarray(a), allow_pickle=False)
    q = [t for t in targets if "quantized_decomposed" in t]
    print(f"{name}: {len(et.buffer)} bytes, quantized ops {q}")


def main():
    torch.manual_seed(0)
    x = torch.randn(2, 3, 8, 8, generator=torch.Generator().manual_seed(1))
    write("qdq_cnn_per_channel", quantized(CNN().eval(), x, get_symmetric_quantization_config(is_per_channel=True)), [x])
    torch.manual_seed(0)
    write("qdq_cnn_per_tensor", quantized(CNN().eval(), x, get_symmetric_quantization_config(is_per_channel=False)), [x])
    torch.manual_seed(0)
    xd = torch.randn(3, 16, generator=torch.Generator().manual_seed(2)) * 2
    write("dynamic_linear", quantized(Dyn().eval(), xd,
                                      get_symmetric_quantization_config(is_per_channel=True, is_dynamic=True)), [xd])
    write("dynamic_qdq", torch.export.export(DynQDQ(), (xd,)), [xd])
    idx = torch.tensor([[0, 10, 3], [7, 7, 1]])
    write("embeddings", torch.export.export(Emb(), (idx,)), [idx])


if __name__ == "__main__":
    main()
