"""Asinh: y = arsinh(x), elementwise."""
import numpy as np

from .families import UnaryFloat


class Asinh(UnaryFloat):
    fn = np.arcsinh
