"""Sequences fed to a run (a graph input declared `"sequence": true`, or an ONNX
seq(tensor) input): a list of arrays, each element checked and closed on its own."""
from __future__ import annotations

import numpy as np

from .graph import Node, TensorInfo, dtype_of_array
from .kernels.base import Seq
from .shapes import Shape


def sequence_feed(name: str, value, want: str | None, bad_input, path) -> Seq:
    """The elements of a sequence input as arrays of one dtype (`want`, if known)."""
    if not isinstance(value, (list, tuple)):
        raise bad_input(f"input {name!r} is a sequence: give a list of arrays (on the "
                        "command line, a .npz of its elements 0, 1, ...)", path)
    out = Seq(np.asarray(v) for v in value)
    for k, arr in enumerate(out):
        try:
            got = dtype_of_array(arr)
        except ValueError:
            raise bad_input(f"input {name!r}[{k}]: unsupported dtype {arr.dtype}", path) from None
        if want is not None and got != want:
            raise bad_input(f"input {name!r}[{k}]: dtype {got}, the graph wants {want}", path)
    return out


def feed_key(arr):
    """What a run's plan depends on of a sequence input: its elements' shapes and dtypes."""
    return tuple((a.shape, a.dtype.str) for a in arr)


def closed_sequence(name: str, info: TensorInfo, elements: Seq) -> tuple[dict, Node | None]:
    """For solving at the feeds' shapes: one input per element (`name/k`, its concrete shape)
    and the SequenceConstruct that makes `name` of them (an empty feed stays as declared)."""
    if not elements:
        return {name: info}, None
    parts = {f"{name}/{k}": TensorInfo(f"{name}/{k}", info.place, dtype_of_array(a),
                                       Shape.of(a.shape)) for k, a in enumerate(elements)}
    return parts, Node(f"{name}/construct", "SequenceConstruct", list(parts), [name])
