"""Equal: y = a == b (broadcasting, bool)."""
import numpy as np

from .families import Compare


class Equal(Compare):
    fn = np.equal
