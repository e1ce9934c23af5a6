"""Sequences fed to a run (a graph input declared `"sequence": true`, or an ONNX
seq(tensor) input): a list of arrays, each element closed on its own."""
from __future__ import annotations

from .graph import Node, TensorInfo, dtype_of_array
from .kernels.base import Seq
from .shapes import Shape


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
