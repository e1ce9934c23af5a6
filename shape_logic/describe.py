"""Describing one conflict from its minimal core: where it shows, the two values, what
each side says (the core solved again without the primary node), the labels, the core
entries, and a repair hint found by the solver."""
from __future__ import annotations

import re

import clingo

from .decode import decode
from .diagnostics import (Diagnostic, check_name, plain_text, reason_order, tensor_label,
                          why_text)
from .errorcodes import code_for
from .explain import distances_from, near_ends
from .asp.terms import quote
from .clash_positions import constrained, parameters, positions_of
from .core_labels import SECTION, node_labels, producer_labels
from .neighbourhood import upstream_sources
from .shapes import format_shape

MAX_HINT_NODES = 20000  # each hint candidate is one more solve


def subject(place: clingo.Symbol) -> tuple[str | None, str | None]:
    """The tensor (or node) a conflicting place is about."""
    args = place.arguments
    if place.name in ("dim", "rank", "dtype", "value") and args[0].type == clingo.SymbolType.String:
        return args[0].string, None
    if place.name == "node":
        return None, args[0].string
    if place.name == "equal" and args[0].arguments:
        inner = args[0].arguments[0]
        if inner.type == clingo.SymbolType.String:
            return None, inner.string
    return None, None


# ----- describing one conflict

# a diagnostic lists at most this many tensors as the rest of the graph gives them
MAX_CONTEXT_NOTES = 8


def describe(problem, place, core, sub_atoms, finder, minimal=True, whole=None,
             blame=None) -> tuple[Diagnostic, set]:
    """The diagnostic, and the sources to switch off so that this error is not seen again
    downstream (block it: its primary node, or its declarations when no node is involved).
    `whole` is the whole graph when `problem` is a neighbourhood of it; `blame` (kind,
    name) names the declaration in error (diagnose._one_declaration_behind)."""
    graph = problem.graph
    values = _values_at(place, sub_atoms)
    local = core
    if not minimal:  # only the parts near the conflict and where the flows meet were
        # shrunk (explain.near_ends): name the place from them
        tensor0, node0 = subject(place)
        local = near_ends(graph, core, distances_from(graph, tensor0, node0))
    declared = blame or _contradicted_declaration(graph, local, sub_atoms)
    primary = None if declared else _primary_node(graph, local, place, core, finder, minimal)
    tensor, axis = _where_it_shows(place, primary, sub_atoms)
    diag = Diagnostic(code_for(place, values), "", tensor=tensor, axis=axis, values=values)
    if declared:
        before = _shapes_without(problem, core, finder, drop_declaration=declared)
        kind, name = declared
        info = declared_info(graph, kind, name)
        if place.name == "dtype" and len(values) == 2 and info.dtype in values:  # (shapes agree)
            diag.message = (f"`{name}` is declared {info.dtype} but the graph gives "
                            f"{values[1] if values[0] == info.dtype else values[0]}")
        else:
            gives = before.get(name) or _axis_given(graph, kind, name, place, values)
            diag.message = (f"`{name}` is declared {_declared_shape(graph, kind, name)} but "
                            f"the graph gives {gives}")
        diag.place = f"{graph.path or '<graph>'}: {SECTION[kind]}.{name}"
        # (a dtype's error: without the declaration its shape may be unknown, `x : ?`)
        diag.labels = producer_labels(graph, name, core, before) if name in before else []
    else:
        before = _shapes_without(problem, core, finder, drop_node=primary)
        diag.place = _where(graph, primary, core)
        diag.labels = node_labels(graph, primary, core, before)
        diag.message = _message(place, values, primary, before, parameters(graph),
                                constrained(graph, core, primary))
    if len(values) == 2 and values[1] not in ("negative", "invalid") and \
            not values[1].startswith("axis("):
        diag.notes.append(f"{values[0]} != {values[1]}")
    bindings = _bindings(graph, sub_atoms, values)
    if bindings:
        diag.notes.append("with " + ", ".join(f"{s} = {v}" for s, v in bindings.items()))
        if whole is None:  # (where the graph fixes them: prefixes of the whole graph)
            from .binding_origin import origin_note
            origin = origin_note(problem, bindings, getattr(finder, "allowance", None))
            if origin:
                diag.notes.append(origin)
    # a hint must make the whole graph solve: only checked when the problem is the whole graph
    hint = _repair_hint(problem, core, finder) if whole is None else None
    if hint:
        diag.notes.append(hint)
    diag.core = core_entries(graph, local)
    diag.context = len(core_entries(graph, core)) - len(diag.core)
    context = sorted({s.arguments[1].string for s in core if s.arguments[0].name == "ctx"})
    if context:
        given = {s.arguments[1].string for s in core
                 if s.arguments[0].name == "ctx" and s.arguments[2].name == "data"}
        # (the latest in the graph first, nearest the error: a size carried far had 30)
        order = {t: i for i, t in enumerate(graph.tensors())}
        shown = sorted(context, key=lambda t: -order.get(t, -1))[:MAX_CONTEXT_NOTES]
        diag.notes.extend(f"`{t}` : {before.get(t, '?')}"
                          f"{_context_values(problem, t) if t in given else ''}"
                          " as the rest of the graph gives it" for t in shown)
        if len(context) > len(shown):
            more = len(context) - len(shown)
            diag.notes.append(f"and {more} more tensor as the rest of the graph gives it"
                              if more == 1 else f"and {more} more tensors as the rest of "
                              "the graph gives them")
        diag.context += upstream_sources(whole or graph, context)
    if primary is not None:
        blocked = {s for s in core if s.arguments[0].name == "node"
                   and s.arguments[1].string == primary.name}
    elif declared:
        # the declared shape as a whole, its rank too (a wrong rank and a wrong dim of one
        # declaration, [1, 512, 29, 28] for a [512], were two errors, each with its core)
        blocked = {s for s in finder.sources
                   if (s.arguments[0].name, s.arguments[1].string) == declared and
                   (s in core or s.arguments[2].name != "dtype")}
    else:
        blocked = {s for s in core if s.arguments[0].name != "ctx"}
    return diag, blocked


def _values_at(place, sub_atoms) -> list[str]:
    """The colliding values at `place` (a node's reason: other than an axis out of range,
    by diagnostics.reason_order)."""
    found = [c for c in sub_atoms.conflicts if c.arguments[0] == place]
    if not found:
        return []
    c = min(found, key=lambda c: reason_order(place, c.arguments[1]))
    return [plain_text(c.arguments[1]), plain_text(c.arguments[2])]


def _contradicted_declaration(graph, core, sub_atoms):
    """An annotation (or declared output) in the core whose tensor is a conflicting place."""
    clashing = {c.arguments[0].arguments[0].string for c in sub_atoms.conflicts
                if c.arguments[0].name in ("dim", "rank", "dtype") and
                c.arguments[0].arguments[0].type == clingo.SymbolType.String}
    order = {t: i for i, t in enumerate(graph.tensors())}
    found = sorted({(s.arguments[0].name, s.arguments[1].string) for s in core
                    if s.arguments[0].name in ("ann", "output") and
                    s.arguments[1].string in clashing}, key=lambda kn: order.get(kn[1], 0))
    return found[-1] if found else None


def _axis_given(graph, kind, name, place, values) -> str:
    """What the graph gives a declared tensor the core gives no shape (an LSTM's y
    declared [batch, seq, 5], the clash shown at its head's bias [4]): the other value
    at the one declared axis holding either, else 'another shape'."""
    info = declared_info(graph, kind, name)
    dims = info.shape.dims if info is not None and info.shape is not None else None
    if dims is None or len(values) != 2:
        return "another shape"
    axes = [i for i, d in enumerate(dims) if str(d) in values]
    if place.name == "dim" and place.arguments[0].string == name and \
            place.arguments[1].type == clingo.SymbolType.Number:
        axes = [place.arguments[1].number]  # (the clash shows at the declared tensor)
    if len(axes) != 1 or axes[0] >= len(dims) or str(dims[axes[0]]) not in values:
        return "another shape"
    other = values[1] if values[0] == str(dims[axes[0]]) else values[0]
    return f"{other} at axis {axes[0]}"


def _context_values(problem, tensor: str, most: int = 16) -> str:
    """` = [0, 0, 1, 1]`: the values a neighbourhood's context gives `tensor` (its sourced
    facts, neighbourhood.context_facts), when it gives each of at most `most`; else ''."""
    found = dict(re.findall(rf'given_value\({re.escape(quote(tensor))},(\d+),(.+?),src\(ctx,',
                            problem.context))
    if not found or len(found) > most or set(found) != {str(i) for i in range(len(found))}:
        return ""
    return " = [" + ", ".join(found[str(i)] for i in range(len(found))) + "]"


def declared_info(graph, kind, name):
    """The TensorInfo a declaration source names (kind: ann, output, input, init)."""
    return {"ann": graph.annotations, "output": graph.outputs, "input": graph.inputs,
            "init": graph.initializers}[kind].get(name)


def _declared_shape(graph, kind, name) -> str:
    info = declared_info(graph, kind, name)
    if info is None or info.shape is None:
        return f"a {info.dtype} tensor" if info is not None and info.dtype else "otherwise"
    text = str(info.shape)
    return f"{text} ({info.dtype})" if info.dtype else text


def _primary_node(graph, core, place, whole=None, finder=None, minimal=True):
    """Where the clash shows: the node a place names, else the last in graph order of the
    core's sinks (no node of the core reads their outputs: where the two flows of values
    meet, for a feed-forward graph), one that reads or makes the place's tensor if any
    does (a HF MobileNetV2's first Conv, not a Constant of its ninth layer that the
    exporter shared with the first one's padding); None for a core of no node. `core` is
    the part shown of a core carried far (not `minimal`, the `whole` core: its far end
    may be no side of the clash); such a sink must be one without which the whole core
    clears, else the core's readers or makers of the place's tensor are tried (a HF T5
    whose encoder's heads went wrong showed the clash at its relative attention table and
    named the decoder's last LayerNorm's Div, Sqrt and Constant, one diagnostic each)."""
    tensor, node_name = subject(place)
    if node_name is not None:  # (a body's node too: its reason is said with its op)
        return next((n for n in graph.nodes + graph.body_nodes if n.name == node_name), None)
    in_core = {s.arguments[1].string for s in core if s.arguments[0].name == "node"}
    nodes = [n for n in graph.nodes if n.name in in_core]
    read = {t for n in nodes for t in n.inputs if t}
    # the core's sinks (no node of it reads their outputs: where flows end and meet)
    sinks = [n for n in nodes if not any(t in read for t in n.outputs if t)]

    def at_tensor(n) -> bool:  # (reads or makes the place's tensor)
        return tensor is not None and (tensor in n.inputs or tensor in n.outputs)

    near = [n for n in sinks if at_tensor(n)]
    first = (near or sinks)[-1] if sinks else None
    if minimal or first is None or finder is None or _needed(first, place, whole, finder):
        return first
    return next((n for n in reversed(nodes) if at_tensor(n) and _needed(n, place, whole, finder)),
                first)


def _needed(node, place, core, finder) -> bool:
    """Whether `core` without `node` leaves the clash at `place` (one solve)."""
    rest = {s for s in core if not (s.arguments[0].name == "node" and
                                    s.arguments[1].string == node.name)}
    return place not in finder.conflict_places(rest)


def _where_it_shows(place, primary, sub_atoms):
    """The tensor and axis to name: a clashing axis of the primary node's tensors if any."""
    if primary is not None:
        tensors = [t for t in primary.inputs + primary.outputs if t]
        for c in sorted(sub_atoms.conflicts, key=str):
            w = c.arguments[0]
            if w.name == "dim" and w.arguments[0].type == clingo.SymbolType.String \
                    and w.arguments[0].string in tensors:
                return w.arguments[0].string, w.arguments[1].number
    tensor, _ = subject(place)
    axis = place.arguments[1].number if place.name in ("dim", "value") and \
        place.arguments[1].type == clingo.SymbolType.Number else None
    return tensor, axis


def _where(graph, primary, core) -> str:
    file = graph.path or "<graph>"
    if primary is not None:
        return f"{file}: {primary.place}"
    decl = sorted(s for s in core if s.arguments[0].name not in ("node", "ctx"))
    if decl:
        return f"{file}: {_source_text(decl[0])}"
    return file


def _shapes_without(problem, core, finder, drop_node=None, drop_declaration=None) -> dict:
    """Shapes from the core with the primary node (or the contradicted declaration) left
    out: what each side says. Declarations in view are shown whole (all their parts)."""
    declared = {(s.arguments[0].name, s.arguments[1].string) for s in core
                if s.arguments[0].name != "node"}
    if drop_node is not None:
        declared |= {(k, t) for t in drop_node.inputs + drop_node.outputs if t
                     for k in ("input", "init", "ann", "output")}
    rest = {s for s in finder.sources
            if (s.arguments[0].name, s.arguments[1].string) in declared
            or (s.arguments[0].name == "node" and s in core)}
    if drop_node is not None:
        rest = {s for s in rest if not (s.arguments[0].name == "node"
                                        and s.arguments[1].string == drop_node.name)}
    if drop_declaration is not None:
        rest = {s for s in rest if (s.arguments[0].name, s.arguments[1].string)
                != drop_declaration}
    wanted = {t for _, t in declared}
    if drop_node is not None:
        wanted.update(t for t in drop_node.inputs + drop_node.outputs if t)
    core_nodes = {s.arguments[1].string for s in core if s.arguments[0].name == "node"}
    wanted.update(t for n in problem.graph.nodes if n.name in core_nodes for t in n.inputs if t)
    atoms = finder.view(rest, wanted)
    decoded = decode(problem.graph, atoms)
    # a dim nothing in view determines reads better as '?' than as a fresh name
    return {t: "[" + ", ".join("?" if any(x.startswith("_") for x in d.symbols()) else str(d)
                               for d in sh.dims) + "]"
            for t, sh in decoded.shapes.items() if sh is not None}


def _message(place, values, primary, before, parameters=frozenset(),
             constrained=None) -> str:
    kind = place.name
    what = f'{primary.op} "{primary.name}"' if primary is not None else "the graph"
    a, b = (values + ["?", "?"])[:2]
    if kind == "dim":
        t, i = tensor_label(place.arguments[0]), place.arguments[1].number
        if b == "negative":
            return f"{what} makes axis {i} of `{t}` negative ({a})"
        pair = positions_of(primary, before, a, b, parameters, constrained,
                             (subject(place)[0], i))
        if pair:
            return f"{what} needs {pair[0]} == {pair[1]}"
        return f"{what} gives axis {i} of `{t}` two sizes: {a} and {b}"
    if kind == "rank":
        t = tensor_label(place.arguments[0])
        if b.startswith("axis("):
            return f"{what} uses axis {b[5:-1]} of `{t}`, which has rank {a}"
        return f"{what} gives `{t}` two ranks: {a} and {b}"
    if kind == "dtype":
        return f"{what} needs `{tensor_label(place.arguments[0])}` to be both {a} and {b}"
    if kind == "value":
        return f"{what} gives element {place.arguments[1]} of " \
               f"`{tensor_label(place.arguments[0])}` two values: {a} and {b}"
    if kind == "equal":
        return f"{what} needs equal {check_name(place.arguments[0])}: {a} and {b}"
    if kind in ("symbol", "range"):
        return f"symbol `{place.arguments[0].string}` would be both {a} and {b}"
    if kind == "node":
        return f"{what}: {why_text(values[0] if values else '')}"
    if kind == "label":
        return f"{what} makes axis {place.arguments[1]} of `{tensor_label(place.arguments[0])}` " \
               f"carry two labels: {a} and {b}"
    return f"{what} is inconsistent at {place}"


def _bindings(graph, sub_atoms, values) -> dict:
    """The inputs' and annotations' names the answer binds: name -> value (an Expr)."""
    from .decode import Resolver
    from .symbolic.expr import Expr

    resolve = Resolver(sub_atoms.binds)
    # (a symbol in the colliding values is left unbound there: a binding of it, which
    # the collision itself made - 2*s beside s, at s = 1 from elsewhere, gave s = 2 -
    # would contradict them)
    shown = {name for v in values for name in re.findall(r"[A-Za-z_][\w.]*", v)}
    return {s: resolve(Expr.sym(s)) for s in sorted(sub_atoms.binds)
            if graph.symbol_class.get(s, 2) < 2 and s not in shown}


def _repair_hint(problem, core, finder) -> str | None:
    """The smallest change to one declaration that makes the whole graph solve, if any."""
    graph = problem.graph
    if len(graph.nodes) > MAX_HINT_NODES:
        return None
    preference = {"ann": 0, "output": 0, "input": 1}
    decls = sorted({(s.arguments[0].name, s.arguments[1].string) for s in core
                    if s.arguments[0].name in preference},
                   key=lambda kn: (preference[kn[0]], kn[1]))
    for kind, name in decls[:3]:
        dropped = {s for s in finder.sources if (s.arguments[0].name, s.arguments[1].string)
                   != (kind, name) or s.arguments[2].name == "dtype"}
        atoms = finder.view(dropped, [name])
        if atoms.conflicts:
            continue
        shape = decode(graph, atoms).shapes.get(name)
        # a hint names a shape the graph determines (no fresh names), or nothing
        if shape is not None and not any(x.startswith("_") for x in shape.symbols()):
            return f"help: if `{name}` were {format_shape(shape.parts)}, the graph would solve"
    return None


def core_entries(graph, core) -> list[dict]:
    """The core as INTERFACE §5 lists it: declarations in tensor order, then nodes in graph
    order."""
    kinds = {"node": "node", "input": "input", "init": "input", "ann": "annotation",
             "output": "annotation"}
    tensor_pos = {t: i for i, t in enumerate(graph.tensors())}
    node_pos = {n.name: i for i, n in enumerate(graph.nodes)}

    def position(s):
        kind, name = s.arguments[0].name, s.arguments[1].string
        return (1, node_pos.get(name, 0)) if kind == "node" else (0, tensor_pos.get(name, 0), kind)

    seen, out = set(), []
    for s in sorted((s for s in core if s.arguments[0].name in kinds), key=position):
        entry = (kinds[s.arguments[0].name], s.arguments[1].string, s.arguments[0].name)
        if entry[:2] not in seen:
            seen.add(entry[:2])
            out.append({"kind": entry[0], "name": entry[1], "source": _source_text(s)})
    return out


def _source_text(s: clingo.Symbol) -> str:
    kind, name = s.arguments[0].name, s.arguments[1].string
    section = {"input": "inputs", "init": "initializers", "ann": "annotations",
               "output": "outputs"}.get(kind)
    return f'node "{name}"' if kind == "node" else f"{section}.{name}"
