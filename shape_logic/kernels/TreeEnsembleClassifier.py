"""TreeEnsembleClassifier (ai.onnx.ml 1, 3): every row of X [N, F] (or [F]: one row) walks
down every tree; the weights of the leaves reached are summed per class into the scores
Z [N, E] (float; E classes, one per label), base_values added, post_transform applied, and
Y [N] is each row's label (int64 or string: rules/TreeEnsembleClassifier.lp). As
onnxruntime computes them, its two-class rules included: with two labels whose weights
all name one class, that class's score s is written [1 - s, s] (positive weights; the
label is the second above 0.5) or [-s, s] (mixed; above 0); a single label gives one
column, and the label 1 or 0 by the score's sign."""
import numpy as np

from .base import Kernel
from .ml_scores import labels, post_transform, probit, transform, two_columns
from .ml_trees import NODE_ATTRS, Trees


class TreeEnsembleClassifier(Kernel):
    domains = ("ai.onnx.ml",)
    attrs = {**{k: None for k in NODE_ATTRS}, "post_transform": "NONE",
             **{k: None for k in ("class_treeids", "class_nodeids", "class_ids",
                                  "class_weights", "class_weights_as_tensor",
                                  "classlabels_int64s", "classlabels_strings")}}
    n_inputs = (1, 1)

    def setup(self, **a):
        self.labels = labels(self.op, a["classlabels_int64s"], a["classlabels_strings"])
        if self.labels.dtype == object and len(self.labels) == 1:
            raise self.fail("a single string label (onnxruntime reads past the list)")
        self.trees = Trees(self.op, a, "class")
        self.trees.check_columns(len(self.labels), "class_ids")
        base = self.trees.base
        e = len(self.labels)
        if base is not None and len(base) not in (0, e) and not (e <= 2 and len(base) <= 2):
            raise self.fail(f"base_values has {len(base)} entries, not one per class ({e})")
        self.how = post_transform(self.op, a["post_transform"])
        ids = set(self.trees.w_col.tolist())
        # onnxruntime's binary case: two labels, every weight for one class
        self.binary = len(self.labels) == 2 and len(ids) == 1
        self.positive = bool((self.trees.weights >= 0).all())

    def run(self, x, **_):
        reached = self.trees.leaves(x)
        e = len(self.labels)
        s, has = self.trees.sums(reached, e)
        base = self.trees.base if self.trees.base is not None else np.zeros(0)
        if e == 1:
            if len(base) == 2:  # onnxruntime: the negated score plus base_values[1]
                return self._one(s[:, 0] + base[1], negate=True)
            return self._one(s[:, 0] + (base[0] if len(base) == 1 else 0))
        if e > 2:
            if len(base):
                s = s + base
                has[:] = True
            top = np.where(has, s, -np.inf).argmax(axis=1)
            return self.labels[top], transform(s, self.how)
        return self._two(s, has, base)

    def _one(self, s, negate=False):
        """One class: the score (PROBIT the only transform) and the label 1 above 0, else 0
        (onnxruntime's positive and negative labels)."""
        z = probit(s) if self.how == "PROBIT" else s.astype(np.float32)
        return np.where(s > 0, 1, 0).astype(np.int64), (-z if negate else z)[:, None]

    def _two(self, s, has, base):
        """Two classes, as onnxruntime's classifier aggregator's binary branch."""
        s0, s1, h1 = s[:, 0].copy(), s[:, 1].copy(), has[:, 1]
        if len(base) == 2:
            # a score for the second class: it becomes base[1] + the first's (sic)
            s1, s0 = (np.where(h1, base[1] + s0, s1 + base[1]),
                      np.where(h1, -(base[1] + s0), s0 + base[0]))
            single = np.zeros(len(s), bool)
        else:
            s0 = s0 + (base[0] if len(base) else 0)
            single = ~h1
        # the label: from the second score where there is one, else from the first's
        # onnxruntime reads a class's score as 0 unless a leaf reached gave it a weight
        s0, s1 = np.where(has[:, 0], s0, 0), np.where(h1, s1, 0)
        pos = np.where(h1, s1, s0)
        if self.binary:
            win = pos > 0.5 if self.positive else pos > 0
            y = self.labels[np.where(win, 1, 0)]
        else:
            y = np.where(pos > 0, 1, 0)
            y = self.labels[y] if self.labels.dtype == object else y.astype(np.int64)
        both = transform(np.stack([s0, s1], axis=1), self.how)
        # one score: onnxruntime writes [1 - s, s] or [-s, s] (LOGISTIC of each), PROBIT
        # of it alone (the second column keeps the first's: unspecified)
        if self.how == "PROBIT":
            one = np.stack([probit(s0), np.zeros_like(s0, np.float32)], axis=1)
        else:
            mixed = not (self.binary and self.positive)
            one = two_columns(s0, self.how, mixed)
        z = np.where(single[:, None], one, both).astype(np.float32)
        return y, z
