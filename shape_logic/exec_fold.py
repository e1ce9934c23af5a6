"""A BatchNormalization's scale moved into the Conv that reads it (a rewrite the
executor makes once, before any run; DenseNet's BN -> Relu -> Conv).

An inference BatchNormalization is a per-channel a * x + c; NumPy makes it in two
passes over the tensor (a multiply, then an add), and a fused Relu is a third. When all
a > 0, relu(a x + c) = a relu(x + c / a) per channel, and the factor a of input channel
ch can go into the Conv's weights that read channel ch (a Conv is linear in each input
channel, and its zero padding stays zero when scaled): the normalization then gives
relu(x + c / a) (kernels/BatchNormalization.py `unscaled`), one pass fewer. Without a
Relu the same holds (nothing in between). Equal up to float rounding: the weights and
c / a are computed in float64 and rounded once.

The normalization's output is only read by that Conv and is no graph output, so the
values it now holds are seen by nobody else; its shape is still checked.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from .exec_rewrite import plain, readers_and_producers
from .kernels.BatchNormalization import affine


def scale_into_conv(steps, constants: dict, outputs: set) -> list:
    """Each Conv that alone reads a plain BatchNormalization's output (all a > 0) takes
    its a into a new copy of its weights."""
    readers, producer = readers_and_producers(steps)  # (bodies' outer reads count)
    for i, conv in enumerate(steps):
        node = conv.node
        if not plain(node, "Conv") or len(node.inputs) < 2 or node.inputs[1] not in constants:
            continue
        t = node.inputs[0]
        bn = producer.get(t)
        if bn is None or bn.node.op != "BatchNormalization" or t in outputs \
                or len(readers.get(t, [])) != 1 or t in node.inputs[1:] \
                or not _plain(bn, constants):
            continue
        scale, b, mean, var = (constants[s] for s in bn.node.inputs[1:5])
        a, _ = affine(scale, b, mean, var, bn.kernel.kw["epsilon"])
        w = constants[node.inputs[1]]
        group = conv.kernel.kw["group"]
        if a.ndim != 1 or not np.all(a > 0) or w.ndim < 3 or a.size != w.shape[1] * group \
                or w.shape[0] % group:
            continue
        # input channel ch = q * C/G + j is column j of group q's filters
        per = a.reshape(group, 1, w.shape[1], *(1,) * (w.ndim - 2))
        scaled = w.reshape(group, w.shape[0] // group, *w.shape[1:]) * per
        tag = f"{node.inputs[1]}#scaled-by:{bn.node.name}"
        constants[tag] = scaled.reshape(w.shape).astype(w.dtype)
        bn.kernel.unscaled = True
        steps[i] = dataclasses.replace(conv, node=dataclasses.replace(
            node, inputs=[t, tag, *node.inputs[2:]]))
    return steps


def _plain(bn, constants: dict) -> bool:
    """An inference BatchNormalization of one output with constant parameters."""
    node = bn.node
    return len(node.inputs) == 5 and all(s in constants for s in node.inputs[1:5]) \
        and not bn.kernel.kw.get("training_mode") and len(node.outputs) == 1 \
        and not getattr(bn.kernel, "unscaled", True)
