"""`shape-logic solve --signature`: each function's most general shape signature.

A function is solved on its own, its inputs without shapes unless it declares
them (so of any rank: rows), as Axon infers `attention: t[a,b], t[c,b], t[c,d] ->
t[a,d]`. Fresh names (`_1`, ...) are printed as letters, as in Axon.
"""
from __future__ import annotations

import re
import string
from typing import Any

from .calls import decls_of
from .errors import InputError
from .load import load_graph


def signatures(source: Any, rules=()) -> dict[str, str]:
    """{function name: "name: in, ... -> out, ..."} for every function of the graph."""
    from .solver import solve

    graph = load_graph(source)
    data = graph.source if isinstance(graph.source, dict) else {}
    functions = data.get("functions") or {}
    out = {}
    for fname, fn in functions.items():
        params, results = decls_of(fn.get("inputs", [])), decls_of(fn.get("outputs", []))
        g = {"name": fname, "opset": data.get("opset", 18),
             "inputs": {p: dict(d or {}) for p, d in params.items()},
             "outputs": {r: dict(d or {}) for r, d in results.items()},
             "nodes": fn["nodes"], "annotations": fn.get("annotations") or {},
             "initializers": fn.get("initializers") or {}, "functions": functions}
        try:
            sol = solve(g, rules=rules, explain=False)
        except InputError as e:
            raise InputError(f"function {fname!r}: {e.reason if hasattr(e, 'reason') else e}",
                             graph.path, f"functions.{fname}")
        if sol.status != "ok":
            out[fname] = f"{fname}: error ({sol.diagnostics[0].message})"
            continue

        def typed(t):
            dt = sol.dtype(t)
            return f"{dt}{sol.shape(t)}" if dt else sol.shape(t)

        text = f"{fname}: {', '.join(typed(p) for p in params)} -> " \
               f"{', '.join(typed(r) for r in results)}"
        out[fname] = _letters(text)
    return out


def _letters(text: str) -> str:
    """Fresh names `_k` as the first letters not otherwise used, in order of appearance."""
    used = set(re.findall(r"\b[A-Za-z][A-Za-z0-9_]*\b", text))
    free = (c for c in string.ascii_lowercase if c not in used)
    mapping: dict[str, str] = {}

    def sub(m):
        if m.group(0) not in mapping:
            mapping[m.group(0)] = next(free, m.group(0))
        return mapping[m.group(0)]

    return re.sub(r"(?<![A-Za-z0-9_])_\d+\b", sub, text)


def cmd_signature(args) -> int:
    import json

    sigs = signatures(args.graph, rules=args.rules)
    if args.format == "json":
        print(json.dumps({"signatures": sigs}, indent=2))
    else:
        print("\n".join(sigs.values()) if sigs else "no functions")
    return 1 if any(s.startswith(f"{name}: error (") for name, s in sigs.items()) else 0
