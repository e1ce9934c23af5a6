"""Tanh: y = tanh x."""
import numpy as np

from .families import UnaryFloat


class Tanh(UnaryFloat):
    fn = np.tanh
