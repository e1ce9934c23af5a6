"""A Picture as SVG: boxes, curved edges labelled with their shapes, groups, the core in red,
each diagnostic in a box at the right with a dashed line to where it shows."""
from __future__ import annotations

from html import escape

from .picture import BOX_H, CHAR_W, Picture, diagnostic_lines, info_lines

STYLE = """
.box rect { fill: #eef3fb; stroke: #5b7db1; stroke-width: 1.2; rx: 5; }
.box.input rect, .box.initializer rect { fill: #f4f4f4; stroke: #888; }
.box.repeat rect { stroke-dasharray: 4 3; }
.box.output rect { fill: #f1f8ee; stroke: #6a9d55; }
.box.core rect { fill: #fde8e8; stroke: #c62828; stroke-width: 2.5; }
.box text { font: 12px monospace; fill: #1a1a1a; }
.box .title { font-weight: bold; }
.box .sub { fill: #555; }
.box { cursor: pointer; }
.box.selected rect { stroke: #ff9800; stroke-width: 3; }
.edge { fill: none; stroke: #8a9bb5; stroke-width: 1.2; }
.edge.core { stroke: #c62828; stroke-width: 2.5; }
.shape { font: 11px monospace; fill: #23466e; paint-order: stroke; stroke: #fff;
         stroke-width: 3px; }
.shape.core { fill: #c62828; font-weight: bold; }
.group rect { fill: #fafafa; stroke: #bbb; stroke-dasharray: 4 3; rx: 8; }
.group text { font: italic 11px sans-serif; fill: #777; }
.diag rect { fill: #fff5f5; stroke: #c62828; stroke-width: 1.5; rx: 4; }
.diag text { font: 12px monospace; fill: #8b1a1a; }
.diag line { stroke: #c62828; stroke-dasharray: 5 4; }
.info text { font: 12px monospace; fill: #333; }
"""

DIAG_GAP = 60


def render_svg(pic: Picture, standalone: bool = True) -> str:
    lay = pic.lay_out()
    diag_lines = [diagnostic_lines(d) for d, _ in pic.diagnostics]
    diag_w = max((len(line) for lines in diag_lines for line in lines), default=0) * CHAR_W
    info = info_lines(pic)
    width = lay.width + (diag_w + DIAG_GAP + 20 if diag_lines else 0)
    top = 16 * len(info) + 20  # the symbols and bindings, above the graph
    height = lay.height + top
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" id="graph" width="{width:.0f}" '
           f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}">']
    if standalone:
        out.append(f"<style>{STYLE}</style>")
    out.append('<g class="info">')
    for k, line in enumerate(info):
        out.append(f'<text x="20" y="{20 + 16 * k}">{escape(line)}</text>')
    out.append(f'</g><g id="scene" transform="translate(0,{top})">')
    out.extend(_groups(pic))
    ports = _ports(pic.edges, lay.routes)
    for e, route, port in zip(pic.edges, lay.routes, ports):
        out.extend(_edge(e, route, port, pic))
    for b in pic.boxes:
        out.append(_box(b, lay.pos[b.id]))
    y = 0.0
    for (d, anchor), lines in zip(pic.diagnostics, diag_lines):
        x = lay.width + DIAG_GAP
        if anchor in lay.pos:
            ax, ay = lay.pos[anchor]
            y = max(y, ay - BOX_H / 2)
            aw = pic.box(anchor).size[0]
            out.append(f'<g class="diag"><line x1="{ax + aw / 2:.1f}" y1="{ay:.1f}" '
                       f'x2="{x:.1f}" y2="{y + 12:.1f}"/>')
        else:
            out.append('<g class="diag">')
        h = 16 * len(lines) + 10
        out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{diag_w + 20:.1f}" height="{h}"/>')
        for k, line in enumerate(lines):
            out.append(f'<text x="{x + 10:.1f}" y="{y + 20 + 16 * k:.1f}">{escape(line)}</text>')
        out.append("</g>")
        y += h + 12
    out.append("</g></svg>")
    return "\n".join(out)


def _groups(pic: Picture) -> list[str]:
    lay = pic.layout
    spans: dict[str, list] = {}
    for b in pic.boxes:
        if b.group:
            (x, y), (w, h) = lay.pos[b.id], b.size
            s = spans.setdefault(b.group, [x - w / 2, y - h / 2, x + w / 2, y + h / 2])
            s[:] = [min(s[0], x - w / 2), min(s[1], y - h / 2), max(s[2], x + w / 2),
                    max(s[3], y + h / 2)]
    out = []
    for name, (x0, y0, x1, y1) in spans.items():
        out.append(f'<g class="group"><rect x="{x0 - 10:.1f}" y="{y0 - 18:.1f}" '
                   f'width="{x1 - x0 + 20:.1f}" height="{y1 - y0 + 28:.1f}"/>'
                   f'<text x="{x0 - 6:.1f}" y="{y0 - 6:.1f}">{escape(name)}</text></g>')
    return out


def _ports(edges, routes) -> list[int]:
    """Where each edge enters its target: ports ordered like the points the edges come
    from, so edges into one box do not cross just above it."""
    into: dict[str, list] = {}
    for k, (e, route) in enumerate(zip(edges, routes)):
        into.setdefault(e.dst, []).append((route[-2][0], e.port, k))
    port = [0] * len(edges)
    for items in into.values():
        for p, (_, _, k) in enumerate(sorted(items)):
            port[k] = p
    return port


def _edge(e, route, port, pic) -> list[str]:
    (x0, y0), (x1, y1) = route[0], route[-1]
    # inputs enter the target at ports spread along its top edge, in input order
    w = pic.box(e.dst).size[0]
    x1 = x1 - w / 2 + w * (port + 1) / (e.ports + 1)
    route = [(x0, y0 + BOX_H / 2)] + route[1:-1] + [(x1, y1 - BOX_H / 2)]
    d = [f"M{route[0][0]:.1f},{route[0][1]:.1f}"]
    for (ax, ay), (bx, by) in zip(route, route[1:]):
        my = (ay + by) / 2
        d.append(f"C{ax:.1f},{my:.1f} {bx:.1f},{my:.1f} {bx:.1f},{by:.1f}")
    cls = "edge core" if e.core else "edge"
    (ax, ay), (bx, by) = route[-2], route[-1]
    # labels of one target's inputs are staggered so that they do not overlap
    lx = (ax + bx) / 2
    ly = (ay + by) / 2 + 4 + (port - (e.ports - 1) / 2) * min(13, 60 / e.ports)
    label = e.shape if len(e.shape) <= 40 else e.shape[:37] + "..."
    title = escape(f"{e.tensor}: {e.dtype} {e.shape}")
    return [f'<path class="{cls}" d="{" ".join(d)}"><title>{title}</title></path>',
            f'<text class="shape{" core" if e.core else ""}" x="{lx + 4:.1f}" y="{ly:.1f}" '
            f'data-tensor="{escape(e.tensor)}">{escape(label)}</text>']


def _box(b, pos) -> str:
    (x, y), (w, h) = pos, b.size
    cls = f"box {b.kind}" + (" core" if b.core else "") + (" repeat" if b.repeat else "")
    title, sub = _cut(b.title), _cut(b.subtitle)
    return (f'<g class="{cls}" data-id="{escape(b.id)}">'
            f'<rect x="{x - w / 2:.1f}" y="{y - h / 2:.1f}" width="{w:.1f}" height="{h}"/>'
            f'<text class="title" x="{x - w / 2 + 10:.1f}" y="{y - 3:.1f}">{escape(title)}</text>'
            f'<text class="sub" x="{x - w / 2 + 10:.1f}" y="{y + 12:.1f}">{escape(sub)}</text>'
            "</g>")


def _cut(text: str) -> str:
    return text if len(text) <= 48 else text[:45] + "..."
