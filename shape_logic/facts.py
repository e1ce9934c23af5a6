"""A graph as ASP facts (the input predicates of encodings/schema.lp).

Two forms. Solving writes what the user declared directly (`rank(T, R).`,
`op(N, Op).`). Explaining gives every declared fact its *source* `src(Kind, Name,
Part)` (`given_rank(T, R, S). source(S).`), so that sources can be switched on
and off: Kind is input | init | output | ann | node, Part is rank | dims | dtype |
data for tensors and `all` for nodes.
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


def graph_facts(graph: Graph, sourced: bool = False) -> str:
    out: list[str] = [f'opset("", {graph.opset}).']
    for t in graph.tensors():
        out.append(f"tensor({quote(t)}).")
    for kind, decls in (("input", graph.inputs), ("init", graph.initializers),
                        ("output", graph.outputs), ("ann", graph.annotations)):
        for info in decls.values():
            out.extend(tensor_facts(info, kind, sourced))
    out.extend(_shared_shape_variables(graph, sourced))
    for node in graph.nodes:
        out.extend(node_facts(node, sourced))
    return "\n".join(out) + "\n"


def _declared(pred: str, args: str, source: str | None) -> str:
    """`rank(T,R).` directly, or `given_rank(T,R,S). source(S).` with its source."""
    if source is None:
        return f"{pred}({args})."
    return f"given_{pred}({args},{source})."


def tensor_facts(info: TensorInfo, kind: str, sourced: bool = True) -> list[str]:
    t = quote(info.name)
    out = []

    def src(part):
        return f"src({kind},{t},{part})" if sourced else None

    def source_fact(part):
        if sourced:
            out.append(f"source({src(part)}).")

    if info.dtype:
        out.append(_declared("dtype", f"{t},{info.dtype}", src("dtype")))
        source_fact("dtype")
    if info.shape is not None:
        dims = info.shape.dims
        if dims is not None:
            out.append(_declared("rank", f"{t},{len(dims)}", src("rank")))
            source_fact("rank")
            for i, d in enumerate(dims):
                out.append(_declared("dim", f"{t},{i},{expr_fact_text(d)}", src("dims")))
            if dims:
                source_fact("dims")
        elif len(info.shape.parts) > 1:
            raise InputError("shapes with a shape variable and dims (s@[a]) are not supported "
                             "yet; give the full shape or only a variable", place=info.place)
    if info.data is not None:
        out.extend(value_facts(info.name, info.data, src("data")))
    return out


def value_facts(tensor: str, data: np.ndarray, source: str | None) -> list[str]:
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
    out = [_declared("value", f"{t},{i},{v}", source) for i, v in enumerate(values)]
    if out and source is not None:
        out.append(f"source({source}).")
    return out


def _shared_shape_variables(graph: Graph, sourced: bool) -> list[str]:
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
                if sourced:
                    out.append(f"given_same_shape({quote(other)},{quote(info.name)},{s1},{s2}). "
                               f"source({s1}). source({s2}).")
                else:
                    out.append(f"same_shape({quote(other)},{quote(info.name)}).")
            else:
                first[var] = (info.name, kind)
    return out


def node_facts(node: Node, sourced: bool = True) -> list[str]:
    n = quote(node.name)
    # node/2 is always a fact (rules may negate it); op/2 says the node is in force
    in_force = f"source(src(node,{n},all))." if sourced else f"op({n},{quote(node.op)})."
    out = [f"node({n},{quote(node.op)}). {in_force}",
           f"ninputs({n},{len(node.inputs)}). noutputs({n},{len(node.outputs)})."]
    if node.domain not in ("", "ai.onnx"):  # a contrib op (com.microsoft) shares names with ONNX
        out.append(f"domain({n},{quote(node.domain)}).")
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
