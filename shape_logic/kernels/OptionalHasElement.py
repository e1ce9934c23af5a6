"""OptionalHasElement: whether the optional input holds an element (an absent input, or an
empty optional, None, holds none); a bool scalar."""
import numpy as np

from .base import Kernel


class OptionalHasElement(Kernel):
    n_inputs = (0, 1)
    optional_inputs = frozenset({0})

    def run(self, x=None):
        return np.array(x is not None)
