"""A graph as ASP facts (the input predicates of encodings/schema.lp).

Two forms. Solving writes what the user declared directly (`tensor2("x",f32,2,"n").`
for a tensor declared with its dtype and shape, nodes.lp unpacking it; every node in
force: `op(N, O) :- node(N, O).`). Explaining gives every declared fact its *source*
`src(Kind, Name, Part)` (`given_rank(T, R, S). source(S).`), so that sources can be switched on
and off: Kind is input | init | output | ann | node, Part is rank | dims | dtype |
data for tensors and `all` for nodes.
"""
from __future__ import annotations

import dataclasses

from typing import Any

import numpy as np

from .graph import INTEGER_DTYPES, Graph, Node, TensorInfo, dtype_of_array
from .asp.terms import expr_fact_text, int_text, quote
from .scopes import Scopes
from .errors import InputError

MAX_VALUE_ELEMENTS = 1024  # integer constants up to this size are known element by element
MAX_REAL_ELEMENTS = 8  # float constants up to this size (Resize scales, Range bounds: shape work)
MAX_ATTR_CHARS = 256  # string attributes up to this length are also given character by character


def graph_facts(graph: Graph, sourced: bool = False, foreign=frozenset()) -> str:
    """The graph as facts; `foreign`: nodes whose operator's rule file describes other
    domains (rule_selection.select_rules), named with their domain so that no rule applies."""
    return "".join(fact_chunks(graph, sourced, foreign))


def fact_chunks(graph: Graph, sourced: bool = False, foreign=frozenset(),
                size: int = 20_000):
    """The graph's facts as texts of about `size` statements each (clingo can parse one
    while the next is written: solver.stream_facts)."""
    batch: list[str] = []
    for group in _fact_groups(graph, sourced, foreign):
        batch.extend(group)
        if len(batch) >= size:
            yield "\n".join(batch) + "\n"
            batch = []
    if batch:
        yield "\n".join(batch) + "\n"


def _fact_groups(graph: Graph, sourced: bool, foreign):
    """The statements, a list at a time (per declaration, per node)."""
    head = [f'opset("", {graph.opset}).']
    if not sourced:  # every node is in force (explaining derives op/2 from its source)
        head.append("op(N, O) :- node(N, O).")
    made = {t for n in graph.nodes + graph.body_nodes for t in n.outputs if t}
    if not sourced:  # and so are the tensors declared as tensorK
        made.update(info.name for kind, decls in (("input", graph.inputs),
                                                  ("init", graph.initializers),
                                                  ("output", graph.outputs),
                                                  ("ann", graph.annotations))
                    for info in decls.values() if _packable(info, kind))
    # a node's outputs are tensors by nodes.lp
    head.extend(f"tensor({quote(t)})." for t in graph.tensors() if t not in made)
    yield head
    for kind, decls in (("input", graph.inputs), ("init", graph.initializers),
                        ("output", graph.outputs), ("ann", graph.annotations)):
        for info in decls.values():
            yield tensor_facts(info, kind, sourced)
    yield _shared_shape_variables(graph, sourced)
    scopes = Scopes(graph)  # a body reads the tensors around it through copies
    for node in graph.nodes + graph.body_nodes:
        terms, outs = scopes.inputs(node), scopes.body_outputs(node)
        if node.name in foreign:
            node = dataclasses.replace(node, op=f"{node.domain}.{node.op}")
        yield node_facts(node, sourced, terms, outs)
    if scopes.ids:
        yield scopes.facts()


def _declared(pred: str, args: str, source: str | None) -> str:
    """`rank(T,R).` directly, or `given_rank(T,R,S). source(S).` with its source."""
    if source is None:
        return f"{pred}({args})."
    return f"given_{pred}({args},{source})."


MAX_PACKED_RANK = 5  # nodes.lp unpacks tensorK facts for K up to this


def _packable(info: TensorInfo, kind: str) -> bool:
    """Whether a declaration is one statement when solving: a dtype and K <= MAX_PACKED_RANK
    dims, `tensorK(T, D, E0, .., EK-1).` (nodes.lp derives tensor, dtype, rank and dim);
    not a graph output's with a `?` (_unknown_dim)."""
    return bool(info.dtype) and info.shape is not None and info.shape.dims is not None \
        and len(info.shape.dims) <= MAX_PACKED_RANK and not info.sequence and not (
            kind == "output" and any(_is_fresh(d) for d in info.shape.dims))


def _is_fresh(d) -> bool:
    """d is a bare fresh name (a declaration's `?`, or an ONNX dim without value or name)."""
    a = d.single_atom()
    return a is not None and a.kind == "sym" and d.terms[0][1] == 1 and a.args[0].startswith("_")


def _packed_declaration(info: TensorInfo) -> str:
    dims = info.shape.dims
    return (f"tensor{len(dims)}({quote(info.name)},{info.dtype}"
            + "".join("," + expr_fact_text(d) for d in dims) + ").")


def tensor_facts(info: TensorInfo, kind: str, sourced: bool = True) -> list[str]:
    t = quote(info.name)
    out = []
    packed = _packed_declaration(info) if not sourced and _packable(info, kind) else None
    if packed is not None:
        out.append(packed)

    def src(part):
        return f"src({kind},{t},{part})" if sourced else None

    def source_fact(part):
        if sourced:
            out.append(f"source({src(part)}).")

    if info.sequence:
        out.append(f"seq({t}).")
    if info.optional:
        out.append(f"opt({t}).")
    if info.dtype and packed is None:
        out.append(_declared("dtype", f"{t},{info.dtype}", src("dtype")))
        source_fact("dtype")
    if info.shape is None:
        if kind == "input":
            out.append(f"min_rank({t},0).")  # an input without a shape: any rank (a row)
    elif packed is None:
        dims = info.shape.dims
        if dims is not None:
            out.append(_declared("rank", f"{t},{len(dims)}", src("rank")))
            source_fact("rank")
            for i, d in enumerate(dims):
                if info.sequence and _is_fresh(d):
                    continue  # a sequence's `?`: its elements need not share the axis
                if kind == "output" and _is_fresh(d):
                    # a graph output's `?` (an ONNX model's dim without value or name)
                    # says nothing: as a fresh name met by the graph's arithmetic before it
                    # was bound, a declared [?, ?, ?, ?] made a broadcast of x [s4, ..]
                    # with the output's 2*s0 require max(2*s0, s4) = 2*s0, and narrowing
                    # set it aside (fuzz --narrowing base 3601, graph 132)
                    continue
                out.append(_declared("dim", f"{t},{i},{expr_fact_text(d)}", src("dims")))
            if dims:
                source_fact("dims")
        else:
            out.extend(_row_facts(info, src))
    if info.shape is not None and info.shape.labels:
        out.append("labels_used.")
        out.extend(_declared("label", f"{t},{i},{quote(lab)}", src("dims"))
                   for i, lab in labeled_positions(info.shape))
        if src("dims") is not None:
            out.append(f"source({src('dims')}).")
    if info.data is not None:
        out.extend(value_facts(info.name, info.data, src("data")))
    return out


def declares_rows(graph: Graph) -> bool:
    """Some declaration gives a row (`min_rank`, rows.lp): an input without a shape, or a
    shape with a shape variable (`s@[a]`, as tensor_facts writes them)."""
    return any(info.shape.dims is None if info.shape is not None else kind == "input"
               for kind, decls in (("input", graph.inputs), ("init", graph.initializers),
                                   ("output", graph.outputs), ("ann", graph.annotations))
               for info in decls.values())


def labeled_positions(shape) -> list[tuple[int, str]]:
    """(position, label) of the labeled axes: from the front before a shape variable (or
    throughout), from the back (negative) after it."""
    out: list[tuple[int, str]] = []
    var = next((k for k, p in enumerate(shape.parts) if isinstance(p, str)), None)
    front = [lab for k in range(len(shape.parts) if var is None else var)
             for lab in shape.part_labels(k)]
    out.extend((i, lab) for i, lab in enumerate(front) if lab)
    if var is not None:
        back = [lab for k in range(var + 1, len(shape.parts)) for lab in shape.part_labels(k)]
        out.extend((i - len(back), lab) for i, lab in enumerate(back) if lab)
    return out


def row_parts(shape) -> tuple[tuple, str, tuple]:
    """A shape with one shape variable as (leading dims, variable, trailing dims)."""
    parts = shape.parts
    names = [i for i, p in enumerate(parts) if isinstance(p, str)]
    if len(names) != 1:
        raise ValueError("more than one shape variable")
    k = names[0]
    lead = tuple(d for p in parts[:k] for d in p)
    trail = tuple(d for p in parts[k + 1:] for d in p)
    return lead, parts[k], trail


def _row_facts(info: TensorInfo, src) -> list[str]:
    """`[n]@s@[c]`: at least 2 axes, the first n and the last c (rows.lp)."""
    t = quote(info.name)
    try:
        lead, _, trail = row_parts(info.shape)
    except ValueError:
        raise InputError(f"shape {info.shape} has more than one shape variable "
                         "(not supported: give at most one)", place=info.place)
    out = [_declared("min_rank", f"{t},{len(lead) + len(trail)}", src("rank"))]
    if src("rank") is not None:
        out.append(f"source({src('rank')}).")
    for i, d in enumerate(lead):
        out.append(_declared("dim", f"{t},{i},{expr_fact_text(d)}", src("dims")))
    for j, d in enumerate(reversed(trail)):
        out.append(_declared("dim", f"{t},{-j - 1},{expr_fact_text(d)}", src("dims")))
    if (lead or trail) and src("dims") is not None:
        out.append(f"source({src('dims')}).")
    return out


def value_facts(tensor: str, data: np.ndarray, source: str | None) -> list[str]:
    """Element facts for small integer and bool (1, 0) constants (and tiny float ones), in
    row-major order."""
    t = quote(tensor)
    flat = data.reshape(-1)
    try:
        dt = dtype_of_array(data)
    except ValueError:
        return []
    values = _element_terms(dt, flat)
    if source is None and 0 < len(values) <= MAX_PACKED_ELEMENTS:  # valuesK (nodes.lp)
        return [f"values{len(values)}({t}," + ",".join(values) + ")."]
    out = [_declared("value", f"{t},{i},{v}", source) for i, v in enumerate(values)]
    if out and source is not None:
        out.append(f"source({source}).")
    return out


def _shared_shape_variables(graph: Graph, sourced: bool) -> list[str]:
    """Tensors annotated with one shape variable share it: the same shape (`x`, `x`), or
    the same row before their trailing dims (`s@[a]`, `s@[b, c]`: same_row, rows.lp)."""
    first: dict[str, tuple[str, str, int, int]] = {}
    out = []
    for kind, decls in (("input", graph.inputs), ("output", graph.outputs),
                        ("ann", graph.annotations)):
        for info in decls.values():
            if info.shape is None or info.shape.dims is not None:
                continue
            lead, var, trail = row_parts(info.shape)
            here = (info.name, kind, len(lead), len(trail))
            if var not in first:
                first[var] = here
                continue
            other, okind, olead, otrail = first[var]
            if lead or olead:
                raise InputError(f"shape variable {var!r} has leading dims here or in "
                                 f"{okind}.{other}; a variable shared between annotations "
                                 "may only have trailing dims (not supported yet)",
                                 place=info.place)
            s1 = f"src({okind},{quote(other)},rank)"
            s2 = f"src({kind},{quote(info.name)},rank)"
            a, b = quote(other), quote(info.name)
            if otrail == 0 and not trail:
                rel, args = "same_shape", f"{a},{b}"
            else:
                rel, args = "same_row", f"{a},{otrail},{b},{len(trail)}"
            if sourced:
                out.append(f"given_{rel}({args},{s1},{s2}). source({s1}). source({s2}).")
            else:
                out.append(f"{rel}({args}).")
    return out


MAX_PACKED_INPUTS = 5  # nodes.lp unpacks nodeK facts for K up to this
MAX_PACKED_ATTR_RANK = 4  # and attr_tensorK facts for K up to this
MAX_PACKED_ELEMENTS = 4  # and attr_listK and valuesK facts for K up to this


def node_facts(node: Node, sourced: bool = True, terms: dict | None = None,
               body_terms: dict | None = None) -> list[str]:
    """The node as one statement where it can be (nodes.lp derives node/2, ninputs/2,
    noutputs/2, input/3 and output/3 from it), its attributes and bodies. node/2 holds
    whatever is in force (rules may negate it); op/2 says the node is in force.
    `terms`: inputs read through another term (a body's copy, scopes.py);
    `body_terms`: the same for (body, output) of the node's bodies."""
    n, o = quote(node.name), quote(node.op)
    ins, outs = node.inputs, node.outputs
    terms = terms or {}
    body_terms = body_terms or {}

    def port(t):
        return terms.get(t) or quote(t)

    out = []
    if len(ins) <= MAX_PACKED_INPUTS and outs:
        ports = "".join("," + (port(t) if t else quote("")) for t in ins)
        out.append(f"node{len(ins)}({n},{o},{len(outs)},{quote(outs[0] or '')}{ports}).")
        later = 1
    else:
        out.append(f"node_io({n},{o},{len(ins)},{len(outs)}).")
        out.extend(f"input({n},{k},{port(t)})." for k, t in enumerate(ins) if t)
        later = 0
    # an omitted optional output has no fact, as an absent input
    out.extend(f"output({n},{k},{quote(t)})." for k, t in enumerate(outs) if t and k >= later)
    if sourced:
        out.append(f"source(src(node,{n},all)).")
    if node.domain not in ("", "ai.onnx"):  # a contrib op (com.microsoft) shares names with ONNX
        out.append(f"domain({n},{quote(node.domain)}).")
    for key, value in node.attrs.items():
        out.extend(attr_facts(node, key, value))
    for key, (ins, outs) in node.bodies.items():  # a subgraph's copy (subgraphs.py)
        k = quote(key)
        out.append(f"body_count({n},{k},{len(ins)},{len(outs)}).")
        out.extend(f"body_input({n},{k},{i},{quote(t)})." for i, t in enumerate(ins))
        out.extend(f"body_output({n},{k},{i},{body_terms.get((key, t)) or quote(t)})."
                   for i, t in enumerate(outs))
    return out


def attr_facts(node: Node, key: str, value: Any) -> list[str]:
    """The attribute as one statement (attr_set, attr_list, attr_tensorK: nodes.lp derives
    has_attr and the rest), with its elements."""
    n, k = quote(node.name), quote(key)
    place = _AttrPlace(node, key)
    if isinstance(value, np.ndarray):
        return tensor_attr_facts(n, k, value)
    if isinstance(value, dict):  # a subgraph
        return [f"attr_set({n},{k},graph)."]
    if isinstance(value, TensorInfo):  # a type (Optional's): what a declaration says
        return type_attr_facts(n, k, value)
    if isinstance(value, list):
        if 0 < len(value) <= MAX_PACKED_ELEMENTS:
            return [f"attr_list{len(value)}({n},{k},"
                    + ",".join(scalar_term(v, place) for v in value) + ")."]
        out = [f"attr_list({n},{k},{len(value)})."]
        for i, v in enumerate(value):
            out.append(f"attr({n},{k},{i},{scalar_term(v, place)}).")
        return out
    out = [f"attr_set({n},{k},{scalar_term(value, place)})."]
    if isinstance(value, str) and len(value) <= MAX_ATTR_CHARS:
        # rules cannot take strings apart: give them the characters (Einsum's equation)
        out.append(f"attr_len({n},{k},{len(value)}).")
        out.extend(f"attr_char({n},{k},{i},{quote(c)})." for i, c in enumerate(value))
    return out


def type_attr_facts(n: str, k: str, info: TensorInfo) -> list[str]:
    """A type attribute: attr_type(N, Key, D) (D a dtype or `none`), attr_type_seq(N, Key)
    for a sequence type, attr_type_rank/dim for its shape (no dim for a `?`)."""
    out = [f"attr_set({n},{k},type).", f"attr_type({n},{k},{info.dtype or 'none'})."]
    if info.sequence:
        out.append(f"attr_type_seq({n},{k}).")
    if info.shape is not None and info.shape.dims is not None:
        out.append(f"attr_type_rank({n},{k},{len(info.shape.dims)}).")
        out.extend(f"attr_type_dim({n},{k},{i},{int_text(d.value)})."
                   for i, d in enumerate(info.shape.dims) if d.is_int)
    return out


def tensor_attr_facts(n: str, k: str, arr: np.ndarray) -> list[str]:
    dt = dtype_of_array(arr)
    flat = arr.reshape(-1)
    if arr.ndim <= 1 and flat.size == 1:  # Constant's and ConstantOfShape's usual value
        v = _element_terms(dt, flat)
        if v:
            return [f"attr_single({n},{k},{dt},{arr.ndim},{v[0]})."]
    if arr.ndim <= MAX_PACKED_ATTR_RANK:
        out = [f"attr_tensor{arr.ndim}({n},{k},{dt}"
               + "".join("," + int_text(d) for d in arr.shape) + ")."]
    else:
        out = [f"has_attr({n},{k}).", f"attr_dtype({n},{k},{dt}).",
               f"attr_rank({n},{k},{arr.ndim})."]
        out.extend(f"attr_dim({n},{k},{i},{int_text(d)})." for i, d in enumerate(arr.shape))
    out.extend(f"attr_value({n},{k},{i},{v})." for i, v in enumerate(_element_terms(dt, flat)))
    return out


def _element_terms(dt: str, flat: np.ndarray) -> list[str]:
    """The terms of a small integer or bool (1, 0) tensor's elements (or a tiny float
    one's), row-major; none for a larger one."""
    # (elements as Python scalars at once: iterating an array makes a NumPy scalar of each)
    if dt in INTEGER_DTYPES and flat.size <= MAX_VALUE_ELEMENTS:
        return [int_text(int(v)) for v in flat.tolist()]
    if dt in ("f16", "bf16", "f32", "f64") and flat.size <= MAX_REAL_ELEMENTS:
        return [f'real("{float(v)!r}")' for v in flat.tolist()]
    return []


class _AttrPlace:
    """`nodes[i] "name".attrs.key`, written only if an error names it."""

    __slots__ = ("node", "key")

    def __init__(self, node: Node, key: str):
        self.node, self.key = node, key

    def __str__(self):
        return f"{self.node.place}.attrs.{self.key}"


def scalar_term(v: Any, place) -> str:
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
    raise InputError(f"unsupported attribute value {v!r}", place=str(place))
