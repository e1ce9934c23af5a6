"""Sqrt: y = sqrt(x)."""
import numpy as np

from .families import UnaryFloat


class Sqrt(UnaryFloat):
    fn = np.sqrt
