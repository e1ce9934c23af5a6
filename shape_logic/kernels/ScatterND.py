"""ScatterND: a copy of data with the slices at `indices` replaced (or reduced) by updates."""
import numpy as np

from .base import Kernel

_REDUCE = {"add": np.add, "mul": np.multiply, "max": np.maximum, "min": np.minimum}


class ScatterND(Kernel):
    attrs = {"reduction": "none"}
    n_inputs = (3, 3)

    def run(self, x, indices, updates, reduction="none"):
        k = indices.shape[-1]
        if k > x.ndim:
            raise self.fail(f"indices index {k} axes of data {list(x.shape)}")
        want = indices.shape[:-1] + x.shape[k:]
        if updates.shape != want:
            raise self.fail(f"updates {list(updates.shape)} should be {list(want)}")
        y = x.copy()
        for pos in np.ndindex(indices.shape[:-1]):
            at = tuple(int(v) for v in indices[pos])
            if reduction == "none":
                y[at] = updates[pos]
            else:
                y[at] = _REDUCE[reduction](y[at], updates[pos])
        return y
