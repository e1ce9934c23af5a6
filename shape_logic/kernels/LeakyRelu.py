"""LeakyRelu: y = x for x >= 0, alpha * x below."""
import numpy as np

from .families import UnaryFloat


class LeakyRelu(UnaryFloat):
    attrs = {"alpha": 0.01}

    def run(self, x, alpha):
        return np.where(x >= 0, x, x * x.dtype.type(alpha))
