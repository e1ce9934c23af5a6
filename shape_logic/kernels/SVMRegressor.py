"""SVMRegressor (ai.onnx.ml 1): Y [N, 1] (float) = the coefficients times the kernel of
each row of X [N, F] (or [F]: one row) with the support vectors (n_supports > 0), or with
the coefficients themselves as one linear vector (n_supports 0), plus rho[0]; one_class
makes each value +1 or -1 by its sign (rules/SVMRegressor.lp). As onnxruntime: F must be
the support vectors' length (or the coefficients' count), and post_transform is not
applied (onnxruntime ignores it)."""
import numpy as np

from .base import Kernel
from .ml_scores import post_transform
from .ml_svm import features, kernel_dot, kernel_setup


class SVMRegressor(Kernel):
    domains = ("ai.onnx.ml",)
    attrs = {"coefficients": None, "kernel_params": None, "kernel_type": "LINEAR",
             "n_supports": 0, "one_class": 0, "post_transform": "NONE", "rho": None,
             "support_vectors": None}
    n_inputs = (1, 1)

    def setup(self, coefficients, kernel_params, kernel_type, n_supports, rho,
              support_vectors, **a):
        self.kind, self.gamma, self.coef0, self.degree = kernel_setup(
            self.op, kernel_type, kernel_params)
        post_transform(self.op, a["post_transform"])
        if not coefficients or not rho:
            raise self.fail("coefficients and rho must be given")
        self.coef = np.asarray(coefficients, np.float32)
        self.rho = float(rho[0])
        sv = np.asarray(support_vectors or [], np.float32)
        if n_supports > 0:
            if len(sv) % n_supports or len(self.coef) < n_supports:
                raise self.fail(f"{len(sv)} support vector values and {len(self.coef)} "
                                f"coefficients for {n_supports} support vectors")
            self.vectors = sv.reshape(n_supports, -1)
            self.coef = self.coef[:n_supports]
        else:
            self.vectors = None

    def run(self, x, one_class, **_):
        count = len(self.coef) if self.vectors is None else self.vectors.shape[1]
        x = features(self.op, x, count)
        if self.vectors is None:  # liblinear: the coefficients are the one vector
            y = kernel_dot(x, self.coef[None, :], "LINEAR", 0, 0, 0, self.rho)
        else:
            k = kernel_dot(x, self.vectors, self.kind, self.gamma, self.coef0, self.degree)
            y = (k @ self.coef)[:, None] + np.float32(self.rho)
        y = y.astype(np.float32)
        return np.where(y > 0, 1, -1).astype(np.float32) if one_class else y
