"""Explaining a conflict in a large graph from its neighbourhood (ASP-NOTES, fix 3).

Grounding the whole graph with every source an `#external` and shrinking a core
there costs seconds per solve on 10k+ nodes. The conflict is local: it shows
between the few nodes around its place. So the explanation is sought in the
nodes within a graph distance of the place, growing the radius until the
conflict shows there.

A neighbourhood alone knows too little: a Reshape's `-1` needs its input's dims,
which come from far upstream. Its boundary tensors - those that also touch nodes
outside - therefore get *context* sources `src(ctx, T, Part)`: the rank, dtype
and dims the fast solve of the whole graph gave them. That keeps the explanation
sound, because every such fact was derived from the graph (the program is
monotone), and it is only ever given where the fast solve found exactly one
value (a position where values clash is left open, so a context source never
carries the conflict itself). A core then reads "these nodes and declarations,
given the shape of `X` as the rest of the graph gives it".
"""
from __future__ import annotations

import dataclasses
from collections import deque

from .asp.terms import expr_fact_text, quote
from .decode import Resolver
from .facts import graph_facts
from .graph import Graph

FIRST_RADIUS = 4  # graph distance in the node/tensor graph: two nodes away
FRESH_OFFSET = 1_000_000  # local fresh names never meet the whole graph's


def graph_distances(graph: Graph, tensor: str | None, node: str | None = None) -> dict:
    """Distance of every reachable ("n", node) and ("t", tensor) from a tensor (or node)."""
    return distances_from_nearest(graph, [("t", tensor) if tensor is not None else ("n", node)])


def distances_from_nearest(graph: Graph, starts: list) -> dict:
    """Distance of every reachable ("n", node) and ("t", tensor) from the nearest of
    `starts` (each such a pair)."""
    adjacent: dict[tuple, list[tuple]] = {}
    for n in graph.nodes:
        for t in n.inputs + n.outputs:
            if t:
                adjacent.setdefault(("n", n.name), []).append(("t", t))
                adjacent.setdefault(("t", t), []).append(("n", n.name))
    dist = {start: 0 for start in starts}
    queue = deque(dist)
    while queue:
        v = queue.popleft()
        for w in adjacent.get(v, ()):
            if w not in dist:
                dist[w] = dist[v] + 1
                queue.append(w)
    return dist


def radii(dist: dict):
    """The radii to try, doubling, up to the farthest node (the whole component)."""
    farthest = max((d for (kind, _), d in dist.items() if kind == "n"), default=0)
    r = FIRST_RADIUS
    while r < farthest:
        yield r
        r *= 2


def local_problem(problem, atoms, decoded, dist: dict, radius: int, values=None):
    """The sub-problem of the nodes within `radius`, with context on its boundary (`values`:
    (tensor, index) -> an element's value, answer_set.grounded_values)."""
    from .rule_selection import select_rules
    from .solver import Problem

    graph = problem.graph
    inside = {name for (kind, name), d in dist.items() if kind == "n" and d <= radius}
    nodes = [n for n in graph.nodes if n.name in inside]
    touched = {t for n in nodes for t in n.inputs + n.outputs if t}
    boundary = {t for n in graph.nodes if n.name not in inside
                for t in n.inputs + n.outputs if t in touched}

    def keep(decls):
        return {k: v for k, v in decls.items() if k in touched}

    sub = dataclasses.replace(
        graph, nodes=nodes, inputs=keep(graph.inputs), outputs=keep(graph.outputs),
        initializers=keep(graph.initializers), annotations=keep(graph.annotations),
        fresh_count=graph.fresh_count + FRESH_OFFSET)
    # (a graph input or initializer on the boundary brings its declaration: as context too,
    # the same sizes would stand in for it in the core - HF MobileNetV2's pixel_values
    # declared with 4 channels was "as the rest of the graph gives it", not the input)
    declared = set(graph.inputs) | set(graph.initializers)
    plain, sourced = context_facts(sorted(boundary - declared), atoms, decoded, values or {})
    rule_files, unknown, foreign = select_rules(sub, problem.rules)
    return Problem(sub, rule_files, graph_facts(sub, foreign=foreign) + plain,
                   problem.rules, {}, context=sourced, unknown=unknown, foreign=foreign)


def context_facts(tensors, atoms, decoded, values: dict, dims: bool = True
                  ) -> tuple[str, str]:
    """What the whole graph's fast solve gave the boundary tensors, as facts: plain (to
    solve) and sourced `src(ctx, T, Part)` (to explain). Only what is unique is given:
    a tensor with two ranks or dtypes, a position whose values clash or mention a symbol
    bound two ways, stays open. Its elements' `values` too (a Pad's pads computed from
    constants an exporter shares with the ninth layer: without them HF MobileNetV2's
    neighbourhood of its first Conv took in 725 sources, 699 not minimized). Without
    `dims`, their dtypes and ranks alone (look_past.py)."""
    plain, sourced = [], []
    resolve = Resolver(atoms.binds)
    torn = {s for s, vs in atoms.binds.items() if len({resolve(v) for v in vs}) > 1}

    def add(pred, args, t, part):
        plain.append(f"{pred}({args}).")
        sourced.append(f"given_{pred}({args},src(ctx,{t},{part})). source(src(ctx,{t},{part})).")

    for name in tensors:
        t = quote(name)
        if len(atoms.dtype.get(name, ())) == 1:
            add("dtype", f"{t},{decoded.dtypes[name]}", t, "dtype")
        shape = decoded.shapes.get(name)
        if shape is None or len(atoms.rank.get(name, ())) != 1:
            continue
        add("rank", f"{t},{len(shape.dims)}", t, "rank")
        for i, d in enumerate(shape.dims if dims else ()):
            raw = atoms.dims.get((name, i), ())
            if (name, i) not in decoded.conflicted and \
                    not any(v.symbols() & torn for v in raw):
                add("dim", f"{t},{i},{expr_fact_text(d)}", t, "dims")
    wanted = set(tensors)
    for (name, i), v in values.items():
        # (a symbolic value with a name bound two ways stays open, as a dim does)
        if name in wanted and not (torn and '"' in v):
            add("value", f"{quote(name)},{i},{v}", quote(name), "data")
    return "\n".join(plain) + "\n", "\n".join(sourced) + "\n"


def upstream_sources(graph: Graph, tensors) -> int:
    """How many nodes and declarations the given tensors' values come from, upstream."""
    producer = graph.producer()
    declared = set(graph.inputs) | set(graph.initializers)
    nodes = graph.ancestors([p for t in tensors if (p := producer.get(t)) is not None],
                            producer=producer)
    read = set(tensors) | {t for n in graph.nodes if n.name in nodes for t in n.inputs}
    return len(nodes) + len(read & declared)
