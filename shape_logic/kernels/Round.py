"""Round: y = x rounded to the nearest integer, halves to even; elementwise."""
import numpy as np

from .families import UnaryFloat


class Round(UnaryFloat):
    fn = np.round
