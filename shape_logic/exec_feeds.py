"""What a run is fed: arrays of the graph's types; sequences (a graph input declared
`"sequence": true`, or an ONNX seq(tensor) input), a list of arrays, each element closed on
its own; and optional inputs (`"optional": true`), None when empty."""
from __future__ import annotations

import numpy as np

from .errors import InputError
from .graph import NUMPY_DTYPES, Node, TensorInfo, dtype_of_array
from .kernels.base import Seq
from .shapes import Shape

SMALL_INT_INPUT = 64  # integer inputs up to this many elements are constants when closing


class BadInput(InputError):
    """The inputs given do not fit the graph: missing, extra, wrong dtype or rank (exit 2)."""


def feed_key(arr):
    """What a run's plan depends on of a sequence input: its elements' shapes and dtypes
    (of an empty optional: nothing)."""
    if arr is None:
        return None
    return tuple((a.shape, a.dtype.str) for a in arr)


def closed_sequence(name: str, info: TensorInfo, elements: Seq | None) -> tuple[dict, list]:
    """For solving at the feeds' shapes: one input per element (`name/k`, its concrete shape)
    and the SequenceConstruct that makes `name` of them (an empty feed stays as declared).
    For an optional input, the Optional of that; an empty optional (None) is the Optional of
    none, its declared type."""
    if elements is None:
        return {}, [Node(f"{name}/optional", "Optional", [], [name], {"type": info})]
    if not elements:
        return {name: info}, []
    seq = f"{name}/seq" if info.optional else name
    parts = {f"{name}/{k}": TensorInfo(f"{name}/{k}", info.place, dtype_of_array(a),
                                       Shape.of(a.shape)) for k, a in enumerate(elements)}
    made = [Node(f"{name}/construct", "SequenceConstruct", list(parts), [seq])]
    if info.optional:
        made.append(Node(f"{name}/optional", "Optional", [seq], [name]))
    return parts, made


def typed_input(label: str, value, want: str | None, path) -> np.ndarray:
    """An input (or a sequence input's element) as an array of a dtype we run, `want`'s
    when the graph gives one."""
    arr = np.asarray(value)
    if arr.dtype.type is np.void and want in NUMPY_DTYPES and \
            arr.dtype.itemsize == np.dtype(NUMPY_DTYPES[want]).itemsize:
        arr = arr.view(NUMPY_DTYPES[want])  # .npy files keep bfloat16... as raw bytes
    try:
        got = dtype_of_array(arr)
    except ValueError:
        raise BadInput(f"input {label}: unsupported dtype {arr.dtype}", path) from None
    if want is not None and got != want:
        raise BadInput(f"input {label}: dtype {got}, the graph wants {want}", path)
    return arr


def small_int_bytes(a: np.ndarray):
    return a.tobytes() if a.dtype.kind in "iu" and a.size <= SMALL_INT_INPUT else None
