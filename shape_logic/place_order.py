"""The order in which a diagnosis takes the places where values collide (diagnose.py):
earliest in the data flow first (flow_positions), those that only a binding of colliding
values made last."""
from __future__ import annotations

import clingo

from .describe import subject
from .neighbourhood import distances_from_nearest


def places_in_order(graph, conflicts, binds=None, first=frozenset()) -> list[clingo.Symbol]:
    """The places of `conflicts`, earliest in the data flow first (flow_positions); after
    them those whose values hold what a binding (`binds`: symbol -> values) put in place
    of a symbol. Once two sizes collide, an equation between their consequences may bind a
    symbol before the arithmetic stops: past_k with 4 heads for the graph's 2 gave
    32*b*(p + s) = 64*b*(p + s), so seq = 0 - past_seq, and 113 places from it, the input
    x's first: five diagnostics about x came before the Concat's 4 != 2. The places at
    tensors `first` come before all others."""
    order = flow_positions(graph)
    # a node's place: where its last input is (one scale with the tensors'), so that a
    # node's own reason comes before a clash its rules make at its inputs, working a size
    # back from its output (SpaceToDepth's 5 rows for blocksize 2: "two sizes: 4 and 5" at
    # the input); a node without inputs, where its first output is
    node_pos = {n.name: max((order.get(t, len(order)) for t in n.inputs if t), default=order.get(
        next((t for t in n.outputs if t), ""), len(order))) for n in graph.nodes}

    def key(place):
        tensor, node = subject(place)
        virtual = place.arguments and place.arguments[0].type != clingo.SymbolType.String \
            and place.name in ("dim", "rank", "dtype", "value")
        pos = order.get(tensor, len(order)) if tensor else node_pos.get(node, len(order))
        priority = {"node": 0, "rank": 1, "dtype": 2, "dim": 3}.get(place.name, 4)
        return (tensor not in first, place in carried, virtual, pos, priority, str(place))

    carried = carrying_bound_values(conflicts, binds or {})
    return sorted({c.arguments[0] for c in conflicts}, key=key)


def flow_positions(graph) -> dict[str, int]:
    """Each tensor's place in the data flow: its index in graph.tensors(), but a constant
    made from constants alone (or an initializer only such nodes read) takes the place of
    the first node that reads it with data, where it enters the flow. onnx's light models
    make every weight by ConstantOfShape from a shape initializer, and DenseNet-121 lists
    all 836 such nodes before its first Conv: a Concat along the height (its inputs' 320
    and 32 channels clash) had its conflicts at later layers' weights first, in the
    model's order, and five diagnostics there without a minimal core, none naming it."""
    order: dict[str, int] = {}
    for i, name in enumerate(graph.tensors()):
        order.setdefault(name, i)
    constant = {t for t in graph.initializers if t not in graph.inputs}
    for n in graph.nodes:  # (in the graph's order: a node after its inputs' makers)
        if all(t in constant for t in n.inputs if t) and not n.bodies:
            constant.update(t for t in n.outputs if t)
    # (an initializer a node reads with data keeps its place, as an input's: only those
    # that go into constants alone move, a ConstantOfShape's shape)
    readers = graph.readers()
    made = {t for t in constant if t not in graph.initializers or all(
        o in constant for r in readers.get(t, ()) for o in r.outputs if o)}
    entered: dict[str, int] = {}
    for n in reversed(graph.nodes):  # (readers first: a constant read by constants)
        outputs = [entered.get(t, order[t]) for t in n.outputs if t]
        if not outputs:
            continue
        at = min(outputs)
        for t in n.inputs:
            if t in made and at < entered.get(t, len(order)):
                entered[t] = at
    return {**order, **entered}


def carrying_bound_values(conflicts, binds) -> set:
    """The places of the conflicts whose values hold an expression a binding put in place of
    its symbol (one of two or more terms: a binding to a name or a number is no sign)."""
    values = {str(e) for found in binds.values() for e in found
              if not e.is_int and len(e.symbols()) > 0 and str(e) not in e.symbols()}
    if not values:
        return set()
    return {c.arguments[0] for c in conflicts
            if any(v in str(a) for a in c.arguments[1:] for v in values)}


def in_order(places, found) -> list:
    """`found` in the order of `places` (others last)."""
    rank = {p: i for i, p in enumerate(places)}
    return sorted(found, key=lambda p: (rank.get(p, len(rank)), str(p)))


def near_odd_value(graph, conflicts, places, off=frozenset()):
    """Of `places`, the one nearest (in nodes and tensors) to the declarations of its odd
    value, or None: where two integers collide, the one fewer inputs' and initializers'
    declared sizes hold (those whose sizes are not switched off, `off`) is out of place,
    and its error is where it enters. A MatMul weight declared [33, 64] on a stream of 32
    collides at every tensor of the stream, the earliest far from the weight; the place
    next to it is the MatMul's input."""
    count: dict = {}
    holders: dict = {}
    for kind, declared in (("input", graph.inputs), ("init", graph.initializers)):
        for name, info in declared.items():
            source = clingo.Function("src", [clingo.Function(kind), clingo.String(name),
                                             clingo.Function("dims")])
            if info.shape is None or info.shape.dims is None or source in off:
                continue
            for d in {d.value for d in info.shape.dims if d.is_int}:
                count[d] = count.get(d, 0) + 1
                holders.setdefault(d, set()).add(name)
    wanted = set(places)
    starts: dict = {}  # place -> the tensors declaring its odd value
    for c in conflicts:
        place, a, b = c.arguments[0], c.arguments[1], c.arguments[2]
        if place not in wanted or a.type != b.type or a.type != clingo.SymbolType.Number:
            continue
        odd, other = sorted((a.number, b.number), key=lambda v: count.get(v, 0))
        if 0 < count.get(odd, 0) < count.get(other, 0):
            starts.setdefault(place, set()).update(holders[odd])
    if not starts:
        return None
    dist = distances_from_nearest(graph, [("t", t) for t in set().union(*starts.values())])

    def far(place):
        tensor, node = subject(place)
        return dist.get(("t", tensor) if tensor is not None else ("n", node), len(dist))

    rank = {p: i for i, p in enumerate(places)}  # (ties: the earlier in `places`)
    return min(starts, key=lambda p: (far(p), rank[p]))

