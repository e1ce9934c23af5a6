"""Ceil: y = ceil x."""
import numpy as np

from .families import UnaryFloat


class Ceil(UnaryFloat):
    fn = np.ceil
