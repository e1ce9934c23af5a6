"""Affine: y = alpha * x + beta (onnx's dropped experimental operator)."""
from .families import UnaryFloat


class Affine(UnaryFloat):
    attrs = {"alpha": 1.0, "beta": 0.0}

    def run(self, x, alpha, beta):
        t = x.dtype.type
        return t(alpha) * x + t(beta)
