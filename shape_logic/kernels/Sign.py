"""Sign: y = -1, 0 or 1."""
import numpy as np

from .families import Unary


class Sign(Unary):
    fn = np.sign
