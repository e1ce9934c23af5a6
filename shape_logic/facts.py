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

import numpy as np

from .graph import INTEGER_DTYPES, Graph, TensorInfo, dtype_of_array
from .asp.terms import expr_fact_text, quote
from .scopes import Scopes
from .errors import InputError
from .node_facts import MAX_PACKED_ELEMENTS, element_terms, node_facts



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
    # integer inputs the graph reads: a node may read their elements as sizes (counts.lp)
    head.extend(f"graph_input({quote(t)})." for t, info in graph.inputs.items()
                if info.dtype in SIZE_DTYPES and info.data is None and not info.sequence
                and not info.optional and t not in graph.initializers)
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


# the element types whose values may be sizes (a graph input's: graph_input facts): the
# whole-byte integers
SIZE_DTYPES = INTEGER_DTYPES - {"bool", "i4", "u4", "i2", "u2"}

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
    values = element_terms(dt, flat)
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
