"""Tan: y = tan(x), elementwise."""
import numpy as np

from .families import UnaryFloat


class Tan(UnaryFloat):
    fn = np.tan
