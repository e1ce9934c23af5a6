"""Add: y = a + b (broadcasting)."""
import numpy as np

from .families import Binary


class Add(Binary):
    fn = np.add
