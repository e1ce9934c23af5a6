"""LessOrEqual: y = a <= b (broadcasting, bool)."""
import numpy as np

from .families import Compare


class LessOrEqual(Compare):
    fn = np.less_equal
