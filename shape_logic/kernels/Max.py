"""Max: y = the elementwise maximum of the inputs (broadcasting)."""
import numpy as np

from .families import Variadic


class Max(Variadic):
    fn = np.maximum
