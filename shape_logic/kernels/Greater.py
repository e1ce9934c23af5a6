"""Greater: y = a > b (broadcasting, bool)."""
import numpy as np

from .families import Compare


class Greater(Compare):
    fn = np.greater
