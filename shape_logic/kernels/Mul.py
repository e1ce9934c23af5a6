"""Mul: y = a * b (broadcasting)."""
import numpy as np

from .families import Binary


class Mul(Binary):
    fn = np.multiply
