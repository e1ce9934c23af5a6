"""Sub: y = a - b (broadcasting)."""
import numpy as np

from .families import Binary


class Sub(Binary):
    fn = np.subtract
