"""The lines under a diagnostic: tensors as the rest of its core computes them, and where
each comes from (a node of the core, a declaration, the neighbourhood's context)."""
from __future__ import annotations

SECTION = {"input": "inputs", "init": "initializers", "ann": "annotations", "output": "outputs"}


def node_labels(graph, primary, core, before) -> list[str]:
    """The primary node's inputs, and those of its outputs something else declares."""
    if primary is None:
        return []
    names = [t for t in primary.inputs if t] + [t for t in primary.outputs if t in before]
    return _aligned(graph, names, core, before)


def producer_labels(graph, tensor, core, before) -> list[str]:
    """The contradicted tensor as the rest of the core computes it, and where from."""
    return _aligned(graph, [tensor], core, before)


def _aligned(graph, names, core, before) -> list[str]:
    names = list(dict.fromkeys(names))
    width = max((len(t) for t in names), default=0)
    shape_width = max((len(before.get(t, "?")) for t in names), default=0)
    producer = graph.producer()
    in_core = {(s.arguments[0].name, s.arguments[1].string) for s in core}
    lines = []
    for t in names:
        shape = before.get(t, "?")
        origin = _origin(graph, t, producer, in_core, before)
        lines.append(f"{t.ljust(width)} : {shape.ljust(shape_width)}   {origin}".rstrip())
    return lines


def _origin(graph, t, producer, in_core, before) -> str:
    n = producer.get(t)
    if n is not None and ("node", n.name) in in_core:
        first = next((x for x in n.inputs if x), None)
        of = f" of {first} : {before[first]}" if first in before else ""
        return f'from {n.op} "{n.name}"{of}'
    for kind in ("input", "init", "ann", "output"):
        if (kind, t) in in_core:
            return f"from {SECTION[kind]}.{t}"
    if ("ctx", t) in in_core:
        return "as the rest of the graph gives it"
    for kind, section in (("input", graph.inputs), ("init", graph.initializers)):
        if t in section:
            return f"from {SECTION[kind]}.{t}"
    return ""
