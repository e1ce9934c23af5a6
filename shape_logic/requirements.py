"""What a graph requires of its input dims beyond equations, as the decoder reads it back:
ranges and floors with the node that bounds them (range_from/3, floor_from/3), the shapes
printed under the ranges, and inequalities of several symbols (requires_le/3); and all a
solve requires of the inputs' symbols, as text (input_requirements: narrowing.py compares
a declaration's with the graph's own, repair.py a changed node's).

A learned position table bounds the sequence a model runs: BERT's 64 positions sliced to
the sequence and added to it broadcast only where seq <= 64 (encodings/broadcast.lp's
@broadcast_range), GPT-2's gathered by arange(seq) only where seq <= 64 and, over a KV
cache, by arange(past, past + seq) only where past + seq <= 64 (floors.lp's at_most).
"""
from __future__ import annotations

from .shapes import Shape
from .symbolic.bounds import bounds
from .symbolic.divisibility import condition_of
from .symbolic.expr import ExprOverflow
from .symbolic.respell import respelled, respelling_rules


def range_origins(found: dict, ranges: dict, as_constraint) -> dict:
    """Symbol -> the tensor whose node gives its range's upper end (the first by name of
    those that do: a BERT's position table added to the sequence, `seq <= 64`), or else
    the equation that confines it, (A, B) as `as_constraint` states it (fused DistilBERT's
    position ids against its input ids, `min(64, seq) = seq`)."""
    out = {}
    for s, (_, hi) in ranges.items():
        places = [p for h, p in found.get(s, ()) if h == hi]
        tensors = sorted(p for p in places if isinstance(p, str))
        equations = _equations(places, as_constraint)
        if tensors or equations:
            out[s] = tensors[0] if tensors else equations[0]
    return out


def floor_origins(found: dict, floors: dict, graph, as_constraint) -> dict:
    """Symbol -> what requires its floor: a tensor whose node does (a convolution's output:
    its window must fit), the earliest in the graph's order of those that do, or else an
    equation that could not be solved, (A, B) as `as_constraint` states it (a Reshape into
    windows of 4: `h >= 4` by `16*(h//4)*(w//4) = h*w`, printed as the condition on h it
    amounts to, `h%4 = 0`; such an equation has no one node, its values meet wherever the
    graph joins them again)."""
    made = {}  # tensor -> the place of its node in the graph's order
    for i, n in enumerate(graph.nodes):
        for t in n.outputs:
            if t:
                made.setdefault(t, i)
    out = {}
    for s, v in floors.items():
        places = [p for f, p in found.get(s, ()) if f == v]
        nodes = sorted((made[p], p) for p in places if isinstance(p, str) and p in made)
        if nodes:
            out[s] = nodes[0][1]
            continue
        equations = _equations(places, as_constraint)
        if equations:
            # (one that amounts to divisibility conditions: the symbol's own, `h >= 4` by
            # `h%4 = 0`, as the constraints print it)
            out[s] = condition_of(s, *equations[0]) or equations[0]
    return out


def _equations(places, as_constraint) -> list:
    """The equations among a requirement's places, ("equation", E1, E2), each (A, B) as
    `as_constraint` states it (those that state nothing left out), in a fixed order."""
    return sorted(filter(None, (as_constraint(p[1], p[2]) for p in places
                                if isinstance(p, tuple))), key=str)


def under_ranges(shapes: dict, ranges: dict) -> dict:
    """The shapes with the max and min arguments that the ranges dominate dropped: every
    run has each symbol in its range, so BERT's 64 learned positions sliced to the
    sequence, `min(64, seq)` rows, are `seq` rows where seq in 1..64 (asp/floors.py's
    simplification, under the ranges' ends as floors and ceilings)."""
    from .asp.floors import Floors

    under = Floors({s: lo for s, (lo, _) in ranges.items() if lo > 1},
                   {s: hi for s, (lo, hi) in ranges.items() if hi >= lo})
    return _each_dim(shapes, under.simplified)


def respelled_shapes(shapes: dict, equations: list) -> dict:
    """The shapes with c times a coarser floor printed as the finer one where the graph
    requires them equal (symbolic/respell.py: YOLOv8's anchors of the stride-8 level,
    `4*((h + 15)//16)*((w + 15)//16)`, are `((h + 7)//8)*((w + 7)//8)`)."""
    rules = respelling_rules(equations)
    return _each_dim(shapes, lambda d: respelled(d, rules)) if rules else shapes


def _each_dim(shapes: dict, f) -> dict:
    """The shapes with f applied to each dim (once per distinct Shape: most tensors share
    a few), a Shape kept where nothing changed."""
    simpler: dict = {}  # id(Shape) -> the Shape simplified
    out = {}
    for t, shape in shapes.items():
        if shape is None or shape.dims is None:
            out[t] = shape
            continue
        new = simpler.get(id(shape))
        if new is None:
            try:
                dims = tuple(f(d) for d in shape.dims)
            except ExprOverflow:
                dims = shape.dims
            new = simpler[id(shape)] = shape if dims == shape.dims else Shape((dims,))
        out[t] = new
    return out


def inequalities(found: list, resolve) -> list:
    """[(A, B, tensor)]: each A <= B that some node requires (after the bindings), one per
    difference B - A, none that holds whatever the symbols (the bounds show B - A >= 0) or
    of integers alone (true, or the node's own reason said so), sorted by text."""
    out: dict = {}
    for a, b, t in found:
        try:
            a, b = resolve(a), resolve(b)
            d = b - a
            if d.is_int or bounds(d)[0] >= 0:
                continue
        except ExprOverflow:
            continue
        if d not in out or t < out[d][2]:
            out[d] = (a, b, t)
    return sorted(out.values(), key=lambda abt: (str(abt[0]), str(abt[1])))


def _input_bindings(graph, decoded) -> dict:
    return {s: v for s, v in decoded.bindings.items() if graph.symbol_class.get(s) == 0}


def input_requirements(graph, decoded) -> list[str]:
    """What a solve requires of the inputs' symbols: bindings, ranges, and equations among
    them alone that it could not solve (each as text: `seq = 5`, `h in 223..224`,
    `3*h*w = b`). An equation that also names a declared output's own symbol (`m*n = k*l`
    for a declared `k*l`) names the dim; it requires nothing of the inputs."""
    inputs = graph.input_symbols()
    out = [f"{s} = {v}" for s, v in _input_bindings(graph, decoded).items()]
    out += [f"{s} in {lo}..{hi}" for s, (lo, hi) in decoded.ranges.items() if s in inputs]
    # (a floor an equation requires that the solve no longer states: E = 2*E as s >= 4,
    # where E is 0 and the equation gone; a convolution's window is the graph's own, and
    # an equation stated below says as much as its floor)
    met = set(decoded.met_constraints)
    out += [f"{s} >= {v}" for s, v in decoded.floors.items() if s in inputs and not (
        isinstance(origin := decoded.floor_origins.get(s), str) or
        isinstance(origin, tuple) and (origin in met or origin[::-1] in met))]
    out += [f"{a} = {b}" for a, b in decoded.met_constraints
            if (a.symbols() | b.symbols()) <= inputs]
    return out
