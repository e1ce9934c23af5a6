"""Cosh: y = cosh(x), elementwise."""
import numpy as np

from .families import UnaryFloat


class Cosh(UnaryFloat):
    fn = np.cosh
