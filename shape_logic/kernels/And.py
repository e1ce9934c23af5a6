"""And: y = a and b (bool, broadcasting)."""
import numpy as np

from .families import Logical


class And(Logical):
    fn = np.logical_and
