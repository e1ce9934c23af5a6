"""Sin: y = sin x."""
import numpy as np

from .families import UnaryFloat


class Sin(UnaryFloat):
    fn = np.sin
