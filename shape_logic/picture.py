"""A solved graph as a picture model: boxes, edges labelled with shapes, groups, the core.

Renderers (render_svg, render_dot, render_html) draw this model; nothing here
knows about a drawing format.  Boxes are the graph's nodes plus one box per
graph input, initializer and output, so every edge — a tensor going from its
producer to one consumer — carries the tensor's shape.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .asp.program import available_ops, shown_path
from .layout import Layout, layered_layout
from .sequences import columns

MANY_USES = 4  # a graph input feeding more nodes is repeated beside each
CHAR_W = 7.2  # px per character of the 12px monospace font the renderers use
BOX_H = 38


@dataclass
class Box:
    id: str
    kind: str  # "node" | "input" | "initializer" | "output"
    title: str  # the op, or the tensor name
    subtitle: str  # the node name, or the tensor's shape
    group: str = ""  # a function or a name scope, "" for none
    core: bool = False  # part of a diagnostic's unsat core
    repeat: bool = False  # a graph input drawn again beside a later user
    details: dict = field(default_factory=dict)  # what a click shows

    @property
    def size(self) -> tuple[float, float]:
        chars = max(len(self.title), len(self.subtitle), 4)
        return (min(chars, 48) * CHAR_W + 20, BOX_H)


@dataclass
class Edge:
    src: str
    dst: str
    tensor: str
    shape: str
    dtype: str
    core: bool = False
    port: int = 0  # which of the target's drawn inputs this is
    ports: int = 1  # how many inputs the target draws


@dataclass
class Picture:
    name: str
    status: str
    boxes: list
    edges: list
    bindings: dict
    symbols: list  # the symbols the shapes are written in
    ranges: dict
    constraints: list
    diagnostics: list  # (diagnostic json, id of the box it is drawn beside)
    layout: Layout | None = None

    def box(self, box_id: str) -> Box:
        return self._index[box_id]

    def lay_out(self) -> Layout:
        self._index = {b.id: b for b in self.boxes}
        if self.layout is None:
            self.layout = layered_layout([b.id for b in self.boxes],
                                         {b.id: b.size for b in self.boxes},
                                         [(e.src, e.dst) for e in self.edges])
        return self.layout


def picture(sol, rules=()) -> Picture:
    g = sol.graph
    rule_files = available_ops(rules)
    core_nodes, core_tensors = _core(sol)
    boxes, edges = [], []
    where: dict[str, str] = {}  # tensor -> id of the box that produces it

    def tensor_info(t):
        dtype, shape = columns(sol, t)
        return {"tensor": t, "dtype": dtype, "shape": shape}

    for kind, decls in (("input", g.inputs), ("initializer", g.initializers)):
        for t in decls:
            if t in where:
                continue
            where[t] = f"{kind}:{t}"
            boxes.append(Box(where[t], kind, t, columns(sol, t)[1], core=t in core_tensors,
                             details={"kind": kind, **tensor_info(t)}))
    for node in g.nodes:
        nid = f"node:{node.index}"
        for t in node.outputs:
            if t:
                where[t] = nid
        rule = rule_files.get(node.op)
        boxes.append(Box(nid, "node", node.op, node.name, _group(node, g),
                         core=node.name in core_nodes,
                         details={"kind": "node", "op": node.op, "name": node.name,
                                  "attributes": {k: _attr_text(v) for k, v in node.attrs.items()},
                                  "rule_file": shown_path(rule) if rule else None,
                                  "inputs": [tensor_info(t) for t in node.inputs if t],
                                  "outputs": [tensor_info(t) for t in node.outputs if t]}))
    for node in g.nodes:  # a tensor nothing declares or produces: draw it as an input
        for t in node.inputs:
            if t and t not in where:
                where[t] = f"input:{t}"
                boxes.append(Box(where[t], "input", t, columns(sol, t)[1],
                                 details={"kind": "input", **tensor_info(t)}))
    for t in g.outputs:
        boxes.append(Box(f"output:{t}", "output", t, columns(sol, t)[1], core=t in core_tensors,
                         details={"kind": "output", **tensor_info(t)}))
    ends = [(f"node:{node.index}", [t for t in node.inputs if t]) for node in g.nodes]
    ends += [(f"output:{t}", [t]) for t in g.outputs if t in where]
    uses: dict[str, int] = {}
    for _, tensors in ends:
        for t in tensors:
            uses[t] = uses.get(t, 0) + 1
    # a constant used by several nodes (a shape) is drawn next to each user, as Netron
    # does, instead of one box with edges running the length of the graph; so is a graph
    # input feeding many nodes (a mask), after its first user, as a dashed repeat
    shared = {t for t in g.initializers if uses.get(t, 0) > 1 and where[t] == f"initializer:{t}"}
    repeated = {t for t in g.inputs if uses.get(t, 0) > MANY_USES and where[t] == f"input:{t}"}
    boxes = [b for b in boxes if not (b.kind == "initializer" and b.title in shared)]
    by_id = {b.id: b for b in boxes}
    seen: set = set()
    for dst, tensors in ends:
        for k, t in enumerate(tensors):
            src = where[t]
            if t in shared or (t in repeated and t in seen):
                kind = "initializer" if t in shared else "input"
                src = f"{kind}:{t}#{len(by_id)}"
                by_id[src] = Box(src, kind, t, columns(sol, t)[1], core=t in core_tensors,
                                 repeat=t in repeated, details={"kind": kind, **tensor_info(t)})
                boxes.append(by_id[src])
            seen.add(t)
            # an edge is in the core when a core source declares its tensor, or it joins two
            # core boxes (the conflict travelled along it)
            core = t in core_tensors or (by_id[src].core and by_id[dst].core)
            dtype, shape = columns(sol, t)
            edges.append(Edge(src, dst, t, shape, dtype, core, k, len(tensors)))
    diags = [(d.to_json(), _anchor(d, where, core_nodes, g, by_id)) for d in sol.diagnostics]
    symbols = sorted({s for t in g.tensors() for d in (sol.dims(t) or ()) for s in d.symbols()})
    return Picture(g.name, sol.status, boxes, edges, sol.bindings, symbols,
                   {s: list(r) for s, r in sorted(sol.decoded.ranges.items())},
                   sol.constraints, diags)


def info_lines(pic: Picture) -> list[str]:
    """The status, the symbols the shapes use, bindings, ranges, constraints."""
    status = "ok" if pic.status == "ok" else f"error ({len(pic.diagnostics)} diagnostics)"
    lines = [f"graph {pic.name!r}: {status}",
             "symbols: " + (", ".join(pic.symbols) or "none")]
    if pic.bindings:
        lines.append("bindings: " + ", ".join(f"{s} = {v}" for s, v in pic.bindings.items()))
    if pic.ranges:
        lines.append("ranges: " + ", ".join(f"{s} in {lo}..{hi}"
                                            for s, (lo, hi) in pic.ranges.items()))
    if pic.constraints:
        lines.append("constraints: " + ", ".join(pic.constraints))
    return lines


def diagnostic_lines(d: dict) -> list[str]:
    """A diagnostic (its JSON) in a few short lines: message, notes, core."""
    lines = [f"error[{d['code']}]: {d['message']}"]
    lines += [f"  note: {n}" for n in d.get("notes", [])]
    core = ", ".join(c.get("source") or f"{c['kind']} {c['name']}" for c in d.get("core", []))
    if core:
        lines.append(f"  core: {core}")
    return [line if len(line) <= 100 else line[:97] + "..." for line in lines]


def _core(sol) -> tuple[set, set]:
    """Node names and declared tensor names in any diagnostic's core."""
    nodes, tensors = set(), set()
    for d in sol.diagnostics:
        for c in d.core:
            (nodes if c.get("kind") == "node" else tensors).add(c.get("name"))
        if d.tensor:
            tensors.add(d.tensor)
    return nodes, tensors


def _anchor(d, where, core_nodes, g, by_id) -> str | None:
    """The box a diagnostic is drawn beside: its tensor's producer, else a core node."""
    if d.tensor and d.tensor in where:
        return where[d.tensor]
    for node in g.nodes:
        if node.name in core_nodes:
            return f"node:{node.index}"
    return next((b.id for b in by_id.values() if b.core), None)


def _group(node, g) -> str:
    """A function the node calls, or the scope of its name (`/encoder/layer.0/MatMul`)."""
    if node.op in g.functions:
        return f"function {node.op}"
    name = node.name.strip("/")
    if "/" in name:
        return name.rsplit("/", 1)[0]
    return ""


def _attr_text(v) -> str:
    text = repr(v) if not isinstance(v, str) else v
    return text if len(text) <= 200 else text[:197] + "..."
