"""Channel-shuffle fusion (a rewrite the executor makes once, before any run).

ShuffleNet mixes the channels of a grouped convolution's groups with Reshape -> Transpose
-> Reshape: [N, C, H, W] -> [N, g, C/g, H, W] -> [N, C/g, g, H, W] -> [N, C, H, W]. The
result is the Conv's output with its channels reordered, and NumPy can only make it
with a copy (the transposed array is not contiguous). When a Conv's output goes only
through such a chain, the Conv writes its channels in that order itself
(kernels/Conv.py `order`, for ShuffleNet with no extra pass) and the three steps go.

The order is found, not assumed: the chain's three kernels run once on the indices of
the Conv's output, whose shape must be concrete in the solved shapes (inputs are
checked against their shapes before a run, so it is the shape at run time too), and
the rewrite is made only when the result is the same shape with whole channels moved.
The three tensors left unmade are still checked, with the Conv's result: the Conv's
own output has its shape; the two in between, their (concrete) shapes.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from .exec_rewrite import plain

LIMIT = 1 << 22  # elements: larger outputs are not analysed (the index array is int64)


def fuse_conv_shuffle(steps, constants: dict, outputs: set, dims_of) -> list:
    """`dims_of(tensor)`: its solved dims as a tuple of ints, or None when not concrete."""
    readers: dict[str, list] = {}
    for step in steps:
        for t in step.node.inputs:
            if t:
                readers.setdefault(t, []).append(step)
    drop = set()
    for i, conv in enumerate(steps):
        if not plain(conv.node, "Conv") or getattr(conv.kernel, "order", 0) is not None:
            continue
        chain = _chain(conv, readers, constants, outputs)
        if chain is None:
            continue
        first, transpose, last = chain
        shape = dims_of(conv.node.outputs[0])
        order = _order(chain, constants, shape)
        if order is None or None in (dims_of(first.node.outputs[0]),
                                     dims_of(transpose.node.outputs[0])):
            continue
        conv.kernel.order = order
        t0, t1, t2 = (conv.node.outputs[0], first.node.outputs[0], transpose.node.outputs[0])
        node = dataclasses.replace(conv.node, outputs=[last.node.outputs[0]])
        origin = f'{last.origins[0]} (channel shuffle fused into Conv node "{conv.node.name}")'
        carried = conv.aliases[0] if conv.aliases else []
        # the Conv's output has the result's shape; the other two: checked as a shape
        mid = [(t1, first.origins[0], dims_of(t1)), (t2, transpose.origins[0], dims_of(t2))]
        steps[i] = dataclasses.replace(conv, node=node, origins=[origin],
                                       aliases=[carried + [(t0, conv.origins[0])] + mid])
        drop.update(id(s) for s in chain)
    return [s for s in steps if id(s) not in drop]


def _chain(conv, readers: dict, constants: dict, outputs: set):
    """(Reshape, Transpose, Reshape) steps, each the only reader of the one before and
    with constant shapes; else None."""
    chain, t = [], conv.node.outputs[0]
    for op in ("Reshape", "Transpose", "Reshape"):
        users = readers.get(t, [])
        if not t or t in outputs or len(users) != 1 or users[0].node.op != op:
            return None
        step = users[0]
        if step.node.inputs[0] != t or not all(s in constants for s in step.node.inputs[1:]):
            return None
        chain.append(step)
        t = step.node.outputs[0]
    return chain if t else None


def _order(chain, constants: dict, shape) -> np.ndarray | None:
    """order[ch] = the channel of the chain's result holding the Conv's channel ch, if
    the chain only moves whole channels of an output of this shape; else None."""
    if shape is None or len(shape) < 2 or not 0 < math.prod(shape) <= LIMIT:
        return None
    index = np.arange(math.prod(shape), dtype=np.int64).reshape(shape)
    out = index
    try:
        for step in chain:
            (out,) = step.kernel(out, *(constants[s] for s in step.node.inputs[1:]))
    except Exception:  # noqa: BLE001  (a chain that fails here is left to fail at run time)
        return None
    if out.shape != index.shape:
        return None
    plane = math.prod(shape[2:])
    source = out.reshape(shape[0], shape[1], plane)[0, :, 0] // plane % shape[1]
    if not np.array_equal(out, index[:, source]):
        return None
    return np.argsort(source)
