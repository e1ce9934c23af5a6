"""Layout time of `shape-logic show` (shape_logic/layout.py) vs grandalf's Sugiyama layout,
same graphs, same run. Run by hand: python bench/layout.py [--grandalf 250,500]

grandalf is not a dependency; it is timed only when installed (pip install grandalf).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.synthetic import transformer  # noqa: E402
from shape_logic.picture import picture  # noqa: E402
from shape_logic.render_html import render_html  # noqa: E402
from shape_logic.solver import solve  # noqa: E402


def time_ours(pic) -> float:
    t0 = time.perf_counter()
    pic.lay_out()
    return time.perf_counter() - t0


def time_grandalf(pic) -> float:
    from grandalf.graphs import Edge, Graph, Vertex
    from grandalf.layouts import SugiyamaLayout

    class View:
        def __init__(self, size):
            self.w, self.h = size

    vs = {}
    for b in pic.boxes:
        vs[b.id] = Vertex(b.id)
        vs[b.id].view = View(b.size)
    t0 = time.perf_counter()
    g = Graph(list(vs.values()), [Edge(vs[e.src], vs[e.dst]) for e in pic.edges])
    for comp in g.C:
        lay = SugiyamaLayout(comp)
        lay.init_all()
        lay.draw(2)
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1000,5000")
    ap.add_argument("--grandalf", default="250,500", help="sizes to time grandalf on ('' none)")
    args = ap.parse_args()
    sizes = sorted({int(s) for s in (args.sizes + "," + args.grandalf).split(",") if s})
    peers = {int(s) for s in args.grandalf.split(",") if s}
    print(f"{'nodes':>6} {'boxes':>6} {'ground s':>8} {'ours s':>8} {'html s':>7} "
          f"{'grandalf s':>11} ratio")
    for n in sizes:
        sol = solve(transformer(n))
        pic = picture(sol)
        ours = time_ours(pic)
        t0 = time.perf_counter()
        render_html(pic)
        html = time.perf_counter() - t0
        ga = time_grandalf(picture(sol)) if n in peers else None
        ratio = f"{ga / ours:.0f}x" if ga else ""
        print(f"{len(sol.graph.nodes):>6} {len(pic.boxes):>6} {sol.timings.get('ground', 0):>8.2f} "
              f"{ours:>8.2f} {html:>7.2f} {ga if ga is not None else float('nan'):>11.2f} {ratio}",
              flush=True)


if __name__ == "__main__":
    main()
