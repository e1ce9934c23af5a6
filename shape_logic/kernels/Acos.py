"""Acos: y = arccos(x), elementwise."""
import numpy as np

from .families import UnaryFloat


class Acos(UnaryFloat):
    fn = np.arccos
