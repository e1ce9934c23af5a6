"""A layered (Sugiyama-style) layout of a DAG, in pure Python and near-linear time.

grandalf's Sugiyama layout took 190 s for a 1,000-node graph on this machine
(bench/layout.py), so `shape-logic show` uses this simpler one:

1. layers: longest path from the sources; a source (a graph input, a weight)
   then moves down to just above its first consumer, so weights sit next to
   the node that uses them;
2. edges spanning a few layers get a dummy point per layer they cross (so they
   bend around nodes); longer ones (a residual, a mask used by every layer)
   are drawn as one curve, which keeps the dummy count linear;
3. order inside a layer: a few barycenter sweeps down and up;
4. x: each node pulled to the mean x of its neighbours, overlaps pushed apart
   left-to-right, a few rounds; then a steady drift across layers is removed.

Cycles (not expected in a dataflow graph) are broken by ignoring back edges.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

LAYER_GAP = 70  # vertical space between layers (edge labels sit there)
NODE_GAP = 40  # horizontal space between neighbours
MAX_DUMMY_SPAN = 6  # edges spanning more layers are drawn as one curve
SWEEPS = 4
X_ROUNDS = 4


@dataclass
class Layout:
    pos: dict = field(default_factory=dict)  # id -> (cx, cy), the node's centre
    routes: list = field(default_factory=list)  # per edge: points from source to target
    width: float = 0.0
    height: float = 0.0


def layered_layout(ids: list, sizes: dict, edges: list) -> Layout:
    """`sizes[id] = (w, h)`; `edges` = [(src, dst)]. Every id gets a position."""
    succ, pred = defaultdict(list), defaultdict(list)
    for s, d in edges:
        succ[s].append(d)
        pred[d].append(s)
    order = _topological(ids, succ, pred)
    rank = _layers(order, succ, pred)
    # layer members, with dummies for short long-edges
    layers: dict[int, list] = defaultdict(list)
    for v in order:
        layers[rank[v]].append(v)
    chains = []  # per edge: the vertices it passes (source, dummies..., target)
    up, down = defaultdict(list), defaultdict(list)  # adjacency between consecutive layers
    dummy_w = {}
    for k, (s, d) in enumerate(edges):
        span = rank[d] - rank[s]
        chain = [s]
        if 1 < span <= MAX_DUMMY_SPAN:
            for r in range(rank[s] + 1, rank[d]):
                dv = ("dummy", k, r)
                layers[r].append(dv)
                rank[dv] = r
                dummy_w[dv] = 10
                chain.append(dv)
        chain.append(d)
        chains.append(chain)
        if span >= 1 and (span == 1 or len(chain) > 2):
            for a, b in zip(chain, chain[1:]):
                down[a].append(b)
                up[b].append(a)
    levels = [layers[r] for r in sorted(layers)]
    _order_layers(levels, up, down)

    def width(v):
        return dummy_w[v] if v in dummy_w else sizes[v][0]

    xs = _assign_x(levels, up, down, width)
    _straighten(levels, xs)
    # y: each layer as tall as its tallest node
    ys, y = {}, 20.0
    for level in levels:
        h = max((sizes[v][1] for v in level if v not in dummy_w), default=10)
        for v in level:
            ys[v] = y + h / 2
        y += h + LAYER_GAP
    out = Layout()
    min_x = min((xs[v] - width(v) / 2 for v in xs), default=0.0)
    shift = 20 - min_x
    for v in xs:
        if v not in dummy_w:
            out.pos[v] = (xs[v] + shift, ys[v])
    for chain in chains:
        out.routes.append([(xs[v] + shift, ys[v]) for v in chain])
    out.width = max((xs[v] + shift + width(v) / 2 for v in xs), default=0.0) + 20
    out.height = y
    return out


def _topological(ids, succ, pred) -> list:
    """Kahn's order; whatever a cycle leaves is appended in input order."""
    indeg = {v: 0 for v in ids}
    for v in ids:
        for d in succ[v]:
            indeg[d] += 1
    ready = [v for v in ids if indeg[v] == 0]
    out, seen = [], set()
    while ready:
        v = ready.pop()
        out.append(v)
        seen.add(v)
        for d in succ[v]:
            indeg[d] -= 1
            if indeg[d] == 0:
                ready.append(d)
    out.extend(v for v in ids if v not in seen)
    return out


def _layers(order, succ, pred) -> dict:
    index = {v: i for i, v in enumerate(order)}
    rank = {}
    for v in order:
        # only edges from earlier vertices count (back edges of a cycle are ignored)
        rank[v] = max((rank[p] + 1 for p in pred[v] if index[p] < index[v]), default=0)
    # sources move down to just above their first consumer
    for v in order:
        if not pred[v] and succ[v]:
            rank[v] = max(0, min(rank[d] for d in succ[v]) - 1)
    return rank


def _order_layers(levels, up, down) -> None:
    """Barycenter heuristic: sort each layer by the mean position of its neighbours."""
    for sweep in range(SWEEPS):
        seq = range(1, len(levels)) if sweep % 2 == 0 else range(len(levels) - 2, -1, -1)
        nbrs = up if sweep % 2 == 0 else down
        for r in seq:
            ref = levels[r - 1] if sweep % 2 == 0 else levels[r + 1]
            where = {v: i for i, v in enumerate(ref)}
            keyed = []
            for i, v in enumerate(levels[r]):
                ps = [where[p] for p in nbrs[v] if p in where]
                keyed.append((sum(ps) / len(ps) if ps else i, i, v))
            keyed.sort(key=lambda t: (t[0], t[1]))
            levels[r][:] = [v for _, _, v in keyed]


def _assign_x(levels, up, down, width) -> dict:
    xs = {}
    for level in levels:
        x = 0.0
        for v in level:
            xs[v] = x + width(v) / 2
            x += width(v) + NODE_GAP
    for rnd in range(X_ROUNDS):
        seq = levels if rnd % 2 == 0 else list(reversed(levels))
        nbrs = up if rnd % 2 == 0 else down
        for level in seq:
            want = []
            for v in level:
                ps = [xs[p] for p in nbrs[v]]
                want.append(sum(ps) / len(ps) if ps else xs[v])
            _place(level, want, xs, width)
    return xs


def _straighten(levels, xs) -> None:
    """Remove a steady drift: the packing pushes every layer a little the same way, and a
    1,000-layer graph ends up leaning far to one side. Fit the layers' mean x to a line over
    the layer number and subtract its slope (neighbouring layers move together, so local
    alignment is kept)."""
    n = len(levels)
    if n < 3:
        return
    means = [sum(xs[v] for v in level) / len(level) for level in levels]
    mr = (n - 1) / 2
    mx = sum(means) / n
    slope = sum((r - mr) * (m - mx) for r, m in enumerate(means)) / \
        sum((r - mr) ** 2 for r in range(n))
    for r, level in enumerate(levels):
        for v in level:
            xs[v] -= slope * r


def _place(level, want, xs, width) -> None:
    """Put each node at its wanted x, keeping the order and the gaps: a left-to-right pass
    pushes right, a right-to-left pass pulls back, and the two are averaged."""
    n = len(level)
    left = [0.0] * n
    for i, v in enumerate(level):
        lo = left[i - 1] + (width(level[i - 1]) + width(v)) / 2 + NODE_GAP if i else -1e18
        left[i] = max(want[i], lo)
    right = [0.0] * n
    for i in range(n - 1, -1, -1):
        v = level[i]
        hi = right[i + 1] - (width(level[i + 1]) + width(v)) / 2 - NODE_GAP if i < n - 1 \
            else 1e18
        right[i] = min(want[i], hi)
    for i, v in enumerate(level):
        xs[v] = (left[i] + right[i]) / 2
    # the average of two valid placements keeps the order; restore the gaps it may shrink
    for i in range(1, n):
        lo = xs[level[i - 1]] + (width(level[i - 1]) + width(level[i])) / 2 + NODE_GAP
        if xs[level[i]] < lo:
            xs[level[i]] = lo
