"""Split: x cut along `axis` into parts of the sizes `split` (an attribute before opset 13,
an input after), or into as many equal parts as outputs (num_outputs from opset 18:
parts of ceil(n / num_outputs), the last one smaller)."""
import numpy as np

from .base import Kernel


class Split(Kernel):
    attrs = {"axis": 0, "split": None, "num_outputs": None}
    n_inputs = (1, 2)

    def run(self, x, split_in=None, axis=0, split=None, num_outputs=None):
        ax = self.axis(axis, x.ndim)
        n = x.shape[ax]
        sizes = self.ints(split_in) if split_in is not None else split
        if sizes is None:
            parts = num_outputs or self.n_outputs
            if num_outputs is not None:
                chunk = -(-n // parts)  # ceil
                sizes = [min(chunk, max(n - i * chunk, 0)) for i in range(parts)]
            else:
                if n % parts:
                    raise self.fail(f"axis {axis} of size {n} does not split into "
                                    f"{parts} equal parts")
                sizes = [n // parts] * parts
        if sum(sizes) != n or any(s < 0 for s in sizes):
            raise self.fail(f"split {sizes} does not add up to axis {axis} of size {n}")
        cuts = np.cumsum(sizes)[:-1]
        return tuple(np.split(x, cuts, axis=ax))
