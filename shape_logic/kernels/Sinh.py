"""Sinh: y = sinh(x), elementwise."""
import numpy as np

from .families import UnaryFloat


class Sinh(UnaryFloat):
    fn = np.sinh
