"""Min: y = the elementwise minimum of the inputs (broadcasting)."""
import numpy as np

from .families import Variadic


class Min(Variadic):
    fn = np.minimum
