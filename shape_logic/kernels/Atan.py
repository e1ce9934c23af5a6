"""Atan: y = arctan(x), elementwise."""
import numpy as np

from .families import UnaryFloat


class Atan(UnaryFloat):
    fn = np.arctan
