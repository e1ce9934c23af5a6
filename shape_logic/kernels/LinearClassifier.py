"""LinearClassifier (ai.onnx.ml 1): scores Z = X coefficients^T + intercepts, one column
per intercept (C of them; X [N, F] or [F]: one row), and Y [N] the label of each row's
top score (rules/LinearClassifier.lp). As onnxruntime computes them: a single intercept
with two labels is a binary classifier, Y the second label where the score is above 0,
Z [1 - p, p] with p the score or (LOGISTIC) its logistic, the other transforms not
applied; more columns take the labels' first C and post_transform on each row."""
import numpy as np

from .base import Kernel
from .ml_scores import labels, linear, logistic, post_transform, transform


class LinearClassifier(Kernel):
    domains = ("ai.onnx.ml",)
    attrs = {"coefficients": None, "intercepts": None, "classlabels_ints": None,
             "classlabels_strings": None, "multi_class": 0, "post_transform": "NONE"}
    n_inputs = (1, 1)

    def setup(self, **a):
        if a["classlabels_ints"] and a["classlabels_strings"]:
            raise self.fail("only one of classlabels_ints and classlabels_strings may be given")
        self.labels = labels(self.op, a["classlabels_ints"], a["classlabels_strings"])
        self.coef = np.asarray(a["coefficients"] or [], np.float32)
        self.intercepts = np.asarray(a["intercepts"] or [], np.float32)
        c, n = len(self.intercepts), len(self.labels)
        if c == 0 or not len(self.coef):
            raise self.fail("coefficients and intercepts (one per class) must be given")
        if (c == 1 and n != 2) or n < c:
            raise self.fail(f"{n} labels for {c} intercepts (two for one, else at least one "
                            "per intercept)")
        if len(self.coef) % c:
            raise self.fail(f"{len(self.coef)} coefficients are not a multiple of the {c} "
                            "classes")
        self.how = post_transform(self.op, a["post_transform"])

    def run(self, x, **_):
        c = len(self.intercepts)
        s = linear(self, x, self.coef, self.intercepts, c, "classes")
        if c == 1:
            y = self.labels[np.where(s[:, 0] > 0, 1, 0)]
            p = logistic(s[:, 0]) if self.how == "LOGISTIC" else s[:, 0]
            return y, np.stack([np.float32(1) - p, p], axis=1)
        return self.labels[s.argmax(axis=1)], transform(s, self.how)
