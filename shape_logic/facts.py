"""A graph as ASP facts (the input predicates of encodings/schema.lp).

Every fact the user gave carries its *source* `src(Kind, Name, Part)`, so that
explanations can switch sources on and off: Kind is input | init | output | ann
| node, Part is rank | dims | dtype | data for tensors and `all` for nodes.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .graph import INTEGER_DTYPES, Graph, Node, TensorInfo, dtype_of_array
from .asp.terms import expr_fact_text, int_text, quote
from .errors import InputError

MAX_VALUE_ELEMENTS = 1024  # integer constants up to this size are known element by element
MAX_REAL_ELEMENTS = 64  # float constants (Resize scales) up to this size
MAX_ATTR_CHARS = 256  # string attributes up to this length are also given character by character


def graph_facts(graph: Graph) -> str:
    out: list[str] = [f'opset("", {graph.opset}).']
    for t in graph.tensors():
        out.append(f"tensor({quote(t)}).")
    for kind, decls in (("input", graph.inputs), ("init", graph.initializers),
                        ("output", graph.outputs), ("ann", graph.annotations)):
        for info in decls.values():
            out.extend(tensor_facts(info, kind))
    out.extend(_shared_shape_variables(graph))
    for node in graph.nodes:
        out.extend(node_facts(node))
    return "\n".join(out) + "\n"


def tensor_facts(info: TensorInfo, kind: str) -> list[str]:
    t = quote(info.name)
    out = []

    def src(part):
        return f"src({kind},{t},{part})"

    if info.dtype:
        out.append(f"given_dtype({t},{info.dtype},{src('dtype')}). source({src('dtype')}).")
    if info.shape is not None:
        dims = info.shape.dims
        if dims is not None:
            out.append(f"given_rank({t},{len(dims)},{src('rank')}). source({src('rank')}).")
            for i, d in enumerate(dims):
                out.append(f"given_dim({t},{i},{expr_fact_text(d)},{src('dims')}).")
            if dims:
                out.append(f"source({src('dims')}).")
        elif len(info.shape.parts) > 1:
            raise InputError("shapes with a shape variable and dims (s@[a]) are not supported "
                             "yet; give the full shape or only a variable", place=info.place)
    if info.data is not None:
        out.extend(value_facts(info.name, info.data, src("data")))
    return out


def value_facts(tensor: str, data: np.ndarray, source: str) -> list[str]:
    """Element facts for small integer (and tiny float) constants, in row-major order."""
    t = quote(tensor)
    flat = data.reshape(-1)
    try:
        dt = dtype_of_array(data)
    except ValueError:
        return []
    if dt in INTEGER_DTYPES and dt != "bool" and flat.size <= MAX_VALUE_ELEMENTS:
        values = [int_text(int(v)) for v in flat]
    elif dt in ("f16", "f32", "f64") and flat.size <= MAX_REAL_ELEMENTS:
        values = [f'real("{float(v)!r}")' for v in flat]
    else:
        return []
    out = [f"given_value({t},{i},{v},{source})." for i, v in enumerate(values)]
    if out:
        out.append(f"source({source}).")
    return out


def _shared_shape_variables(graph: Graph) -> list[str]:
    """Tensors annotated with the same lone shape variable have the same shape."""
    first: dict[str, tuple[str, str]] = {}
    out = []
    for kind, decls in (("input", graph.inputs), ("output", graph.outputs),
                        ("ann", graph.annotations)):
        for info in decls.values():
            if info.shape is None or info.shape.dims is not None:
                continue
            var = info.shape.parts[0]
            if var in first:
                other, okind = first[var]
                s1 = f"src({okind},{quote(other)},rank)"
                s2 = f"src({kind},{quote(info.name)},rank)"
                out.append(f"given_same_shape({quote(other)},{quote(info.name)},{s1},{s2}). "
                           f"source({s1}). source({s2}).")
            else:
                first[var] = (info.name, kind)
    return out


def node_facts(node: Node) -> list[str]:
    n = quote(node.name)
    out = [f"node({n},{quote(node.op)}). source(src(node,{n},all)).",
           f"ninputs({n},{len(node.inputs)}). noutputs({n},{len(node.outputs)})."]
    for k, t in enumerate(node.inputs):
        if t:
            out.append(f"input({n},{k},{quote(t)}).")
    for k, t in enumerate(node.outputs):
        if t:  # an omitted optional output has no fact, as an absent input
            out.append(f"output({n},{k},{quote(t)}).")
    for key, value in node.attrs.items():
        out.extend(attr_facts(node, key, value))
    return out


def attr_facts(node: Node, key: str, value: Any) -> list[str]:
    n, k = quote(node.name), quote(key)
    place = f"{node.place}.attrs.{key}"
    out = [f"has_attr({n},{k})."]
    if isinstance(value, np.ndarray):
        return out + tensor_attr_facts(n, k, value)
    if isinstance(value, dict):  # a subgraph
        return out + [f"attr({n},{k},graph)."]
    if isinstance(value, list):
        out.append(f"attr_len({n},{k},{len(value)}).")
        for i, v in enumerate(value):
            out.append(f"attr({n},{k},{i},{scalar_term(v, place)}).")
        return out
    out.append(f"attr({n},{k},{scalar_term(value, place)}).")
    if isinstance(value, str) and len(value) <= MAX_ATTR_CHARS:
        # rules cannot take strings apart: give them the characters (Einsum's equation)
        out.append(f"attr_len({n},{k},{len(value)}).")
        out.extend(f"attr_char({n},{k},{i},{quote(c)})." for i, c in enumerate(value))
    return out


def tensor_attr_facts(n: str, k: str, arr: np.ndarray) -> list[str]:
    dt = dtype_of_array(arr)
    out = [f"attr_dtype({n},{k},{dt}).", f"attr_rank({n},{k},{arr.ndim})."]
    for i, d in enumerate(arr.shape):
        out.append(f"attr_dim({n},{k},{i},{int_text(d)}).")
    flat = arr.reshape(-1)
    if dt in INTEGER_DTYPES and dt != "bool" and flat.size <= MAX_VALUE_ELEMENTS:
        for i, v in enumerate(flat):
            out.append(f"attr_value({n},{k},{i},{int_text(int(v))}).")
    elif dt in ("f16", "f32", "f64") and flat.size <= MAX_REAL_ELEMENTS:
        for i, v in enumerate(flat):
            out.append(f'attr_value({n},{k},{i},real("{float(v)!r}")).')
    return out


def scalar_term(v: Any, place: str) -> str:
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, int):
        return int_text(v)
    if isinstance(v, float):
        return f'real("{v!r}")'
    if isinstance(v, str):
        return quote(v)
    if isinstance(v, dict):
        return "graph"
    raise InputError(f"unsupported attribute value {v!r}", place=place)
