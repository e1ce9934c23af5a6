"""Which dims an inconsistent graph's table prints as `?`.

- An axis where two values clash (`conflict(dim(T, I), A, B)`): each value holds in some
  reading of the graph, neither in all, so neither is printed.
- Every axis of an invalid node's outputs (`invalid(N, Why)`: an attribute, an input count,
  an operand kind its operator does not take). The node cannot run, so its outputs have
  no size at all; what the rules derived for them assumes a node that could (Reshape's
  sizes of a target with a bad entry, Conv's of pads of the wrong length) and no reading
  of the graph gives it. Their rank stays: the table still shows where they are. So do
  the tensors the graph computes from them (a Relu after a Softmax of a bad axis): no
  reading of the graph gives those a size either. (A clash is not followed downstream:
  each of its values holds in some reading, and so do the sizes computed from it.)

A body's conflicts count too, in a body that may not run (scopes.py): its tensors would
have no size where it ran.
"""
from __future__ import annotations

from itertools import chain

import clingo

_STRING = clingo.SymbolType.String


def conflicted_axes(graph, atoms, shapes: dict) -> set:
    """(tensor, axis) pairs to print as `?`; `shapes` the decoded ones (tensor -> Shape)."""
    axes = set()
    invalid = set()
    for c in chain(atoms.conflicts, (c for _, c in atoms.scope_conflicts)):
        where = c.arguments[0]
        if not where.arguments or where.arguments[0].type != _STRING:
            continue
        if where.name == "dim":
            axes.add((where.arguments[0].string, where.arguments[1].number))
        elif where.name == "node" and c.arguments[2].name == "invalid":
            invalid.add(where.arguments[0].string)
    if invalid:
        for t in _computed_from(graph, invalid):
            shape = shapes.get(t)
            if shape is not None and shape.rank is not None:
                axes.update((t, i) for i in range(shape.rank))
    return axes


def _computed_from(graph, invalid: set) -> set:
    """The outputs of the `invalid` nodes, and the tensors the graph's nodes compute from
    them (in whatever order the file lists the nodes); a body's node: its own outputs."""
    out = {t for n in chain(graph.nodes, graph.body_nodes) if n.name in invalid
           for t in n.outputs if t}
    readers = graph.readers()
    todo = list(out)
    while todo:
        for node in readers.get(todo.pop(), ()):
            for t in node.outputs:
                if t and t not in out:
                    out.add(t)
                    todo.append(t)
    return out
