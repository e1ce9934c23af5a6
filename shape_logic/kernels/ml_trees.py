"""The trees of TreeEnsembleClassifier and TreeEnsembleRegressor (ai.onnx.ml 1 and 3): the
parallel nodes_* lists, nodes named by (tree id, node id), and the leaves' weights
(class_* / target_*). Every row walks down every tree at once (one step per level over
all rows and trees), as shape_logic/kernels/TreeEnsemble.py does for ai.onnx.ml 5. Not an
operator (lowercase name)."""
from __future__ import annotations

import numpy as np

from .base import KernelError
from .ml_scores import FEATURE_TYPES, floats, text

MODES = ("BRANCH_LEQ", "BRANCH_LT", "BRANCH_GTE", "BRANCH_GT", "BRANCH_EQ", "BRANCH_NEQ",
         "LEAF")
LEAF = 6
NODE_ATTRS = ("nodes_treeids", "nodes_nodeids", "nodes_featureids", "nodes_modes",
              "nodes_values", "nodes_values_as_tensor", "nodes_truenodeids",
              "nodes_falsenodeids", "nodes_missing_value_tracks_true", "nodes_hitrates",
              "nodes_hitrates_as_tensor", "base_values", "base_values_as_tensor",
              "post_transform")


class Trees:
    """The nodes, checked as onnxruntime checks them, and the weights of the leaves:
    `prefix` "class" or "target" names the weight lists."""

    def __init__(self, op: str, a: dict, prefix: str):
        def fail(msg):
            return KernelError(f"{op}: {msg}")

        def ints(k):
            return np.asarray(a.get(k) if a.get(k) is not None else [], np.int64).reshape(-1)

        tree, node = ints("nodes_treeids"), ints("nodes_nodeids")
        n = len(tree)
        modes = [text(m) for m in (a.get("nodes_modes") or [])]
        if any(m not in MODES for m in modes):
            raise fail(f"nodes_modes must be among {', '.join(MODES)}")
        values = floats(a.get("nodes_values"), a.get("nodes_values_as_tensor"))
        lists = {"nodes_nodeids": node, "nodes_featureids": ints("nodes_featureids"),
                 "nodes_modes": modes, "nodes_values": values if values is not None else [],
                 "nodes_truenodeids": ints("nodes_truenodeids"),
                 "nodes_falsenodeids": ints("nodes_falsenodeids")}
        for k, v in lists.items():
            if len(v) != n:
                raise fail(f"{k} has {len(v)} entries, nodes_treeids {n}")
        if n == 0:
            raise fail("the ensemble has no nodes")
        track = ints("nodes_missing_value_tracks_true")
        self.track = track.astype(bool) if len(track) == n else np.zeros(n, bool)
        self.modes = np.array([MODES.index(m) for m in modes], np.int64)
        self.features, self.values = lists["nodes_featureids"], values
        index = {(t, i): k for k, (t, i) in enumerate(zip(tree.tolist(), node.tolist()))}
        if len(index) != n:
            raise fail("a (tree id, node id) pair is given twice")

        def child(ids):
            out = np.empty(n, np.int64)
            for k, (t, c) in enumerate(zip(tree.tolist(), ids.tolist())):
                if self.modes[k] == LEAF:
                    out[k] = k
                elif (t, c) not in index:
                    raise fail(f"node {node[k]} of tree {t} branches to a missing node {c}")
                else:
                    out[k] = index[t, c]
            return out

        self.true = child(lists["nodes_truenodeids"])
        self.false = child(lists["nodes_falsenodeids"])
        # each tree's root: its smallest node id; trees in increasing id
        trees = sorted(set(tree.tolist()))
        first = {}
        for (t, i) in index:
            first[t] = min(first.get(t, i), i)
        self.roots = np.array([index[t, first[t]] for t in trees], np.int64)
        position = {t: p for p, t in enumerate(trees)}
        self.tree_of = np.array([position[t] for t in tree.tolist()], np.int64)
        # the weights: (leaf index, output column, weight)
        wt, wn, wi = ints(f"{prefix}_treeids"), ints(f"{prefix}_nodeids"), ints(f"{prefix}_ids")
        w = floats(a.get(f"{prefix}_weights"), a.get(f"{prefix}_weights_as_tensor"))
        w = np.zeros(0) if w is None else w
        if not len(wt) == len(wn) == len(wi) == len(w):
            raise fail(f"{prefix}_treeids, {prefix}_nodeids, {prefix}_ids and {prefix}_weights "
                       "differ in length")
        leaf = []
        for t, i in zip(wt.tolist(), wn.tolist()):
            if (t, i) not in index:
                raise fail(f"a weight names a missing node {i} of tree {t}")
            leaf.append(index[t, i])
        self.w_leaf, self.w_col, self.weights = np.array(leaf, np.int64), wi, w.astype(np.float32)
        self.base = floats(a.get("base_values"), a.get("base_values_as_tensor"))
        self.op = op

    def check_columns(self, count: int, what: str):
        if len(self.w_col) and (self.w_col.min() < 0 or self.w_col.max() >= count):
            raise KernelError(f"{self.op}: {what} must lie in [0, {count})")

    def leaves(self, x: np.ndarray) -> np.ndarray:
        """[N, trees]: the node index of the leaf each row reaches in each tree."""
        if x.dtype not in FEATURE_TYPES or x.ndim not in (1, 2):
            raise KernelError(f"{self.op}: X must be [N, F] or [F] of float, double, int64 "
                              f"or int32, not {x.dtype} {list(x.shape)}")
        x = x.reshape(1, -1) if x.ndim == 1 else x
        f = self.features[self.modes != LEAF]
        if len(f) and (f.min() < 0 or f.max() >= x.shape[1]):
            raise KernelError(f"{self.op}: a node reads a feature out of X's {x.shape[1]}")
        # comparisons in float32 for float and integer X, as onnxruntime's float thresholds
        xd = x.astype(np.float64) if x.dtype == np.float64 else x.astype(np.float32)
        splits = self.values.astype(np.float32).astype(xd.dtype)
        place = np.tile(self.roots, (len(x), 1))
        rows = np.arange(len(x))[:, None]
        for _ in range(len(self.modes) + 1):
            inner = self.modes[place] != LEAF
            if not inner.any():
                return place
            v = xd[rows, self.features[place]]
            s, m = splits[place], self.modes[place]
            with np.errstate(invalid="ignore"):
                go = np.choose(np.minimum(m, 5), [v <= s, v < s, v >= s, v > s, v == s, v != s])
            go = np.where(np.isnan(v) & self.track[place], True, go)
            place = np.where(inner, np.where(go, self.true[place], self.false[place]), place)
        raise KernelError(f"{self.op}: a tree's branches go round in a circle")

    def sums(self, reached: np.ndarray, width: int, how: str = "SUM"):
        """[N, width] aggregated weights of the leaves reached, and [N, width] whether any
        reached leaf has a weight for the column (onnxruntime's has_score)."""
        n = len(reached)
        # [N, weights]: whether the row reaches the weight's leaf (in the leaf's own tree)
        hits = reached[:, self.tree_of[self.w_leaf]] == self.w_leaf[None, :]
        has = np.zeros((n, width), bool)
        rows, k = hits.nonzero()
        has[rows, self.w_col[k]] = True
        if how in ("SUM", "AVERAGE"):
            out = np.zeros((n, width), np.float64)
            np.add.at(out, (rows, self.w_col[k]), self.weights[k].astype(np.float64))
            return out, has
        out = np.full((n, width), np.inf if how == "MIN" else -np.inf)
        (np.minimum if how == "MIN" else np.maximum).at(out, (rows, self.w_col[k]),
                                                         self.weights[k].astype(np.float64))
        return np.where(has, out, 0.0), has
