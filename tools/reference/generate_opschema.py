"""Writes internal/opschema's two generated tables from the pinned torch and ExecuTorch: one
schema representation for everything etgo needs to know about an operator's signature.

functional_gen.go: the functional schema of every operator an Edge graph or a decomposition can
hold — the operators torch tags core, their view copies, the functional operators of
ExecuTorch's decomposition table, ExecuTorch's dim-order operators, the quantized_decomposed
operators ExecuTorch's quantized kernel library runs, and the few others etgo's
decompositions emit — keyed by the Edge target ("aten.add.Tensor"). passes.ScalarToTensor reads
the types (a number passed where the schema takes a Tensor becomes a 0-d tensor).

out_gen.go: for every Edge operator (core ATen, the _copy form of each core view, the dim-order
ops, the quantized_decomposed ops) the out variant `to_executorch` would call, as the kernel name a .pte's operator table
carries ("aten::add.out"), from ExecuTorch's own to_out_variant (where it cannot decide — pow's
overloads clash with the int ones — the packet's "<overload>_out" or "out" overload); and the
full schema of every out variant, plus of every other kernel etgo's portable library names in
its source (kernels/portable/*.go: "aten::all.out", "aten::copy_", "et_copy::_h2d_copy.out"),
so that its argument unboxing can be generated (internal/cmd/unboxgen). The emitter needs the
whole schema because a node read from a .pt2 omits the arguments left at their default, while
a KernelCall lists them all.

Both tables use one spelling: per argument its name, its type as the schema writes it, alias
annotations removed ("Tensor?", "int[2]", "SymInt[]", "Tensor[]", "Scalar", "ScalarType?"),
whether it is keyword-only or an out argument, its default (dtype, layout and memory-format
defaults as the Int ExecuTorch emits for them), and the number of returns.

Run from anywhere with the reference virtual environment:
    ~/.venvs/et/bin/python tools/reference/generate_opschema.py
(`ET_PYTHON=~/.venvs/et/bin/python go generate ./internal/opschema` runs it the same way.)
"""
import pathlib
import re
import subprocess
import sys

import torch
import executorch.exir.dialects  # noqa: F401  (registers the dim_order_ops namespace)
import executorch.kernels.quantized  # noqa: F401  (registers the quantized_decomposed out variants)
from executorch.exir.operator.convert import to_out_variant

ROOT = pathlib.Path(__file__).resolve().parents[2]
PKG = ROOT / "internal" / "opschema"

VIEWS = {"view", "expand", "permute", "slice", "select", "unsqueeze", "squeeze", "transpose", "t",
         "alias", "split", "split_with_sizes", "unbind", "diagonal", "as_strided", "unfold", "detach"}


# ---- which operators -------------------------------------------------------------------------

def functional_ops():
    from executorch.exir.dialects.edge._ops import EdgeOpOverload  # noqa: F401  registers dim_order_ops
    from executorch.exir.passes import dim_order_ops_registry  # noqa: F401
    from executorch.exir.tracer import _default_decomposition_table

    ops = {}
    for name in dir(torch.ops.aten):
        try:
            packet = getattr(torch.ops.aten, name)
            overloads = packet.overloads()
        except Exception:
            continue
        for overload in overloads:
            op = getattr(packet, overload)
            if torch.Tag.core in op.tags:
                ops[f"aten.{name}.{overload}"] = op
                copy = getattr(torch.ops.aten, name + "_copy", None)
                if copy is not None and overload in copy.overloads():
                    ops[f"aten.{name}_copy.{overload}"] = getattr(copy, overload)
    for op in _default_decomposition_table():
        s = op._schema
        if any(a.alias_info is not None and a.alias_info.is_write for a in s.arguments):
            continue  # out and in-place overloads: export never emits them
        ns, n = s.name.split("::")
        ops[f"{ns}.{n}.{s.overload_name or 'default'}"] = op
    for name in ("_to_dim_order_copy", "_clone_dim_order", "_empty_dim_order"):
        packet = getattr(torch.ops.dim_order_ops, name)
        ops[f"dim_order_ops.{name}.default"] = packet.default
    for key, op in quantized_ops():
        ops[key] = op
    # Operators etgo's decompositions emit that are neither core nor decomposed.
    for full in ("aten.sym_size.int", "aten.scalar_tensor.default", "aten.empty_strided.default",
                 "aten.var.correction", "aten.linalg_vector_norm.default"):
        _, n, o = full.split(".")
        ops[full] = getattr(getattr(torch.ops.aten, n), o)
    return ops


def quantized_ops():
    """The functional quantized_decomposed operators ExecuTorch's quantized kernel library
    (kernels/quantized/quantized.yaml) has an out variant for: the Edge dialect keeps them
    whole, and to_executorch calls their out variants (quantized_decomposed::*.out)."""
    packets = torch.ops.quantized_decomposed
    for name in sorted(dir(packets)):
        try:
            packet = getattr(packets, name)
            overloads = packet.overloads()
        except Exception:
            continue
        for ov in overloads:
            op = getattr(packet, ov)
            s = op._schema
            if any(a.is_out for a in s.arguments):
                continue
            try:
                to_out_variant(op)
            except Exception:
                continue
            yield f"quantized_decomposed.{name}.{ov}", op


def edge_ops():
    yield from quantized_ops()
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


# A kernel name as kernels/portable writes it: "aten::add.out", "aten::copy_" (default overload).
KERNEL_LITERAL = re.compile(r'"([a-z_]+::[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)?)"')


def portable_kernels():
    """Every kernel name the portable library's source spells out, with its torch operator."""
    names = set()
    for path in sorted((ROOT / "kernels" / "portable").glob("*.go")):
        if path.name.endswith("_test.go") or path.name.endswith("_gen.go"):
            continue
        names.update(KERNEL_LITERAL.findall(path.read_text()))
    ops = {}
    for name in sorted(names):
        ns, rest = name.split("::")
        base, _, ov = rest.partition(".")
        packet = getattr(getattr(torch.ops, ns), base, None)
        op = getattr(packet, ov or "default", None) if packet is not None else None
        if op is None:
            print(f"warning: {name} (named in kernels/portable) is not an operator torch knows", file=sys.stderr)
            continue
        ops[name] = op
    return ops


# ---- how they are written --------------------------------------------------------------------

def schema_type(a):
    """An argument's type as the schema writes it, alias annotation removed: the JIT type's own
    spelling ("SymInt[]?"), with a fixed list length put back ("SymInt[2]")."""
    t = a.real_type.str()
    if a.N is not None:
        i = t.index("[]")
        t = t[:i] + f"[{a.N}]" + t[i + 2:]
    return t


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


def schema_literal(key, name, schema):
    """The Go lines of one table entry: key: &Schema{...}."""
    args = []
    for a in schema.arguments:
        fields = [f"Name: {go_str(a.name)}", f"Type: {go_str(schema_type(a))}"]
        if a.kwarg_only:
            fields.append("KwargOnly: true")
        if a.is_out:
            fields.append("Out: true")
        d = go_default(a)
        if d is not None:
            fields.append(f"Default: {d}")
        args.append("\t\t{" + ", ".join(fields) + "},")
    if not args:
        return [f"\t{go_str(key)}: {{Name: {go_str(name)}, Returns: {len(schema.returns)}}},"]
    return ([f"\t{go_str(key)}: {{Name: {go_str(name)}, Returns: {len(schema.returns)}, Args: []SchemaArg{{"]
            + args + ["\t}},"])


def write(file, lines):
    if re.search(r"math\.(Inf|NaN)\(", "\n".join(lines)):
        lines[lines.index("package opschema") + 1:lines.index("package opschema") + 1] = ["", 'import "math"']
    path = PKG / file
    path.write_text("\n".join(lines))
    subprocess.run(["gofmt", "-w", str(path)], check=True)
    return path


def header():
    return ["// Code generated by tools/reference/generate_opschema.py from torch "
            + torch.__version__.split("+")[0] + "; DO NOT EDIT.", "", "package opschema", ""]


def main():
    fops = functional_ops()
    lines = header() + [
        "// functional holds the functional schema of every operator an Edge graph or a",
        "// decomposition can hold, keyed by Edge target.",
        "var functional = map[string]*Schema{",
    ]
    for key in sorted(fops):
        s = fops[key]._schema
        lines += schema_literal(key, f"{s.name}.{s.overload_name or 'default'}", s)
    lines += ["}", ""]
    fpath = write("functional_gen.go", lines)

    table, missing, outs = {}, [], {}
    for target, op in edge_ops():
        out = out_op(op)
        if out is None:
            missing.append(target)
        else:
            table[target] = kernel_name(out)
            outs[kernel_name(out)] = out
    library = {k: op for k, op in portable_kernels().items() if k not in outs}
    lines = header() + [
        "// outVariants maps an Edge operator to the out-variant kernel to_executorch calls for it.",
        "var outVariants = map[string]string{",
    ]
    lines += [f'\t"{k}": "{v}",' for k, v in sorted(table.items())]
    lines += ["}", "", "// noOutVariant lists Edge operators with no out variant (they cannot run as kernels).",
              "var noOutVariant = map[string]bool{"]
    lines += [f'\t"{k}": true,' for k in sorted(missing)]
    lines += ["}", "",
              "// out holds the full schema of every out variant above and of every other kernel the",
              "// portable library names, keyed by kernel name.",
              "var out = map[string]*Schema{"]
    every = {**{k: o._schema for k, o in outs.items()}, **{k: o._schema for k, o in library.items()}}
    for name in sorted(every):
        lines += schema_literal(name, name, every[name])
    lines += ["}", ""]
    opath = write("out_gen.go", lines)
    print(f"wrote {len(fops)} functional schemas to {fpath}; {len(table)} out variants "
          f"({len(missing)} without), {len(every)} kernel schemas ({len(library)} beyond the out "
          f"variants) to {opath}", file=sys.stderr)


if __name__ == "__main__":
    main()
