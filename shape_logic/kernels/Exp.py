"""Exp: y = e^x."""
import numpy as np

from .families import UnaryFloat


class Exp(UnaryFloat):
    fn = np.exp
