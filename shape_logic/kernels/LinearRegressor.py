"""LinearRegressor (ai.onnx.ml 1): Y [N, targets] = X coefficients^T + intercepts (X [N, F]
or [F]: one row; coefficients hold `targets` rows of F, onnxruntime reads no further), in
float (rules/LinearRegressor.lp). As onnxruntime computes it: intercepts are added when
there is one per target, and a single target takes of the transforms only PROBIT."""
import numpy as np

from .base import Kernel
from .ml_scores import linear, post_transform as transform_name, probit, transform


class LinearRegressor(Kernel):
    domains = ("ai.onnx.ml",)
    attrs = {"coefficients": None, "intercepts": None, "targets": 1, "post_transform": "NONE"}
    n_inputs = (1, 1)

    def setup(self, coefficients, intercepts, targets, post_transform: str):
        if targets < 1 or not coefficients:
            raise self.fail(f"coefficients must be given and targets ({targets}) positive")
        self.coef = np.asarray(coefficients, np.float32)
        b = np.asarray(intercepts or [], np.float32)
        self.intercepts = b if len(b) == targets else np.zeros(targets, np.float32)
        self.how = transform_name(self.op, post_transform)

    def run(self, x, targets, **_):
        y = linear(self, x, self.coef, self.intercepts, targets, "targets")
        if targets == 1:
            return probit(y) if self.how == "PROBIT" else y
        return transform(y, self.how)
