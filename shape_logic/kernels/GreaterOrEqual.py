"""GreaterOrEqual: y = a >= b (broadcasting, bool)."""
import numpy as np

from .families import Compare


class GreaterOrEqual(Compare):
    fn = np.greater_equal
