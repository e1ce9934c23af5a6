"""ScaledTanh: y = alpha * tanh(beta * x) (onnx's dropped experimental operator)."""
import numpy as np

from .base import REQUIRED
from .families import UnaryFloat


class ScaledTanh(UnaryFloat):
    attrs = {"alpha": REQUIRED, "beta": REQUIRED}

    def run(self, x, alpha, beta):
        t = x.dtype.type
        return t(alpha) * np.tanh(t(beta) * x)
