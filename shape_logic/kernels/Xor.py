"""Xor: y = a xor b (bool, broadcasting)."""
import numpy as np

from .families import Logical


class Xor(Logical):
    fn = np.logical_xor
