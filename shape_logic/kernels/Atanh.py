"""Atanh: y = artanh(x), elementwise."""
import numpy as np

from .families import UnaryFloat


class Atanh(UnaryFloat):
    fn = np.arctanh
