"""Acosh: y = arcosh(x), elementwise."""
import numpy as np

from .families import UnaryFloat


class Acosh(UnaryFloat):
    fn = np.arccosh
