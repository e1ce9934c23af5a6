"""Or: y = a or b (bool, broadcasting)."""
import numpy as np

from .families import Logical


class Or(Logical):
    fn = np.logical_or
