"""Abs: y = |x|."""
import numpy as np

from .families import Unary


class Abs(Unary):
    fn = np.abs
