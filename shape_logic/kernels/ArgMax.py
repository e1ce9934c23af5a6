"""ArgMax: the index of the maximum along `axis` (int64)."""
import numpy as np

from .families import ArgReduce


class ArgMax(ArgReduce):
    fn = staticmethod(np.argmax)
