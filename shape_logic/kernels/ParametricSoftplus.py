"""ParametricSoftplus: y = alpha * ln(1 + e^(beta * x)) (onnx's dropped experimental
operator), as logaddexp(0, beta * x) so that a large beta * x does not overflow."""
import numpy as np

from .base import REQUIRED
from .families import UnaryFloat


class ParametricSoftplus(UnaryFloat):
    attrs = {"alpha": REQUIRED, "beta": REQUIRED}

    def run(self, x, alpha, beta):
        t = x.dtype.type
        return t(alpha) * np.logaddexp(np.zeros((), x.dtype), t(beta) * x)
