"""Mean: y = the elementwise mean of the inputs (broadcasting)."""
import numpy as np

from .families import Variadic


class Mean(Variadic):
    fn = np.add

    def finish(self, out, n):
        return out / out.dtype.type(n) if out.dtype.kind == "f" else out // n
