"""Synthetic transformer-like graphs in the graph format, of any size.

Each layer is self-attention as exporters write it: projections (MatMul + Add),
head split (Reshape with 0-copies + Transpose), scores (MatMul), mask (Add with
broadcasting), Relu standing in for softmax, context (MatMul), head merge
(Transpose + Reshape with -1), output projection and residual. Batch `b` and
sequence `s` are symbolic. `conflict_at` makes one layer's output projection
weight have a wrong input size.
"""
from __future__ import annotations

NODES_PER_LAYER = 20


def transformer(n_nodes: int, d: int = 64, heads: int = 4, conflict_at: int | None = None) -> dict:
    layers = max(1, n_nodes // NODES_PER_LAYER)
    dh = d // heads
    g = {"name": f"transformer_{n_nodes}", "inputs": {}, "nodes": [], "initializers": {},
         "outputs": {}}
    g["inputs"]["x"] = {"dtype": "f32", "shape": f"[b, s, {d}]"}
    g["inputs"]["mask"] = {"dtype": "f32", "shape": "[b, 1, 1, s]"}
    g["initializers"]["split_heads"] = {"dtype": "i64", "data": [0, 0, heads, dh]}
    g["initializers"]["merge_heads"] = {"dtype": "i64", "data": [0, 0, -1]}
    nodes = g["nodes"]
    x = "x"

    def node(op, ins, out, attrs=None):
        nd = {"name": out, "op": op, "inputs": ins, "outputs": [out]}
        if attrs:
            nd["attrs"] = attrs
        nodes.append(nd)
        return out

    for i in range(layers):
        p = f"l{i}_"
        heads_of = {}
        for name in ("q", "k", "v"):
            w, bias = p + "w" + name, p + "b" + name
            g["inputs"][w] = {"dtype": "f32", "shape": [d, d]}
            g["inputs"][bias] = {"dtype": "f32", "shape": [d]}
            proj = node("MatMul", [x, w], p + name + "_mm")
            proj = node("Add", [proj, bias], p + name)
            split = node("Reshape", [proj, "split_heads"], p + name + "_split")
            perm = [0, 2, 3, 1] if name == "k" else [0, 2, 1, 3]
            heads_of[name] = node("Transpose", [split], p + name + "_heads", {"perm": perm})
        scores = node("MatMul", [heads_of["q"], heads_of["k"]], p + "scores")
        masked = node("Add", [scores, "mask"], p + "masked")
        probs = node("Relu", [masked], p + "probs")
        ctx = node("MatMul", [probs, heads_of["v"]], p + "ctx")
        merged = node("Transpose", [ctx], p + "ctx_t", {"perm": [0, 2, 1, 3]})
        merged = node("Reshape", [merged, "merge_heads"], p + "merged")
        wo = p + "wo"
        bad = conflict_at is not None and i == conflict_at
        g["inputs"][wo] = {"dtype": "f32", "shape": [d + 1 if bad else d, d]}
        out = node("MatMul", [merged, wo], p + "out")
        x = node("Add", [out, x], p + "residual")
    g["outputs"][x] = {}
    return g
