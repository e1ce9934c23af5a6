"""SVMClassifier (ai.onnx.ml 1): support vector classification of the rows of X [N, F] (or
[F]: one row) into the E labels (rules/SVMClassifier.lp). With vectors_per_class (SVC,
libsvm): one-vs-one scores of each pair of classes from the kernels of the row with the
support vectors, each pair's winner a vote; Z holds the pairs' scores (E(E-1)/2 of them,
two columns for two classes), or with prob_a/prob_b the classes' probabilities (Platt's
sigmoid per pair, coupled as libsvm does). Without (liblinear): a linear score per class
plus rho[0]. Y is the label of the most votes (SVC) or the top score. As onnxruntime
computes them, its binary rules included (two classes without probabilities: [-s, s]
for NONE, else [1 - p, p] with p the score or, LOGISTIC, its logistic; one score column
takes only PROBIT)."""
import numpy as np

from .base import Kernel
from .ml_scores import labels, logistic, post_transform, probit, transform
from .ml_svm import features, kernel_dot, kernel_setup


class SVMClassifier(Kernel):
    domains = ("ai.onnx.ml",)
    attrs = {"classlabels_ints": None, "classlabels_strings": None, "coefficients": None,
             "kernel_params": None, "kernel_type": "LINEAR", "post_transform": "NONE",
             "prob_a": None, "prob_b": None, "rho": None, "support_vectors": None,
             "vectors_per_class": None}
    n_inputs = (1, 1)

    def setup(self, **a):
        self.labels = labels(self.op, a["classlabels_ints"], a["classlabels_strings"])
        c = len(self.labels)
        self.kind, self.gamma, self.coef0, self.degree = kernel_setup(
            self.op, a["kernel_type"], a["kernel_params"])
        self.how = post_transform(self.op, a["post_transform"])
        self.coef = np.asarray(a["coefficients"] or [], np.float32)
        self.rho = np.asarray(a["rho"] or [], np.float32)
        self.pa = np.asarray(a["prob_a"] or [], np.float32)
        self.pb = np.asarray(a["prob_b"] or [], np.float32)
        if not len(self.coef) or not len(self.rho) or len(self.pa) != len(self.pb):
            raise self.fail("coefficients and rho must be given, prob_a and prob_b of one "
                            "length")
        per = np.asarray(a["vectors_per_class"] or [], np.int64)
        self.svc = int(per.sum()) > 0
        pairs = c * (c - 1) // 2
        if self.svc:
            v = int(per.sum())
            sv = np.asarray(a["support_vectors"] or [], np.float32)
            if len(per) != c or len(sv) % v or len(self.coef) < (c - 1) * v or \
                    len(self.rho) < pairs or (len(self.pa) and len(self.pa) < pairs):
                raise self.fail("vectors_per_class, support_vectors, coefficients, rho or "
                                "prob_a do not fit the classes")
            self.vectors = sv.reshape(v, -1)
            self.per, self.start = per, np.concatenate([[0], np.cumsum(per)[:-1]])
            self.count = self.vectors.shape[1]
        else:
            self.count = len(self.coef) // c
        self.proba = len(self.pa) > 0

    def run(self, x, **_):
        x = features(self.op, x, self.count)
        c = len(self.labels)
        if not self.svc:
            w = self.coef[: c * self.count].reshape(c, self.count)
            s = kernel_dot(x, w, "LINEAR", 0, 0, 0, float(self.rho[0]))
            return self._label_by_score(s), self._scores(s)
        k = kernel_dot(x, self.vectors, self.kind, self.gamma, self.coef0, self.degree)
        scores, votes = self._pairs(k, c)
        top = votes.argmax(axis=1)
        if self.proba:
            z = self._probabilities(scores, c)
            return self.labels[top], transform(z, self.how) if c > 1 else z
        if c > 2:
            return self.labels[top], transform(scores, self.how)
        s = scores[:, 0] if c == 2 else np.zeros(len(x), np.float32)
        if self.how == "PROBIT":  # one score, written once (the second column: unspecified)
            return self.labels[top], np.stack([probit(s), np.zeros_like(s)], axis=1)
        if self.how == "NONE":
            return self.labels[top], np.stack([-s, s], axis=1).astype(np.float32)
        p = logistic(s) if self.how == "LOGISTIC" else s  # (the softmaxes: not applied)
        return self.labels[top], np.stack([1 - p, p], axis=1).astype(np.float32)

    def _pairs(self, k, c):
        """The one-vs-one scores [N, pairs] and each class's votes [N, c]."""
        n, v = len(k), len(self.vectors)
        scores, votes = [], np.zeros((n, c), np.int64)
        for i in range(c - 1):
            si = slice(self.start[i], self.start[i] + self.per[i])
            for j in range(i + 1, c):
                sj = slice(self.start[j], self.start[j] + self.per[j])
                s = (k[:, si] @ self.coef[(j - 1) * v:][si] +
                     k[:, sj] @ self.coef[i * v:][sj] + self.rho[len(scores)])
                scores.append(s.astype(np.float32))
                votes[np.arange(n), np.where(s > 0, i, j)] += 1
        return np.stack(scores, axis=1) if scores else np.zeros((n, 0), np.float32), votes

    def _probabilities(self, scores, c):
        """libsvm's pairwise coupling of Platt's probabilities (onnxruntime's
        multiclass_probability), row by row."""
        p = 1 - logistic(scores * self.pa[: scores.shape[1]] + self.pb[: scores.shape[1]])
        p = np.clip(p, 1e-7, 1 - 1e-7).astype(np.float32)
        out = np.empty((len(scores), c), np.float32)
        for n in range(len(scores)):
            r = np.zeros((c, c), np.float32)
            idx = 0
            for i in range(c - 1):
                for j in range(i + 1, c):
                    r[i, j], r[j, i] = p[n, idx], 1 - p[n, idx]
                    idx += 1
            out[n] = _couple(r, c)
        return out

    def _label_by_score(self, s):
        """liblinear: the top score's label; for two classes the second where its score is
        at least 0.5 (weights all non-negative) or above 0 (onnxruntime's ChooseClass)."""
        top = s.argmax(axis=1)
        if len(self.labels) != 2:
            return self.labels[top]
        best = s.max(axis=1)
        positive = bool((self.coef >= 0).all())
        second = best >= 0.5 if positive else best > 0
        return self.labels[np.where(second, 1, top)]

    def _scores(self, s):
        if s.shape[1] == 1:
            return probit(s) if self.how == "PROBIT" else s
        return transform(s, self.how)


def _couple(r, c):
    """Wu, Lin and Weng's method 2 (libsvm's multiclass_probability) in float32."""
    q = np.zeros((c, c), np.float32)
    for i in range(c):
        q[i, i] = sum(r[j, i] * r[j, i] for j in range(c) if j != i)
        for j in range(c):
            if j != i:
                q[i, j] = -r[j, i] * r[i, j]
    p = np.full(c, 1 / c, np.float32)
    eps = np.float32(0.005 / c)
    for _ in range(100):
        qp = q @ p
        pqp = np.float32(p @ qp)
        if np.abs(qp - pqp).max() < eps:
            break
        for i in range(c):
            diff = (-qp[i] + pqp) / q[i, i]
            p[i] += diff
            pqp = (pqp + diff * (diff * q[i, i] + 2 * qp[i])) / (1 + diff) / (1 + diff)
            qp = (qp + diff * q[i, :]) / (1 + diff)
            p = p / (1 + diff)
    return p
