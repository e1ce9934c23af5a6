"""ThresholdedRelu: y = x where x > alpha, else 0."""
import numpy as np

from .families import UnaryFloat


class ThresholdedRelu(UnaryFloat):
    attrs = {"alpha": 1.0}

    def run(self, x, alpha):
        if x.dtype.kind != "f":
            raise self.fail(f"needs a floating-point input, got {x.dtype}")
        return np.where(x > x.dtype.type(alpha), x, x.dtype.type(0))
