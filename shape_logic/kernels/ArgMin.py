"""ArgMin: the index of the minimum along `axis` (int64)."""
import numpy as np

from .families import ArgReduce


class ArgMin(ArgReduce):
    fn = staticmethod(np.argmin)
