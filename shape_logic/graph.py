"""The in-memory graph: tensors declared by the user, nodes, and where each came from."""
from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from .shapes import Shape

# canonical dtype names and the aliases users write (ONNX / numpy names)
DTYPES = ("f16", "bf16", "f32", "f64", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64",
          "bool", "str", "c64", "c128",
          # the small types of ONNX (float8, float4, 4- and 2-bit integers)
          "f8e4m3fn", "f8e4m3fnuz", "f8e5m2", "f8e5m2fnuz", "f8e8m0", "f4e2m1",
          "i4", "u4", "i2", "u2")
DTYPE_ALIASES = {
    "float16": "f16", "half": "f16", "bfloat16": "bf16", "float32": "f32", "float": "f32",
    "float64": "f64", "double": "f64", "int8": "i8", "int16": "i16", "int32": "i32",
    "int64": "i64", "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
    "boolean": "bool", "string": "str", "complex64": "c64", "complex128": "c128",
    # ONNX's names (FLOAT8E4M3FN lower-cased) and ml_dtypes' names of the small types
    "float8e4m3fn": "f8e4m3fn", "float8_e4m3fn": "f8e4m3fn",
    "float8e4m3fnuz": "f8e4m3fnuz", "float8_e4m3fnuz": "f8e4m3fnuz",
    "float8e5m2": "f8e5m2", "float8_e5m2": "f8e5m2",
    "float8e5m2fnuz": "f8e5m2fnuz", "float8_e5m2fnuz": "f8e5m2fnuz",
    "float8e8m0": "f8e8m0", "float8_e8m0fnu": "f8e8m0",
    "float4e2m1": "f4e2m1", "float4_e2m1fn": "f4e2m1",
    "int4": "i4", "uint4": "u4", "int2": "i2", "uint2": "u2",
}
_PLAIN_NUMPY = {
    "f16": np.float16, "f32": np.float32, "f64": np.float64, "i8": np.int8, "i16": np.int16,
    "i32": np.int32, "i64": np.int64, "u8": np.uint8, "u16": np.uint16, "u32": np.uint32,
    "u64": np.uint64, "bool": np.bool_, "str": np.object_, "c64": np.complex64,
    "c128": np.complex128,
}
# NumPy lacks these: ml_dtypes provides them (as onnx.numpy_helper does), by these names
_SMALL_NUMPY = {
    "bf16": "bfloat16", "f8e4m3fn": "float8_e4m3fn", "f8e4m3fnuz": "float8_e4m3fnuz",
    "f8e5m2": "float8_e5m2", "f8e5m2fnuz": "float8_e5m2fnuz", "f8e8m0": "float8_e8m0fnu",
    "f4e2m1": "float4_e2m1fn", "i4": "int4", "u4": "uint4", "i2": "int2", "u2": "uint2",
}


class _NumpyDtypes(Mapping):
    """dtype name -> NumPy scalar type. ml_dtypes is imported when a small type is first
    asked for: its import takes ~0.7 s here (registering its types' casts with NumPy),
    twice what the command line takes to solve a JSON graph without it. (An ONNX model
    pays it anyway: the onnx package imports ml_dtypes.)"""

    def __getitem__(self, name: str):
        plain = _PLAIN_NUMPY.get(name)
        if plain is not None:
            return plain
        import ml_dtypes

        return getattr(ml_dtypes, _SMALL_NUMPY[name])

    def __contains__(self, name) -> bool:  # (without importing ml_dtypes)
        return name in _PLAIN_NUMPY or name in _SMALL_NUMPY

    def __iter__(self):
        return iter([*_PLAIN_NUMPY, *_SMALL_NUMPY])

    def __len__(self) -> int:
        return len(_PLAIN_NUMPY) + len(_SMALL_NUMPY)


NUMPY_DTYPES = _NumpyDtypes()
INTEGER_DTYPES = {"i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "bool",
                  "i4", "u4", "i2", "u2"}
# floats NumPy lacks: kernels compute them in float32 (kernels/base.py)
SMALL_FLOAT_DTYPES = {"bf16", "f8e4m3fn", "f8e4m3fnuz", "f8e5m2", "f8e5m2fnuz", "f8e8m0",
                      "f4e2m1"}
_BY_NUMPY = {np.dtype(v): k for k, v in _PLAIN_NUMPY.items() if k != "str"}


def canonical_dtype(name: str) -> str | None:
    name = name.lower()
    if name in DTYPES:
        return name
    return DTYPE_ALIASES.get(name)


@lru_cache(maxsize=None)
def _small_by_numpy() -> dict:
    return {np.dtype(NUMPY_DTYPES[k]): k for k in _SMALL_NUMPY}


def dtype_of_array(a: np.ndarray) -> str:
    name = _BY_NUMPY.get(a.dtype)
    if name is None and "ml_dtypes" in sys.modules:  # (an array of a small type: whoever
        name = _small_by_numpy().get(a.dtype)       # made it imported ml_dtypes)
    if name is not None:
        return name
    if a.dtype.kind in "OUS":
        return "str"
    raise ValueError(f"unsupported array dtype {a.dtype}")


@dataclass
class TensorInfo:
    """What the user declared about one tensor in one place (an input, annotation...)."""

    name: str
    place: str  # where in the file: "inputs.x", "annotations.S"
    dtype: str | None = None
    shape: Shape | None = None
    data: np.ndarray | None = None
    sequence: bool = False  # an ONNX sequence: dtype and shape are every element's
    optional: bool = False  # an ONNX optional: dtype and shape are its element's, if any


def declaration(info: TensorInfo) -> dict:
    """A declaration as the JSON graph format writes it (a type attribute too); dims with a
    solver-made name (an unnamed ONNX dim) are written '?'."""
    d: dict = {}
    if info.dtype:
        d["dtype"] = info.dtype
    if info.shape is not None and info.shape.dims is not None:
        d["shape"] = "[" + ", ".join("?" if any(s.startswith("_") for s in e.symbols())
                                     else str(e) for e in info.shape.dims) + "]"
    for mark in ("sequence", "optional"):
        if getattr(info, mark):
            d[mark] = True
    return d


@dataclass
class Node:
    name: str
    op: str
    inputs: list[str]  # "" for an absent optional input
    outputs: list[str]
    attrs: dict[str, Any] = field(default_factory=dict)
    index: int = 0
    domain: str = ""
    # subgraph attributes (Scan's body): key -> (input tensors, output tensors) of the
    # body's copy in this node's namespace, whose nodes are in Graph.body_nodes
    bodies: dict = field(default_factory=dict)
    # the bodies it is in, outermost first: (node, attribute, op) of each (subgraphs.py)
    scope: tuple = ()

    @property
    def place(self) -> str:
        return f'nodes[{self.index}] "{self.name}"'


@dataclass
class Graph:
    name: str
    opset: int
    inputs: dict[str, TensorInfo]
    outputs: dict[str, TensorInfo]
    initializers: dict[str, TensorInfo]
    nodes: list[Node]
    annotations: dict[str, TensorInfo]
    functions: dict[str, Any] = field(default_factory=dict)
    path: str | None = None
    symbol_class: dict[str, int] = field(default_factory=dict)  # 0 input, 1 annotation, 2 fresh
    fresh_count: int = 0
    source: Any = None  # the dict or ModelProto it was read from
    symbol_map: dict = field(default_factory=dict)  # ONNX dim_param -> the NAME used for it
    body_nodes: list = field(default_factory=list)  # nodes of subgraph bodies (subgraphs.py)

    def tensors(self) -> list[str]:
        """Every tensor name, in a stable order: inputs, initializers, node outputs."""
        seen: dict[str, None] = {}
        for name in list(self.inputs) + list(self.initializers):
            seen.setdefault(name, None)
        for node in self.nodes + self.body_nodes:
            for t in node.inputs + node.outputs:
                if t:
                    seen.setdefault(t, None)
        for name in list(self.outputs) + list(self.annotations):
            seen.setdefault(name, None)
        return list(seen)

    @property
    def from_onnx(self) -> bool:
        """Read from an ONNX model (a ModelProto or its GraphProto), not a JSON graph."""
        return type(self.source).__name__ in ("ModelProto", "GraphProto")

    @property
    def has_bodies(self) -> bool:
        """Some node has a subgraph body (If, Loop, Scan), with nodes of its own or not (a
        branch may give a tensor of the graph around it as it is)."""
        return bool(self.body_nodes) or any(n.bodies for n in self.nodes)

    def producer(self) -> dict[str, Node]:
        return {t: n for n in self.nodes for t in n.outputs if t}

    def ancestors(self, start, reads=None, producer: dict | None = None) -> set[str]:
        """The names of the nodes `start` and of those they depend on: the nodes making
        the tensors each reads (`reads(node)`, its inputs unless given), theirs, and so
        on. `producer`: the graph's, when the caller has it already."""
        producer = self.producer() if producer is None else producer
        kept: set[str] = set()
        stack = list(start)
        while stack:
            n = stack.pop()
            if n.name in kept:
                continue
            kept.add(n.name)
            stack.extend(p for t in (n.inputs if reads is None else reads(n))
                         if t and (p := producer.get(t)) is not None and p.name not in kept)
        return kept

    def readers(self) -> dict[str, list[Node]]:
        """Tensor -> the nodes reading it, in the graph's order (each once)."""
        out: dict[str, list[Node]] = {}
        for n in self.nodes:
            for t in dict.fromkeys(n.inputs):
                if t:
                    out.setdefault(t, []).append(n)
        return out

    def input_symbols(self) -> set[str]:
        """The names the inputs' declarations use (symbol_class 0)."""
        return {s for s, c in self.symbol_class.items() if c == 0}

    def read(self) -> set[str]:
        """The tensors some node reads, a body's nodes too."""
        return {t for n in self.nodes + self.body_nodes for t in n.inputs if t}
