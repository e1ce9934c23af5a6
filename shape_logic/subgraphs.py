"""Subgraph attributes (Scan's body): a copy of the body in the node's namespace.

A subgraph attribute is a graph object {"inputs", "outputs", "nodes",
"initializers"?} or the name of an entry of "functions". Its tensors (inputs,
initializers, node outputs) are renamed `node/t` (`node/key/t` for keys other
than "body"); a name the body does not define refers to the enclosing graph, as
in ONNX. The copy's nodes go to Graph.body_nodes: they are solved with the rest
(the operator's rule file relates the node's inputs and outputs to the body's,
through the body_input/body_output facts) but not executed as top-level nodes;
the operator's kernel runs the body itself.
"""
from __future__ import annotations

from typing import Any

from .calls import decls_of, expand_calls, names_of, node_op
from .errors import InputError

SUBGRAPH_OPS = {"Scan": ("body",), "Loop": ("body",), "If": ("then_branch", "else_branch")}
MAX_DEPTH = 8


def resolve_bodies(nodes: list, functions: dict) -> None:
    """Replace a body given by function name with the function itself (in place)."""
    for i, nd in enumerate(nodes):
        if node_op(nd) not in SUBGRAPH_OPS:
            continue
        attrs = nd.get("attrs")
        if not isinstance(attrs, dict):
            continue
        attrs = nd["attrs"] = dict(attrs)
        for key in SUBGRAPH_OPS[nd["op"]]:
            v = attrs.get(key)
            if isinstance(v, str):
                if v not in functions:
                    raise InputError(f"{key} names no function {v!r}",
                                     place=f"nodes[{i}].attrs.{key}")
                attrs[key] = dict(functions[v])


def is_body(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("nodes"), list)


def expand_bodies(reader, nodes: list, functions: dict, depth: int = 0) -> list:
    """The body nodes (read by `reader`) of every subgraph attribute of `nodes`, recursively;
    each node's `bodies` records its body's inputs and outputs."""
    out = []
    for node in nodes:
        for key, value in node.attrs.items():
            if not is_body(value):
                continue
            if depth >= MAX_DEPTH:
                raise InputError(f"subgraphs nest deeper than {MAX_DEPTH}",
                                 place=f"{node.place}.attrs.{key}")
            prefix = body_prefix(node.name, key)
            body_nodes = _copy(reader, value, prefix, functions, f"{node.place}.attrs.{key}")
            ins = [prefix + n for n in decls_of(value.get("inputs", []))]
            outs = [_inner_name(value, prefix, n) for n in names_of(value.get("outputs", []))]
            node.bodies[key] = (ins, outs)
            for inner in body_nodes:
                inner.scope = node.scope + ((node.name, key, node.op),)
            out.extend(body_nodes)
            out.extend(expand_bodies(reader, body_nodes, functions, depth + 1))
    return out


def body_prefix(node_name: str, key: str) -> str:
    """The namespace a node's body attribute `key` is copied into: `loop/` for a body,
    `if/then_branch/` for a branch."""
    return f"{node_name}/" if key == "body" else f"{node_name}/{key}/"


def _defined(body: dict) -> set:
    names = set(decls_of(body.get("inputs", []))) | set(body.get("initializers") or {})
    for nd in body["nodes"]:
        if isinstance(nd, dict):
            names |= {t for t in nd.get("outputs", []) if isinstance(t, str) and t}
    return names


def _inner_name(body: dict, prefix: str, t: str) -> str:
    return prefix + t if t in _defined(body) else t


def _outer_renamed(value, name):
    """A nested body whose references to the enclosing body's tensors are renamed."""
    if isinstance(value, list):
        return [_outer_renamed(v, name) for v in value]
    if not is_body(value):
        return value
    own = _defined(value)

    def rename(t):
        return t if not isinstance(t, str) or t in own else name(t)

    nodes = []
    for nd in value["nodes"]:
        if not isinstance(nd, dict):
            nodes.append(nd)
            continue
        copy = dict(nd, inputs=[rename(t) for t in nd.get("inputs", [])])
        if isinstance(nd.get("attrs"), dict):
            copy["attrs"] = {k: _outer_renamed(v, rename) for k, v in nd["attrs"].items()}
        nodes.append(copy)
    return dict(value, nodes=nodes)


def _copy(reader, body: dict, prefix: str, functions: dict, place: str) -> list:
    expanded = expand_calls({"nodes": body["nodes"], "functions": functions})
    inner = _defined(expanded) | _defined(body)

    def name(t):
        return prefix + t if t in inner else t

    nodes = []
    for j, nd in enumerate(expanded["nodes"]):
        if not isinstance(nd, dict):
            raise InputError("a node must be an object", place=f"{place}.nodes[{j}]")
        copy = dict(nd)
        copy["name"] = prefix + str(nd.get("name") or f"{nd.get('op')}_{j}")
        copy["inputs"] = [name(t) if isinstance(t, str) else t for t in nd.get("inputs", [])]
        copy["outputs"] = [name(t) if isinstance(t, str) else t for t in nd.get("outputs", [])]
        if isinstance(nd.get("attrs"), dict):  # nested bodies see this body's tensors
            copy["attrs"] = {k: _outer_renamed(v, name) for k, v in nd["attrs"].items()}
        nodes.append(copy)
    resolve_bodies(nodes, functions)
    for decls, where in ((body.get("initializers") or {}, "initializers"),
                         (expanded.get("initializers") or {}, "initializers"),
                         (expanded.get("annotations") or {}, "annotations")):
        for t, decl in decls.items():
            reader.extra[where][name(t)] = decl
    for k, (t, decl) in enumerate(list(decls_of(body.get("inputs", []))
                                       .items()) + list(decls_of(body.get("outputs", [])).items())):
        if decl:
            reader.extra["annotations"][name(t)] = decl
    return reader.nodes(nodes, place=f"{place}.nodes")


def free_names(body: dict) -> list:
    """The names a body uses but does not define (its nested bodies' too), in order; an
    output the body does not define is one (an If branch may give a tensor around it as it
    is, without a node)."""
    defined = set(decls_of(body.get("inputs", []))) | set(body.get("initializers") or {})
    used: list = []
    for nd in body.get("nodes", []):
        if not isinstance(nd, dict):
            continue
        defined |= {t for t in nd.get("outputs", []) if isinstance(t, str)}
    for nd in body.get("nodes", []):
        if not isinstance(nd, dict):
            continue
        names = [t for t in nd.get("inputs", []) if isinstance(t, str) and t]
        for v in (nd.get("attrs") or {}).values():
            for b in (v if isinstance(v, list) else [v]):
                if isinstance(b, dict) and isinstance(b.get("nodes"), list):
                    names += free_names(b)
        used += [t for t in names if t not in defined and t not in used]
    outputs = decls_of(body.get("outputs", []))
    return used + [t for t in outputs if t not in defined and t not in used]


def implicit_inputs(node) -> list:
    """The tensors of the graph around that a node's bodies use (ONNX's outer scope)."""
    out: list = []
    for v in node.attrs.values():
        for b in (v if isinstance(v, list) else [v]):
            if is_body(b):
                out += [t for t in free_names(b) if t not in out]
    return out
