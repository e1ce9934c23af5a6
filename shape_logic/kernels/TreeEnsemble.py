"""TreeEnsemble (ai.onnx.ml 5): every row of X [N, F] walks down every tree at once (one
step per level, over all rows and trees), and the leaves' weights are aggregated per
target into Y [N, n_targets] (rules/TreeEnsemble.lp). As onnx's reference: comparisons
in double, MIN/MAX start from the type's largest/lowest value. As the operator's
definition says where the reference differs: the sets of BRANCH_MEMBER nodes are taken
in the order of the nodes (the reference takes them in the order it visits the trees,
and ends a set at a member 0), and a one-leaf tree (a node both of whose branches name
one leaf) gives that leaf; post_transform is applied (the reference ignores it) in
ONNX's numbering, as onnxruntime computes each transform (onnxruntime 1.32 itself reads
1 as LOGISTIC and 2 as SOFTMAX, its own enum's order: test_TreeEnsemble)."""
import numpy as np

from .base import REQUIRED, Kernel

_FLOATS = frozenset(np.dtype(t) for t in (np.float16, np.float32, np.float64))
LEQ, LT, GTE, GT, EQ, NEQ, MEMBER = range(7)


class TreeEnsemble(Kernel):
    domains = ("ai.onnx.ml",)
    widens_small_floats = False  # (the sums are in double, Y in X's type)
    attrs = {"aggregate_function": 1, "post_transform": 0, "n_targets": None,
             "membership_values": None, "nodes_hitrates": None,
             "nodes_missing_value_tracks_true": None,
             **{k: REQUIRED for k in (
                 "tree_roots", "nodes_modes", "nodes_splits", "nodes_featureids",
                 "nodes_truenodeids", "nodes_falsenodeids", "nodes_trueleafs",
                 "nodes_falseleafs", "leaf_targetids", "leaf_weights")}}
    n_inputs = (1, 1)

    def setup(self, **a):
        ints = {k: np.asarray(a[k], dtype=np.int64).reshape(-1) for k in (
            "nodes_modes", "nodes_featureids", "nodes_truenodeids", "nodes_falsenodeids",
            "nodes_trueleafs", "nodes_falseleafs", "leaf_targetids", "tree_roots")}
        n_nodes, n_leaves = len(ints["nodes_modes"]), len(ints["leaf_targetids"])
        self.splits = np.asarray(a["nodes_splits"], dtype=np.float64).reshape(-1)
        self.weights = np.asarray(a["leaf_weights"], dtype=np.float64).reshape(-1)
        track = a["nodes_missing_value_tracks_true"]
        self.track = np.zeros(n_nodes, bool) if track is None else np.asarray(track, bool)
        for k, n in (("nodes_featureids", n_nodes), ("nodes_truenodeids", n_nodes),
                     ("nodes_falsenodeids", n_nodes), ("nodes_trueleafs", n_nodes),
                     ("nodes_falseleafs", n_nodes), ("leaf_weights", n_leaves)):
            got = len(self.weights) if k == "leaf_weights" else len(ints[k])
            if got != n:
                raise self.fail(f"{k} has {got} entries, not {n}")
        if len(self.splits) != n_nodes or len(self.track) != n_nodes:
            raise self.fail(f"nodes_splits and nodes_missing_value_tracks_true have "
                            f"{n_nodes} entries")
        modes = ints["nodes_modes"]
        if ((modes < 0) | (modes > MEMBER)).any():
            raise self.fail(f"nodes_modes must lie in 0..6, not {modes.tolist()}")
        n_targets = a["n_targets"]
        if n_targets is None or n_targets < 1:
            raise self.fail(f"n_targets must be given, at least 1 (not {n_targets})")
        targets = ints["leaf_targetids"]
        if ((targets < 0) | (targets >= n_targets)).any():
            raise self.fail(f"leaf_targetids must lie in [0, {n_targets})")
        if a["aggregate_function"] not in range(4) or a["post_transform"] not in range(5):
            raise self.fail(f"aggregate_function {a['aggregate_function']} (0..3) or "
                            f"post_transform {a['post_transform']} (0..4) is unknown")
        self.modes, self.features, self.targets = modes, ints["nodes_featureids"], targets
        self.roots, self.n_targets = ints["tree_roots"], n_targets
        # the next place of each branch: a node's index, or a leaf's as -1 - index
        self.next = [np.where(ints[f"nodes_{b}leafs"] != 0, -1 - ints[f"nodes_{b}nodeids"],
                              ints[f"nodes_{b}nodeids"]) for b in ("true", "false")]
        for nxt in self.next:
            if ((nxt >= n_nodes) | (nxt < -n_leaves)).any() or \
                    ((self.roots < 0) | (self.roots >= n_nodes)).any():
                raise self.fail("a root or branch names no node or leaf")
        self.sets = self._sets(a["membership_values"], modes)

    def _sets(self, values, modes):
        """The members of each BRANCH_MEMBER node, a row each, padded with NaN (which
        matches nothing)."""
        members = (modes == MEMBER).nonzero()[0]
        values = np.empty(0) if values is None else np.asarray(values, np.float64).reshape(-1)
        ends = np.isnan(values).nonzero()[0]
        if len(ends) != len(members):
            raise self.fail(f"{len(members)} BRANCH_MEMBER nodes, {len(ends)} sets of "
                            "membership_values (each ended by NaN)")
        starts = np.concatenate([[0], ends[:-1] + 1]).astype(np.int64)
        width = int((ends - starts).max()) if len(ends) else 0
        table = np.full((len(modes), max(width, 1)), np.nan)
        for node, s, e in zip(members, starts, ends):
            table[node, : e - s] = values[s:e]
        return table

    def run(self, x, aggregate_function, post_transform, **_):
        if x.ndim != 2 or x.dtype not in _FLOATS:
            raise self.fail(f"X must be [N, F] of floats, not {x.dtype} {list(x.shape)}")
        if len(self.features) and self.features.max(initial=0) >= x.shape[1] or \
                (self.features < 0).any():
            raise self.fail(f"a node reads a feature out of X's {x.shape[1]}")
        xd = x.astype(np.float64)
        rows = np.repeat(np.arange(len(x)), len(self.roots))
        place = np.tile(self.roots, len(x))  # a node (>= 0) or a leaf (-1 - index)
        for _ in range(len(self.modes) + 1):  # a path visits each node once at most
            if not (active := place >= 0).any():
                break
            at, r = place[active], rows[active]
            v = xd[r, self.features[at]]
            place[active] = np.where(self._compare(at, v), self.next[0][at], self.next[1][at])
        else:
            raise self.fail("a tree's branches go round in a circle")
        leaves = -1 - place
        y = self._aggregate(rows, leaves, len(x), aggregate_function, x.dtype)
        return self._post(y, post_transform).astype(x.dtype)

    def _compare(self, at, v):
        """Whether each value v goes down the true branch of its node `at`."""
        s, mode = self.splits[at], self.modes[at]
        member = (self.sets[at] == v[:, None]).any(axis=1)
        # one column per mode, the node's own picked
        tests = np.stack([v <= s, v < s, v >= s, v > s, v == s, v != s, member], axis=1)
        return tests[np.arange(len(at)), mode] | (self.track[at] & np.isnan(v))

    def _aggregate(self, rows, leaves, n, how, dtype):
        w, cells = self.weights[leaves], rows * self.n_targets + self.targets[leaves]
        size = n * self.n_targets
        if how in (0, 1):  # AVERAGE, SUM
            y = np.bincount(cells, weights=w, minlength=size)
            y = y / len(self.roots) if how == 0 and len(self.roots) else y
        else:  # MIN, MAX: from the type's largest / lowest value (the reference's)
            info = np.finfo(dtype)
            y = np.full(size, float(info.max if how == 2 else info.min))
            (np.minimum if how == 2 else np.maximum).at(y, cells, w)
        return y.reshape(n, self.n_targets)

    @staticmethod
    def _post(y, how):
        """post_transform in ONNX's numbering: NONE, SOFTMAX, LOGISTIC, SOFTMAX_ZERO (zeros
        stay zero), PROBIT (sqrt(2) * erfinv(2y - 1), Winitzki's erfinv as onnxruntime's)."""
        if how in (1, 3):
            keep = np.ones(y.shape, bool) if how == 1 else np.abs(y) > 1e-7
            e = np.where(keep, np.exp(y - y.max(axis=1, keepdims=True, initial=-np.inf)), 0)
            return e / e.sum(axis=1, keepdims=True)
        if how == 2:
            return 1 / (1 + np.exp(-y))
        if how == 4:
            z = 2 * y - 1
            ln = np.log((1 - z) * (1 + z))
            v = 2 / (np.pi * 0.147) + 0.5 * ln
            return np.sqrt(2) * np.sign(z) * np.sqrt(np.sqrt(v * v - ln / 0.147) - v)
        return y
