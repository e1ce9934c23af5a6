"""Floor: y = floor x."""
import numpy as np

from .families import UnaryFloat


class Floor(UnaryFloat):
    fn = np.floor
