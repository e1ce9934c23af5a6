"""Concat chains (a rewrite the executor makes once, before any run): Concats that each
take the one before as their first input, along the same axis (DenseNet's dense
blocks), fill one buffer in turn instead of copying everything joined so far at every
link (kernels/Concat.py: `reserve` on the head, `extends` on the links).

A link is made only where it cannot overwrite what anything reads: the tensor it
extends is read by no other Concat (other readers, and a graph output's user, only read
it: the link writes past its end), and the chain's last tensor has a concrete solved
size along the axis (the buffer's size, allocated by the head on every run).
"""
from __future__ import annotations

from .exec_rewrite import readers_and_producers


def chain_concats(steps, dims_of) -> list:
    """`dims_of(tensor)`: its solved dims as a tuple of ints, or None."""
    readers, producer = readers_and_producers(steps)  # (bodies' outer reads count)
    after = {}  # id(link) -> the Concat step it extends
    for step in steps:
        node = step.node
        if node.op != "Concat" or len(node.inputs) < 2 or not node.outputs[0]:
            continue
        t = node.inputs[0]
        prev = producer.get(t)
        if prev is None or prev.node.op != "Concat" or t in node.inputs[1:] \
                or sum(r.node.op == "Concat" for r in readers.get(t, [])) != 1:
            continue
        rank = len(dims_of(t) or ())
        if not rank or _axis(prev, rank) != _axis(step, rank):
            continue
        after[id(step)] = prev
    extended = {id(p) for p in after.values()}
    for step in steps:  # from each chain's tail back to its head
        if id(step) not in after or id(step) in extended:
            continue
        dims = dims_of(step.node.outputs[0])
        if dims is None:
            continue
        total = dims[_axis(step, len(dims))]
        link = step
        while id(link) in after:
            link.kernel.extends = True
            link = after[id(link)]
        link.kernel.reserve = total
    return steps


def _axis(step, rank: int) -> int:
    axis = step.kernel.kw["axis"]
    return axis + rank if axis < 0 else axis
