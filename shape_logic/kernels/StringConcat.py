"""StringConcat: each string of x followed by y's, with broadcasting."""
import numpy as np

from .base import Kernel
from .strings import strings


class StringConcat(Kernel):
    n_inputs = (2, 2)

    def run(self, x, y):
        x, y = strings(self, x), strings(self, y)
        try:
            return np.char.add(x.astype(np.str_), y.astype(np.str_)).astype(object)
        except ValueError:
            raise self.fail(f"shapes {list(x.shape)} and {list(y.shape)} do not broadcast") \
                from None
