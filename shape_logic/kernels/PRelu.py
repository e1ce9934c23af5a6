"""PRelu: y = x for x >= 0, slope * x below; slope broadcasts to x (unidirectionally)."""
import numpy as np

from .families import Binary, check_broadcast


class PRelu(Binary):
    def run(self, x, slope):
        check_broadcast(self, x, slope)
        return np.where(x >= 0, x, x * slope).astype(x.dtype, copy=False)
