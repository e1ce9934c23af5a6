"""Attribute values checked against ONNX's operator schemas: type, int64 range, known name.

A wrong type (`"axis": "one"`) or a misspelt name (`"stride"` for Conv) would
otherwise be ignored by the rules - the node would silently get the default -
so they are input errors (exit 2), as INTERFACE §3 says of a bad attribute.
Range checks that need the shapes (an axis beyond the rank, a kernel larger
than the input) and domain checks the rule files state (`invalid(N,
nonpositive("strides", 0))`) stay shape errors, diagnosed with their core.
Operators without an ONNX schema (a user's own rule file) are not checked here.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np

from . import onnx_import as A
from .errors import InputError
from .graph import Graph

INT64 = (-(2**63), 2**63 - 1)


@lru_cache(maxsize=None)
def _schemas() -> dict[str, list]:
    """Operator name -> its ONNX schemas (every version), default domain only."""
    import onnx.defs

    out: dict[str, list] = {}
    for s in onnx.defs.get_all_schemas_with_history():
        if s.domain in ("", "ai.onnx"):
            out.setdefault(s.name, []).append(s)
    for versions in out.values():
        versions.sort(key=lambda s: s.since_version)
    return out


@lru_cache(maxsize=None)
def _attribute_types(op: str, opset: int) -> dict | None:
    """Name -> AttrType at this opset (the first version's before it), or None: no schema.
    One schema from onnx's registry: building every schema of its history (_schemas) cost
    ~10 ms more in each process, needed only for an attribute this version lacks."""
    import onnx.defs

    if not onnx.defs.has(op, ""):
        return None
    try:
        schema = onnx.defs.get_schema(op, opset, "")
    except onnx.defs.SchemaError:  # no version at or before this opset
        versions = _schemas().get(op)
        if not versions:
            return None
        schema = versions[0]
    return {k: int(a.type) for k, a in schema.attributes.items()}  # (onnx_import's ints)


@lru_cache(maxsize=None)
def _known_attributes(op: str) -> set:
    """The attribute names of every version of the operator."""
    return {k for s in _schemas().get(op, ()) for k in s.attributes}


def check_attributes(graph: Graph) -> None:
    """Raise InputError for the first attribute of a wrong type, out of int64, or unknown."""
    for node in graph.nodes:
        if node.domain:
            continue
        types = _attribute_types(node.op, graph.opset)
        if types is None:
            continue
        for key, value in node.attrs.items():
            if key not in types and key not in (known := _known_attributes(node.op)):
                expected = ", ".join(sorted(known)) or "none"
                raise InputError(f"{node.op} has no attribute {key!r} (its attributes: "
                                 f"{expected})", graph.path, f"{node.place}.attrs.{key}")
            if key in types:  # (else an attribute of another opset: the rules report it)
                problem = _type_problem(types[key], value)
                if problem:
                    raise InputError(f"{node.op} attribute {key!r} {problem}", graph.path,
                                     f"{node.place}.attrs.{key}")


def _type_problem(attr_type: int, value: Any) -> str | None:
    if attr_type == A.INT:
        if type(value) is int and INT64[0] <= value <= INT64[1]:  # (most attributes)
            return None
        return _int_problem(value)
    if attr_type == A.FLOAT:
        return _float_problem(value)
    if attr_type == A.STRING:
        return None if isinstance(value, str) else f"must be a string, not {_show(value)}"
    if attr_type in (A.INTS, A.FLOATS, A.STRINGS):
        if isinstance(value, np.ndarray) and value.ndim == 1:
            value = value.tolist()
        if not isinstance(value, list):
            return f"must be a list, not {_show(value)}"
        check = {A.INTS: _int_problem, A.FLOATS: _float_problem,
                 A.STRINGS: lambda v: None if isinstance(v, str) else "must be a string"}
        for i, v in enumerate(value):
            problem = check[attr_type](v)
            if problem:
                return f"element {i}: {problem}"
        return None
    if attr_type in (A.TENSOR, A.SPARSE_TENSOR):
        if isinstance(value, np.ndarray):
            return None
        return "must be a tensor {\"dtype\", \"shape\", \"data\"}, not " + _show(value)
    if attr_type == A.GRAPH:
        ok = isinstance(value, (dict, str))
        return None if ok else f"must be a graph (an object or a function name), not {_show(value)}"
    return None


def _int_problem(v: Any) -> str | None:
    if isinstance(v, (bool, np.bool_)):
        return None  # 0/1 flags written as JSON booleans
    if isinstance(v, (int, np.integer)):
        v = int(v)
        if not INT64[0] <= v <= INT64[1]:
            return f"is out of the int64 range ({v})"
        return None
    return f"must be an integer, not {_show(v)}"


def _float_problem(v: Any) -> str | None:
    if isinstance(v, (bool, np.bool_)):
        return f"must be a number, not {_show(v)}"
    if isinstance(v, (int, np.integer)):
        return None if abs(int(v)) < 2**1023 else f"is out of the float range ({v})"
    if isinstance(v, (float, np.floating)):
        return None if not math.isnan(v) else "must be a number, not NaN"
    return f"must be a number, not {_show(v)}"


def _show(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."
