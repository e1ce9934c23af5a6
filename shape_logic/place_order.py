"""The order in which a diagnosis takes the places where values collide (diagnose.py):
earliest in the graph first, those that only a binding of colliding values made last."""
from __future__ import annotations

import clingo

from .describe import subject


def places_in_order(graph, conflicts, binds=None, first=frozenset()) -> list[clingo.Symbol]:
    """The places of `conflicts`, earliest in the graph first; after them those whose values
    hold what a binding (`binds`: symbol -> values) put in place of a symbol. Once two
    sizes collide, an equation between their consequences may bind a symbol before the
    arithmetic stops: past_k with 4 heads for the graph's 2 gave 32*b*(p + s) =
    64*b*(p + s), so seq = 0 - past_seq, and 113 places from it, the input x's first:
    five diagnostics about x came before the Concat's 4 != 2. The places at tensors `first`
    come before all others."""
    order: dict[str, int] = {}
    for i, name in enumerate(graph.tensors()):
        order.setdefault(name, i)
    # a node's place: where its first output is (one scale with the tensors')
    node_pos = {n.name: order.get(next((t for t in n.outputs if t), ""), len(order))
                for n in graph.nodes}

    def key(place):
        tensor, node = subject(place)
        virtual = place.arguments and place.arguments[0].type != clingo.SymbolType.String \
            and place.name in ("dim", "rank", "dtype", "value")
        pos = order.get(tensor, len(order)) if tensor else node_pos.get(node, len(order))
        priority = {"node": 0, "rank": 1, "dtype": 2, "dim": 3}.get(place.name, 4)
        return (tensor not in first, place in carried, virtual, pos, priority, str(place))

    carried = carrying_bound_values(conflicts, binds or {})
    return sorted({c.arguments[0] for c in conflicts}, key=key)


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
