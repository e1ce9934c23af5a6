"""TreeEnsembleRegressor (ai.onnx.ml 1, 3): every row of X [N, F] (or [F]: one row) walks
down every tree, and the target_* weights of the leaves reached are aggregated per target
(SUM, AVERAGE over the trees, MIN, MAX) into Y [N, n_targets] (float), base_values added
and post_transform applied (rules/TreeEnsembleRegressor.lp). As onnxruntime computes it:
a target no leaf reached gave a weight is 0 (its base value is not added); a single
target takes base_values[0] (also where no leaf gave it a weight) and of the transforms
only PROBIT."""
import numpy as np

from .base import Kernel
from .ml_scores import post_transform, probit, text, transform
from .ml_trees import NODE_ATTRS, Trees

AGGREGATES = ("SUM", "AVERAGE", "MIN", "MAX")


class TreeEnsembleRegressor(Kernel):
    domains = ("ai.onnx.ml",)
    attrs = {**{k: None for k in NODE_ATTRS}, "post_transform": "NONE",
             "aggregate_function": "SUM", "n_targets": None,
             **{k: None for k in ("target_treeids", "target_nodeids", "target_ids",
                                  "target_weights", "target_weights_as_tensor")}}
    n_inputs = (1, 1)

    def setup(self, **a):
        n = a["n_targets"]
        if n is None or n < 1:
            raise self.fail(f"n_targets must be given, at least 1 (not {n})")
        self.n_targets = n
        self.trees = Trees(self.op, a, "target")
        self.trees.check_columns(n, "target_ids")
        base = self.trees.base
        self.base = np.zeros(0) if base is None else base
        if len(self.base) not in (0, n):
            raise self.fail(f"base_values has {len(self.base)} entries, not n_targets ({n})")
        self.how = post_transform(self.op, a["post_transform"])
        self.aggregate = text(a["aggregate_function"])
        if self.aggregate not in AGGREGATES:
            raise self.fail(f"aggregate_function {self.aggregate!r} is not one of "
                            f"{', '.join(AGGREGATES)}")

    def run(self, x, **_):
        reached = self.trees.leaves(x)
        s, has = self.trees.sums(reached, self.n_targets, self.aggregate)
        if self.aggregate == "AVERAGE":
            s = s / len(self.trees.roots)
        if len(self.base):
            s = s + self.base
        if self.n_targets == 1:
            y = s.astype(np.float32)
            return probit(y) if self.how == "PROBIT" else y
        return transform(np.where(has, s, 0).astype(np.float32), self.how)
