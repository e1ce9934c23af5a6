"""Attribute values checked against ONNX's operator schemas: type, int64 range, known name.

A wrong type (`"axis": "one"`) or a misspelt name (`"stride"` for Conv) would
otherwise be ignored by the rules - the node would silently get the default -
so they are input errors (exit 2), as INTERFACE §3 says of a bad attribute.
Range checks that need the shapes (an axis beyond the rank, a kernel larger
than the input) and domain checks the rule files state (`invalid(N,
nonpositive("strides", 0))`) stay shape errors, diagnosed with their core.
Operators without a schema (a user's own rule file) are not checked here. ONNX's
ai.onnx.ml operators are checked against onnx's registry too, and onnxruntime's own
(com.microsoft, com.microsoft.nchwc) against onnxruntime's, which refuses a model with an
attribute of another type or name there as well (its newest version of each: those domains'
opsets are not tracked).

The attributes of every schema come from onnx_attributes.json when that table was
written from the installed onnx (`write_table()`; tests/core/test_attributes.py holds it
to onnx's registry), else from onnx.defs: importing onnx takes ~0.8 s here (it imports
ml_dtypes, which registers its casts with NumPy), more than the rest of a JSON graph's
solve from the command line. onnxruntime's are the table's unless another onnxruntime is
installed (onnxruntime is no dependency of the solver: its table is written beside onnx's).
"""
from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from . import onnx_import as A
from .errors import InputError
from .graph import Graph, TensorInfo

INT64 = (-(2**63), 2**63 - 1)


TABLE = Path(__file__).with_name("onnx_attributes.json")


# the domains whose operators are checked beside ONNX's default one: onnx's registry has
# the first, onnxruntime's the others
ML_DOMAIN = "ai.onnx.ml"
CONTRIB_DOMAINS = ("com.microsoft", "com.microsoft.nchwc")


def schema_table(domain: str = "") -> dict[str, list]:
    """Operator name -> [[since_version, {attribute: AttrType}], ...] oldest first, for
    ONNX's default domain (or `domain`: ai.onnx.ml), from onnx's registry (AttrType as
    onnx_import's ints)."""
    import onnx.defs

    domains = ("", "ai.onnx") if domain == "" else (domain,)
    return _by_name(s for s in onnx.defs.get_all_schemas_with_history() if s.domain in domains)


def contrib_table() -> dict[str, dict] | None:
    """Domain -> schema_table's table of that domain, for onnxruntime's own domains, from
    the installed onnxruntime's registry (None without onnxruntime)."""
    try:
        from onnxruntime.capi import onnxruntime_pybind11_state as ort
    except ImportError:
        return None
    schemas = ort.get_all_operator_schema()
    return {d: _by_name(s for s in schemas if s.domain == d) for d in CONTRIB_DOMAINS}


def _by_name(schemas) -> dict[str, list]:
    out: dict[str, list] = {}
    for s in schemas:
        out.setdefault(s.name, []).append(
            [s.since_version, {k: int(a.type) for k, a in s.attributes.items()}])
    for versions in out.values():
        versions.sort(key=lambda v: v[0])
    return out


def _version(package: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return None


def _onnx_version() -> str | None:
    return _version("onnx")


def write_table(path: Path = TABLE) -> None:
    """Write the tables for the installed onnx and onnxruntime (run after upgrading
    either)."""
    path.write_text(json.dumps({"onnx": _onnx_version(), "ops": schema_table(),
                                "ml": schema_table(ML_DOMAIN),
                                "onnxruntime": _version("onnxruntime"),
                                "contrib": contrib_table()},
                               sort_keys=True, separators=(",", ":")) + "\n")


@lru_cache(maxsize=None)
def _shipped() -> dict:
    try:
        return json.loads(TABLE.read_text())
    except (OSError, ValueError):
        return {}


@lru_cache(maxsize=None)
def _schemas(domain: str = "") -> dict[str, list]:
    """The table of `domain` ("" ONNX's default): TABLE's when it was written from the
    installed onnx (onnxruntime: or none is installed), else the registry's."""
    shipped = _shipped()
    if domain in ("", ML_DOMAIN):
        if shipped.get("onnx") == _onnx_version() and "ml" in shipped:
            return shipped["ops" if domain == "" else "ml"]
        return schema_table(domain)
    installed = _version("onnxruntime")
    if shipped.get("contrib") and installed in (None, shipped.get("onnxruntime")):
        return shipped["contrib"].get(domain, {})
    return (contrib_table() or {}).get(domain, {})


@lru_cache(maxsize=None)
def _attribute_types(op: str, opset: int, domain: str = "") -> dict | None:
    """Name -> AttrType at this opset (the newest version at or before it, as
    onnx.defs.get_schema; the first version's when none is), or None: no schema. In
    another domain than the default one, the newest version's (its opset is not kept)."""
    versions = _schemas(domain).get(op)
    if not versions:
        return None
    if domain:
        return versions[-1][1]
    fitting = [attrs for since, attrs in versions if since <= opset]
    return fitting[-1] if fitting else versions[0][1]


@lru_cache(maxsize=None)
def _known_attributes(op: str, domain: str = "") -> set:
    """The attribute names of every version of the operator."""
    return {k for _, attrs in _schemas(domain).get(op, ()) for k in attrs}


CHECKED_DOMAINS = frozenset({"", "ai.onnx", ML_DOMAIN, *CONTRIB_DOMAINS})


def check_attributes(graph: Graph) -> None:
    """Raise InputError for the first attribute of a wrong type, out of int64, or unknown."""
    for node in graph.nodes:
        if node.domain not in CHECKED_DOMAINS:
            continue
        domain = "" if node.domain == "ai.onnx" else node.domain
        types = _attribute_types(node.op, graph.opset, domain)
        if types is None:
            continue
        for key, value in node.attrs.items():
            if key not in types and key not in (known := _known_attributes(node.op, domain)):
                expected = ", ".join(sorted(known)) or "none"
                raise InputError(f"{node.op} has no attribute {key!r} (its attributes: "
                                 f"{expected})", graph.path, f"{node.place}.attrs.{key}")
            if key in types:  # (else an attribute of another opset: the rules report it)
                problem = _type_problem(types[key], value, nan=bool(domain))
                if problem:
                    raise InputError(f"{node.op} attribute {key!r} {problem}", graph.path,
                                     f"{node.place}.attrs.{key}")


def _type_problem(attr_type: int, value: Any, nan: bool = False) -> str | None:
    """What is wrong with `value` as an attribute of that type (None: nothing). `nan`: a
    float may be NaN (ai.onnx.ml's Imputer replaces NaN; ONNX's own operators take none)."""
    if attr_type == A.INT:
        if type(value) is int and INT64[0] <= value <= INT64[1]:  # (most attributes)
            return None
        return _int_problem(value)
    if attr_type == A.FLOAT:
        return None if nan and isinstance(value, float) and math.isnan(value) else \
            _float_problem(value)
    if attr_type == A.STRING:
        return None if isinstance(value, str) else f"must be a string, not {_show(value)}"
    if attr_type in (A.INTS, A.FLOATS, A.STRINGS):
        if isinstance(value, np.ndarray) and value.ndim == 1:
            value = value.tolist()
        if not isinstance(value, list):
            return f"must be a list, not {_show(value)}"
        if attr_type == A.INTS and value and set(map(type, value)) == {int} and \
                INT64[0] <= min(value) and max(value) <= INT64[1]:
            return None  # (plain ints in range, as an ONNX model's are: each would pass)
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
    if attr_type == A.TYPE_PROTO and not isinstance(value, TensorInfo):
        return "must be a type {\"dtype\", \"shape\"?, \"sequence\"?}, not " + _show(value)
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
