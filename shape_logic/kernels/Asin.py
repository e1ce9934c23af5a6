"""Asin: y = arcsin(x), elementwise."""
import numpy as np

from .families import UnaryFloat


class Asin(UnaryFloat):
    fn = np.arcsin
