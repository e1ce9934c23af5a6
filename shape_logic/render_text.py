"""The readable text form of a solution (`shape-logic solve` without --format json)."""
from __future__ import annotations

from .sequences import columns
from .requirements import one_of_text


def _range_origin(sol, s: str) -> str:
    """` (at Add "emb")`: the node whose sizes bound s from above, where one does, or
    ` (by A = B)`: the equation that confines s."""
    return _place(sol, sol.decoded.range_origins.get(s))


def _grouped(items: list) -> str:
    """[(text, origin)] as `a, b (origin), c`: neighbours of one origin say it once."""
    out = []
    for i, (text, origin) in enumerate(items):
        last = i + 1 == len(items) or items[i + 1][1] != origin
        out.append(text + (origin if last else ""))
    return ", ".join(out)


def _floor_origin(sol, s: str) -> str:
    """` (at Conv "c1")`: the node whose sizes require s's floor, or ` (by A = B)`: the
    equation that does."""
    return _place(sol, sol.decoded.floor_origins.get(s))


def _place(sol, origin) -> str:
    """` (at Conv "c1")` for a tensor (its node), ` (by A = B)` for an equation (A, B)."""
    if isinstance(origin, tuple):
        return " (by {} = {})".format(*sol.renamed(*origin))
    return _origin(sol, origin)


def _origin(sol, tensor) -> str:
    """` (at Gather "emb")`: the node making the tensor, where there is one."""
    origin = sol.origin(tensor) if tensor else ""
    return f" (at {origin})" if origin and origin not in ("input", "initializer") else ""


def render_solution(sol, color: bool = False) -> str:
    g = sol.graph
    lines = []
    tensors = g.tensors()
    status = "ok" if sol.status == "ok" else "error"
    lines.append(f"graph {g.name!r}: {status} ({len(g.nodes)} nodes, {len(tensors)} tensors)")
    cores: dict = {}  # a core listed, as text -> the number of the error it was listed at
    for k, d in enumerate(sol.diagnostics, 1):
        lines.append("")
        # (an inconsistent NASNet's five errors shared one core of 150 nodes: listed once)
        key = repr(d.core) if d.core and not d.context else None
        lines.append(d.to_text(color, cores.get(key)))
        if key is not None:
            cores.setdefault(key, k)
    rows = [(t, *columns(sol, t), sol.origin(t)) for t in tensors]
    widths = [max([len(r[i]) for r in rows] + [len(h)]) for i, h in
              enumerate(("tensor", "dtype", "shape", "from"))]
    lines.append("")
    header = ("tensor", "dtype", "shape", "from")
    lines.append("  " + "  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip())
    for r in rows:
        lines.append("  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    if sol.bindings:
        lines.append("")
        lines.append("bindings: " + ", ".join(f"{s} = {v}" for s, v in sol.bindings.items()))
    if sol.input_values:  # (names of the inputs' elements read as sizes: their values)
        lines.append("input values: " + ", ".join(f"{s} = {place}"
                                                  for s, place in sol.input_values.items()))
    if sol.ranges:
        lines.append("ranges: " + ", ".join(f"{s} in {lo}..{hi}" + _range_origin(sol, s)
                                            for s, (lo, hi) in sol.ranges.items()))
    if sol.floors:
        lines.append("floors: " + _grouped([(f"{s} >= {v}", _floor_origin(sol, s))
                                            for s, v in sol.floors.items()]))
    if g.symbol_map:
        lines.append("symbols: " + ", ".join(f"{k!r} -> {v}" for k, v in g.symbol_map.items()))
    if sol.constraints:
        lines.append("constraints: " + ", ".join(sol.constraints))
    # (what a broadcast against an integer leaves, 1 or it; what nodes require of several
    # symbols together)
    required = [one_of_text(e, vs) for e, vs in sol.one_of.items()] + [
        text + _origin(sol, t)
        for text, (_, _, t) in zip(sol.inequalities, sol.decoded.inequalities)]
    if required:
        lines.append("requires: " + ", ".join(required))
    if any(sol.cases):
        lines.append("cases: " + " | ".join(", ".join(f"{k} = {v}" for k, v in c.items()) or "-"
                                          for c in sol.cases))
    for t, shapes in sol.alternatives.items():
        lines.append(f"alternatives: {t}: {' | '.join(shapes)}")
    if sol.alternatives_capped:
        lines.append("alternatives: capped (more cases than listed, or a graph too large)")
    return "\n".join(lines)
