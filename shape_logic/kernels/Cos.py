"""Cos: y = cos x."""
import numpy as np

from .families import UnaryFloat


class Cos(UnaryFloat):
    fn = np.cos
