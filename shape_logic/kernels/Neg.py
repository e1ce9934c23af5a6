"""Neg: y = -x."""
import numpy as np

from .families import Unary


class Neg(Unary):
    fn = np.negative
