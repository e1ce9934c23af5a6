"""LinearRegressor (ai.onnx.ml 1): Y [N, targets] = X coefficients^T + intercepts (X [N, F]
or [F]: one row; coefficients hold `targets` rows of F, onnxruntime reads no further), in
float (rules/LinearRegressor.lp). As onnxruntime computes it: intercepts are added when
there is one per target, and a single target takes of the transforms only PROBIT."""
import numpy as np

from .base import Kernel
from .ml_scores import FEATURE_TYPES, post_transform as transform_name, probit, transform


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
        if x.dtype not in FEATURE_TYPES or x.ndim not in (1, 2):
            raise self.fail(f"X must be [N, F] or [F] of float, double, int64 or int32, not "
                            f"{x.dtype} {list(x.shape)}")
        x = x.reshape(1, -1) if x.ndim == 1 else x
        f = x.shape[1]
        if len(self.coef) < targets * f:
            raise self.fail(f"coefficients has {len(self.coef)} entries, fewer than "
                            f"{targets} targets * {f} features")
        w = self.coef[: targets * f].reshape(targets, f)
        y = (x.astype(np.float32) @ w.T + self.intercepts).astype(np.float32)
        if targets == 1:
            return probit(y) if self.how == "PROBIT" else y
        return transform(y, self.how)
