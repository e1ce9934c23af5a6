"""Which error a clash is: a node's own reason, when the clash's core forces it too."""
from __future__ import annotations

from .describe import subject
from .explain import distances_from


def own_reason_behind(finder, place, core: set, remaining: list):
    """The place of a node of the clash's `core` whose own reason the core forces too, or
    None: the clash is then what its rules make of that reason, working a size back to
    its input. A Pad whose 6 pads give a rank-4 input's rank as 3 (two pads per axis)
    is "it has 6 pads for 4 padded axes", not "Pad gives `x` two ranks: 3 and 4"; a
    Slice with two starts and one end, not "axis 0 of `starts` two sizes: 1 and 2"."""
    if place.name == "node":
        return None
    nodes = {s.arguments[1].string for s in core if s.arguments[0].name == "node"}
    for p in remaining:
        if p.name == "node" and subject(p)[1] in nodes and finder.core(core, p) is not None:
            return p
    return None


def as_own_reason(finder, graph, place, core: set, minimal: bool, candidates: list):
    """(place, core, minimal) of the error to describe: the clash's own, or the reason of
    a node behind it (`own_reason_behind` among `candidates`) with its minimal core within
    the clash's."""
    own = own_reason_behind(finder, place, core, candidates)
    if own is None:
        return place, core, minimal
    own_core, own_minimal = finder.minimal_core(own, distances_from(graph, None, subject(own)[1]),
                                                core)
    return own, own_core, own_minimal
