"""Reciprocal: y = 1 / x."""
import numpy as np

from .families import UnaryFloat


class Reciprocal(UnaryFloat):
    fn = np.reciprocal
