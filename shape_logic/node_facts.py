"""A node as ASP facts: the node as one statement where it can be (nodeK, node_io), its
attributes (attr_set, attr_list, attr_tensorK...) and the copies of its bodies
(encodings/nodes.lp derives the graph's predicates from them); facts.py writes the rest of
the graph."""
from __future__ import annotations

from typing import Any

import numpy as np

from .asp.terms import int_text, quote
from .errors import InputError
from .graph import INTEGER_DTYPES, Node, TensorInfo, dtype_of_array

MAX_VALUE_ELEMENTS = 1024  # integer constants up to this size are known element by element
MAX_REAL_ELEMENTS = 8  # float constants up to this size (Resize scales, Range bounds: shape work)
MAX_ATTR_CHARS = 256  # string attributes up to this length are also given character by character
MAX_PACKED_INPUTS = 5  # nodes.lp unpacks nodeK facts for K up to this
MAX_PACKED_ATTR_RANK = 4  # and attr_tensorK facts for K up to this
MAX_PACKED_ELEMENTS = 4  # and attr_listK and valuesK facts for K up to this


def node_facts(node: Node, sourced: bool = True, terms: dict | None = None,
               body_terms: dict | None = None) -> list[str]:
    """The node as one statement where it can be (nodes.lp derives node/2, ninputs/2,
    noutputs/2, input/3 and output/3 from it), its attributes and bodies. node/2 holds
    whatever is in force (rules may negate it); op/2 says the node is in force.
    `terms`: inputs read through another term (a body's copy, scopes.py);
    `body_terms`: the same for (body, output) of the node's bodies."""
    n, o = quote(node.name), quote(node.op)
    ins, outs = node.inputs, node.outputs
    terms = terms or {}
    body_terms = body_terms or {}

    def port(t):
        return terms.get(t) or quote(t)

    out = []
    if len(ins) <= MAX_PACKED_INPUTS and outs:
        ports = "".join("," + (port(t) if t else quote("")) for t in ins)
        out.append(f"node{len(ins)}({n},{o},{len(outs)},{quote(outs[0] or '')}{ports}).")
        later = 1
    else:
        out.append(f"node_io({n},{o},{len(ins)},{len(outs)}).")
        out.extend(f"input({n},{k},{port(t)})." for k, t in enumerate(ins) if t)
        later = 0
    # an omitted optional output has no fact, as an absent input
    out.extend(f"output({n},{k},{quote(t)})." for k, t in enumerate(outs) if t and k >= later)
    if sourced:
        out.append(f"source(src(node,{n},all)).")
    if node.domain not in ("", "ai.onnx"):  # a contrib op (com.microsoft) shares names with ONNX
        out.append(f"domain({n},{quote(node.domain)}).")
    for key, value in node.attrs.items():
        out.extend(attr_facts(node, key, value))
    for key, (ins, outs) in node.bodies.items():  # a subgraph's copy (subgraphs.py)
        k = quote(key)
        out.append(f"body_count({n},{k},{len(ins)},{len(outs)}).")
        out.extend(f"body_input({n},{k},{i},{quote(t)})." for i, t in enumerate(ins))
        out.extend(f"body_output({n},{k},{i},{body_terms.get((key, t)) or quote(t)})."
                   for i, t in enumerate(outs))
    return out


def attr_facts(node: Node, key: str, value: Any) -> list[str]:
    """The attribute as one statement (attr_set, attr_list, attr_tensorK: nodes.lp derives
    has_attr and the rest), with its elements."""
    n, k = quote(node.name), quote(key)
    place = _AttrPlace(node, key)
    if isinstance(value, np.ndarray):
        return tensor_attr_facts(n, k, value)
    if isinstance(value, dict):  # a subgraph
        return [f"attr_set({n},{k},graph)."]
    if isinstance(value, TensorInfo):  # a type (Optional's): what a declaration says
        return type_attr_facts(n, k, value)
    if isinstance(value, list):
        if 0 < len(value) <= MAX_PACKED_ELEMENTS:
            return [f"attr_list{len(value)}({n},{k},"
                    + ",".join(scalar_term(v, place) for v in value) + ")."]
        out = [f"attr_list({n},{k},{len(value)})."]
        for i, v in enumerate(value):
            out.append(f"attr({n},{k},{i},{scalar_term(v, place)}).")
        return out
    out = [f"attr_set({n},{k},{scalar_term(value, place)})."]
    if isinstance(value, str) and len(value) <= MAX_ATTR_CHARS:
        # rules cannot take strings apart: give them the characters (Einsum's equation)
        out.append(f"attr_len({n},{k},{len(value)}).")
        out.extend(f"attr_char({n},{k},{i},{quote(c)})." for i, c in enumerate(value))
    return out


def type_attr_facts(n: str, k: str, info: TensorInfo) -> list[str]:
    """A type attribute: attr_type(N, Key, D) (D a dtype or `none`), attr_type_seq(N, Key)
    for a sequence type, attr_type_rank/dim for its shape (no dim for a `?`)."""
    out = [f"attr_set({n},{k},type).", f"attr_type({n},{k},{info.dtype or 'none'})."]
    if info.sequence:
        out.append(f"attr_type_seq({n},{k}).")
    if info.shape is not None and info.shape.dims is not None:
        out.append(f"attr_type_rank({n},{k},{len(info.shape.dims)}).")
        out.extend(f"attr_type_dim({n},{k},{i},{int_text(d.value)})."
                   for i, d in enumerate(info.shape.dims) if d.is_int)
    return out


def tensor_attr_facts(n: str, k: str, arr: np.ndarray) -> list[str]:
    dt = dtype_of_array(arr)
    flat = arr.reshape(-1)
    if arr.ndim <= 1 and flat.size == 1:  # Constant's and ConstantOfShape's usual value
        v = element_terms(dt, flat)
        if v:
            return [f"attr_single({n},{k},{dt},{arr.ndim},{v[0]})."]
    if arr.ndim <= MAX_PACKED_ATTR_RANK:
        out = [f"attr_tensor{arr.ndim}({n},{k},{dt}"
               + "".join("," + int_text(d) for d in arr.shape) + ")."]
    else:
        out = [f"has_attr({n},{k}).", f"attr_dtype({n},{k},{dt}).",
               f"attr_rank({n},{k},{arr.ndim})."]
        out.extend(f"attr_dim({n},{k},{i},{int_text(d)})." for i, d in enumerate(arr.shape))
    out.extend(f"attr_value({n},{k},{i},{v})." for i, v in enumerate(element_terms(dt, flat)))
    return out


def element_terms(dt: str, flat: np.ndarray) -> list[str]:
    """The terms of a small integer or bool (1, 0) tensor's elements (or a tiny float
    one's), row-major; none for a larger one."""
    # (elements as Python scalars at once: iterating an array makes a NumPy scalar of each)
    if dt in INTEGER_DTYPES and flat.size <= MAX_VALUE_ELEMENTS:
        return [int_text(int(v)) for v in flat.tolist()]
    if dt in ("f16", "bf16", "f32", "f64") and flat.size <= MAX_REAL_ELEMENTS:
        return [f'real("{float(v)!r}")' for v in flat.tolist()]
    return []


class _AttrPlace:
    """`nodes[i] "name".attrs.key`, written only if an error names it."""

    __slots__ = ("node", "key")

    def __init__(self, node: Node, key: str):
        self.node, self.key = node, key

    def __str__(self):
        return f"{self.node.place}.attrs.{self.key}"


def scalar_term(v: Any, place) -> str:
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, int):
        return int_text(v)
    if isinstance(v, float):
        return f'real("{v!r}")'
    if isinstance(v, str):
        return quote(v)
    if isinstance(v, dict):
        return "graph"
    raise InputError(f"unsupported attribute value {v!r}", place=str(place))
