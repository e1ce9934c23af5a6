"""A Picture as Graphviz DOT: every edge labelled with its shape, groups as clusters, the
core in red, the symbols/bindings and diagnostics as notes (render with any dot)."""
from __future__ import annotations

from .picture import Picture, diagnostic_lines, info_lines


def render_dot(pic: Picture) -> str:
    out = [f"digraph {_q(pic.name)} {{",
           '  graph [fontname="monospace", rankdir=TB, labelloc=t, labeljust=l, '
           f"label={_q(chr(10).join(info_lines(pic)) + chr(10))}];",
           '  node [shape=box, style="rounded,filled", fillcolor="#eef3fb", '
           'fontname="monospace", fontsize=11];',
           '  edge [fontname="monospace", fontsize=10, color="#8a9bb5"];']
    groups: dict[str, list] = {}
    for b in pic.boxes:
        groups.setdefault(b.group, []).append(b)
    for k, (name, boxes) in enumerate(groups.items()):
        indent = "  "
        if name:
            out.append(f"  subgraph cluster_{k} {{ label={_q(name)}; style=dashed;")
            indent = "    "
        for b in boxes:
            attrs = [f"label={_q(b.title + chr(10) + b.subtitle)}"]
            if b.kind != "node":
                attrs.append('fillcolor="#f4f4f4"' if b.kind != "output"
                             else 'fillcolor="#f1f8ee"')
            if b.repeat:
                attrs.append('style="rounded,filled,dashed"')
            if b.core:
                attrs.append('color="#c62828", fillcolor="#fde8e8", penwidth=2.5')
            out.append(f"{indent}{_q(b.id)} [{', '.join(attrs)}];")
        if name:
            out.append("  }")
    for e in pic.edges:
        attrs = [f"label={_q(e.shape)}", f"tooltip={_q(e.tensor)}"]
        if e.core:
            attrs.append('color="#c62828", fontcolor="#c62828", penwidth=2.5')
        out.append(f"  {_q(e.src)} -> {_q(e.dst)} [{', '.join(attrs)}];")
    for k, (d, anchor) in enumerate(pic.diagnostics):
        note = f"diagnostic:{k}"
        text = "\\l".join(_esc(line) for line in diagnostic_lines(d)) + "\\l"
        out.append(f'  "{note}" [shape=note, color="#c62828", fontcolor="#8b1a1a", '
                   f'fillcolor="#fff5f5", label="{text}"];')
        if anchor:
            out.append(f'  {_q(anchor)} -> "{note}" [style=dashed, color="#c62828", '
                       "arrowhead=none, constraint=false];")
    out.append("}")
    return "\n".join(out) + "\n"


def _esc(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"')


def _q(s: str) -> str:
    return '"' + _esc(s).replace("\n", "\\n") + '"'
