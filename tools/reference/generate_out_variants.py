"""Writes emit/outvariant_gen.go: for every Edge operator (core ATen, the _copy form of each core
view, ExecuTorch's dim-order ops), the out variant `to_executorch` would call, as the kernel name
a .pte's operator table carries ("aten::add.out"). Uses ExecuTorch's own to_out_variant; where
it cannot decide (pow's overloads clash with the int ones), the packet's "<overload>_out" or
"out" overload is used.

For every out variant it also writes the full schema the emitter needs, because a node read from
a .pt2 omits the arguments left at their default: each argument's name, type as the schema spells
it ("Tensor?", "int[2]", "ScalarType?", "Tensor(a!)[]" becomes "Tensor[]"), whether it is
keyword-only or an out argument, its default (dtype, layout and memory-format defaults as the
Int ExecuTorch emits for them), and the number of returns.

Run from anywhere with the reference virtual environment:
    ~/.venvs/et/bin/python tools/reference/generate_out_variants.py
(`ET_PYTHON=~/.venvs/et/bin/python go generate ./emit` runs it the same way.)
"""
import pathlib
import sys

import torch
import executorch.exir.dialects  # noqa: F401  (registers the dim_order_ops namespace)
from executorch.exir.operator.convert import to_out_variant
from torchgen.model import FunctionSchema

VIEWS = {"view", "expand", "permute", "slice", "select", "unsqueeze", "squeeze", "transpose", "t",
         "alias", "split", "split_with_sizes", "unbind", "diagonal", "as_strided", "unfold", "detach"}


def edge_ops():
    for name in dir(torch.ops.aten):
        try:
            packet = getattr(torch.ops.aten, name)
            overloads = packet.overloads()
        except Exception:
            continue
        for ov in overloads:
            if torch.Tag.core not in getattr(packet, ov).tags:
                continue
            if name in VIEWS:
                copy = getattr(torch.ops.aten, name + "_copy", None)
                if copy is not None and ov in copy.overloads():
                    yield f"aten.{name}_copy.{ov}", getattr(copy, ov)
            else:
                yield f"aten.{name}.{ov}", getattr(packet, ov)
    for name in ("_to_dim_order_copy", "_clone_dim_order", "_empty_dim_order"):
        packet = getattr(torch.ops.dim_order_ops, name, None)
        if packet is not None:
            yield f"dim_order_ops.{name}.default", packet.default


def out_op(op):
    try:
        out, _ = to_out_variant(op)
    except Exception:
        packet = getattr(getattr(torch.ops, op.namespace), op._schema.name.split("::")[1])
        for cand in (op._overloadname + "_out", "out"):
            if cand in packet.overloads():
                out = getattr(packet, cand)
                break
        else:
            return None
    return out


def kernel_name(out):
    return f"{out._schema.name}.{out._overloadname}"


# ExecuTorch's memory_format_enum (exir/tensor.py): the Int a memory-format argument is emitted as.
MEMORY_FORMATS = {torch.contiguous_format: 0, torch.preserve_format: 1, torch.channels_last: 2,
                  torch.channels_last_3d: 3}
LAYOUTS = {torch.strided: 0, torch.sparse_coo: 1}


def scalar_type_enum(dtype):
    # c10::ScalarType numbering, which the .pte's ScalarType follows.
    from executorch.exir.tensor import scalar_type_enum as enum
    return int(enum(dtype))


def go_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def go_float(x):
    r = repr(float(x))
    return {"inf": "math.Inf(1)", "-inf": "math.Inf(-1)", "nan": "math.NaN()"}.get(r, r)


def go_default(arg):
    """The Go literal of a schema argument's default, or None when it has none."""
    if not arg.has_default_value():
        return None
    v = arg.default_value
    if v is None:
        return "&Default{Kind: DefaultNone}"
    if isinstance(v, bool):
        return f"&Default{{Kind: DefaultBool, Bool: {str(v).lower()}}}"
    if isinstance(v, int):
        return f"&Default{{Kind: DefaultInt, Int: {v}}}"
    if isinstance(v, float):
        return f"&Default{{Kind: DefaultFloat, Float: {go_float(v)}}}"
    if isinstance(v, str):
        return f"&Default{{Kind: DefaultString, Str: {go_str(v)}}}"
    if isinstance(v, torch.dtype):
        return f"&Default{{Kind: DefaultInt, Int: {scalar_type_enum(v)}}}"
    if isinstance(v, torch.layout):
        return f"&Default{{Kind: DefaultInt, Int: {LAYOUTS[v]}}}"
    if isinstance(v, torch.memory_format):
        return f"&Default{{Kind: DefaultInt, Int: {MEMORY_FORMATS[v]}}}"
    if isinstance(v, (list, tuple)) and all(isinstance(x, bool) for x in v) and v:
        return "&Default{Kind: DefaultBools, Bools: []bool{" + ", ".join(str(x).lower() for x in v) + "}}"
    if isinstance(v, (list, tuple)) and all(isinstance(x, int) and not isinstance(x, bool) for x in v):
        return "&Default{Kind: DefaultInts, Ints: []int64{" + ", ".join(str(x) for x in v) + "}}"
    if isinstance(v, (list, tuple)) and all(isinstance(x, (int, float)) for x in v):
        return "&Default{Kind: DefaultFloats, Floats: []float64{" + ", ".join(go_float(x) for x in v) + "}}"
    raise ValueError(f"unsupported default {v!r} of {arg.name}")


def schema_literal(out):
    """The Go literal of an out variant's Schema."""
    parsed = FunctionSchema.parse(str(out._schema).split("::", 1)[1])
    types = {a.name: a.type for a in parsed.arguments.flat_all}
    args = []
    for a in out._schema.arguments:
        fields = [f"Name: {go_str(a.name)}", f"Type: {go_str(str(types[a.name]))}"]
        if a.kwarg_only:
            fields.append("KwargOnly: true")
        if a.is_out:
            fields.append("Out: true")
        d = go_default(a)
        if d is not None:
            fields.append(f"Default: {d}")
        args.append("\t\t{" + ", ".join(fields) + "},")
    return ([f"\t{go_str(kernel_name(out))}: {{Name: {go_str(kernel_name(out))}, Returns: {len(out._schema.returns)}, Args: []SchemaArg{{"]
            + args + ["\t}},"])


def main():
    root = pathlib.Path(__file__).resolve().parents[2]
    table, missing, outs = {}, [], {}
    for target, op in edge_ops():
        out = out_op(op)
        if out is None:
            missing.append(target)
        else:
            table[target] = kernel_name(out)
            outs[kernel_name(out)] = out
    lines = [
        "// Code generated by tools/reference/generate_out_variants.py from torch "
        + torch.__version__.split("+")[0] + "; DO NOT EDIT.",
        "",
        "package emit",
        "",
        "// outVariants maps an Edge operator to the out-variant kernel to_executorch calls for it.",
        "var outVariants = map[string]string{",
    ]
    lines += [f'\t"{k}": "{v}",' for k, v in sorted(table.items())]
    lines += ["}", "", "// noOutVariant lists Edge operators with no out variant (they cannot run as kernels).",
              "var noOutVariant = map[string]bool{"]
    lines += [f'\t"{k}": true,' for k in sorted(missing)]
    lines += ["}", "", "// outSchemas holds the full schema of every out variant above, keyed by kernel name.",
              "var outSchemas = map[string]*Schema{"]
    for name in sorted(outs):
        lines += schema_literal(outs[name])
    lines += ["}", ""]
    src = "\n".join(lines)
    if "math." in src:
        lines[2:3] = ["package emit", "", 'import "math"']
    out = root / "emit" / "outvariant_gen.go"
    out.write_text("\n".join(lines))
    print(f"wrote {len(table)} out variants ({len(missing)} without), {len(outs)} schemas to {out}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
