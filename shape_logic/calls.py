"""Function calls (INTERFACE §2): a node whose op names an entry of "functions".

Every call site gets its own copy of the function's body (let-polymorphism):
the body's tensors live in the call's namespace (`call/t`), its parameters are
tensors `call/param` fed by Identity nodes from the arguments, its results feed
the call's outputs the same way, and the dim names and shape variables of the
function's annotations are renamed per call site. So each call is solved on its
own, in the same facts and encodings as the rest of the graph (and the executor
runs it as it runs any node).

A function is {"inputs": [names] or {name: decl}, "outputs": [names] or {name: decl},
"nodes": [...], "annotations"?: {...}, "initializers"?: {...}}.
"""
from __future__ import annotations

import itertools
from typing import Any

from .errors import InputError
from .symbolic.parse import FUNCTIONS, ShapeSyntaxError, tokenize

FUNCTION_KEYS = {"inputs", "outputs", "nodes", "annotations", "initializers", "doc"}
MAX_DEPTH = 16


def expand_calls(data: dict) -> dict:
    """The graph dict with every call of a function replaced by a copy of its body."""
    functions = data.get("functions")
    if not functions or not isinstance(functions, dict) or not isinstance(data.get("nodes"), list):
        return data
    for fname, fn in functions.items():
        check_function(fname, fn)
    if not any(node_op(nd) in functions for nd in data["nodes"]):
        return data
    out = dict(data)
    out["annotations"] = dict(data.get("annotations") or {})
    out["initializers"] = dict(data.get("initializers") or {})
    expander = _Expander(functions, out)
    out["nodes"] = list(expander.nodes(data["nodes"], "nodes", 0))
    return out


def check_function(fname: str, fn: Any):
    place = f"functions.{fname}"
    if not isinstance(fn, dict):
        raise InputError("a function must be an object with inputs, outputs and nodes",
                         place=place)
    for k in fn:
        if k not in FUNCTION_KEYS:
            raise InputError(f"unknown key {k!r} (expected one of "
                             f"{', '.join(sorted(FUNCTION_KEYS))})", place=place)
    for k in ("inputs", "outputs"):
        v = fn.get(k, [])
        if not isinstance(v, (list, dict)) or not all(isinstance(n, str) for n in v):
            raise InputError(f"{k} must be a list of tensor names (or an object of "
                             "declarations)", place=f"{place}.{k}")
        if isinstance(v, dict):
            _check_declarations(v, f"{place}.{k}")
    for k in ("annotations", "initializers"):
        v = fn.get(k) or {}  # (null: none, as the expansion reads it)
        if not isinstance(v, dict):
            raise InputError(f"{k} must be an object mapping tensor names to declarations",
                             place=f"{place}.{k}")
        _check_declarations(v, f"{place}.{k}")
    if not isinstance(fn.get("nodes"), list):
        raise InputError("a function needs a \"nodes\" list", place=f"{place}.nodes")


def _check_declarations(decls: dict, place: str):
    """Each declaration an object or null, as the graph's own (load_json's decls); what is
    inside is checked where the call site's copy is read."""
    for name, decl in decls.items():
        if decl is not None and not isinstance(decl, dict):
            raise InputError("a declaration must be an object with \"dtype\" and/or "
                             "\"shape\"", place=f"{place}.{name}")


def node_op(nd: Any) -> str | None:
    """A node object's operator name; None when it has none (the loader reports that)."""
    op = nd.get("op") if isinstance(nd, dict) else None
    return op if isinstance(op, str) else None


def decls_of(v) -> dict:
    """A function's inputs or outputs as {name: declaration or None}."""
    return dict(v) if isinstance(v, dict) else {n: None for n in v}


def names_of(v) -> list:
    """A body's or function's outputs in order, as many as it lists: ONNX lets a graph list
    one value as two outputs (a Loop body's carried value that is also its scan output),
    and each is an output of the node (onnx.reference returns it twice)."""
    return list(v) if isinstance(v, dict) else [n for n in v]


class _Expander:
    def __init__(self, functions: dict, graph: dict):
        self.functions = functions
        self.graph = graph
        self.sites = itertools.count(1)

    def nodes(self, nodes: list, place: str, depth: int):
        for i, nd in enumerate(nodes):
            if node_op(nd) in self.functions:
                if depth >= MAX_DEPTH:
                    raise InputError(f"function calls nest deeper than {MAX_DEPTH} (recursion?)",
                                     place=f"{place}[{i}]")
                yield from self.call(nd, f"{place}[{i}]", depth)
            else:
                yield nd

    def call(self, nd: dict, place: str, depth: int):
        fname = nd["op"]
        fn = self.functions[fname]
        site = next(self.sites)
        name = nd.get("name") or f"{fname}_{site}"
        params, results = decls_of(fn.get("inputs", [])), decls_of(fn.get("outputs", []))
        args, outs = nd.get("inputs", []), nd.get("outputs", [])
        if not isinstance(args, list) or len(args) != len(params):
            raise InputError(f"function {fname!r} takes {len(params)} inputs",
                             place=f"{place}.inputs")
        n_results = len(names_of(fn.get("outputs", [])))
        if not isinstance(outs, list) or len(outs) > n_results:
            raise InputError(f"function {fname!r} gives {n_results} outputs",
                             place=f"{place}.outputs")

        def inner(t: str) -> str:
            return f"{name}/{t}" if t else t

        rename = _SymbolRenamer(site)
        for k, (param, decl) in enumerate(params.items()):
            yield {"name": f"{name}/in{k}", "op": "Identity", "inputs": [args[k]],
                   "outputs": [inner(param)]}
            self.annotate(inner(param), decl, rename)
        for t, decl in (fn.get("annotations") or {}).items():
            self.annotate(inner(t), decl, rename)
        for t, decl in (fn.get("initializers") or {}).items():
            self.graph["initializers"][inner(t)] = decl
        body = []
        for j, b in enumerate(fn["nodes"]):
            if not isinstance(b, dict):
                raise InputError("a node must be an object", place=f"functions.{fname}.nodes[{j}]")
            copy = dict(b)
            copy["name"] = inner(b.get("name") or f"{b.get('op')}_{j}")
            copy["inputs"] = [inner(t) for t in b.get("inputs", [])]
            copy["outputs"] = [inner(t) for t in b.get("outputs", [])]
            body.append(copy)
        yield from self.nodes(body, f"functions.{fname}.nodes", depth + 1)
        for result, decl in results.items():
            self.annotate(inner(result), decl, rename)
        for k, result in enumerate(names_of(fn.get("outputs", []))):
            if k < len(outs) and outs[k]:
                yield {"name": f"{name}/out{k}", "op": "Identity", "inputs": [inner(result)],
                       "outputs": [outs[k]]}

    def annotate(self, tensor: str, decl, rename: "_SymbolRenamer"):
        if not decl:
            return
        decl = dict(decl)
        if "shape" in decl:
            decl["shape"] = rename.shape(decl["shape"])
        self.graph["annotations"][tensor] = decl


class _SymbolRenamer:
    """The names in a function's shapes, renamed for one call site (fresh-looking names,
    which the solver eliminates first and prints renumbered)."""

    def __init__(self, site: int):
        self.site = site

    def name(self, n: str) -> str:
        return f"_f{self.site}_{n.lstrip('_')}"

    def shape(self, value):
        if isinstance(value, list):
            return [self.text(v) if isinstance(v, str) and v != "?" else v for v in value]
        if isinstance(value, str):
            return self.text(value)
        return value

    def text(self, text: str) -> str:
        try:
            tokens = tokenize(text)
        except ShapeSyntaxError:
            return text  # the loader reports it
        out = []
        for i, (kind, v, _) in enumerate(tokens):
            calls = i + 1 < len(tokens) and tokens[i + 1][1] == "(" and v in FUNCTIONS
            out.append(self.name(v) if kind == "name" and not calls else v)
        return " ".join(out)
