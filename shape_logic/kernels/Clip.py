"""Clip: y = min(max(x, lo), hi). Opset < 11: lo and hi are attributes min/max;
from 11 they are optional scalar inputs."""
import numpy as np

from .base import Kernel


class Clip(Kernel):
    attrs = {"min": None, "max": None}
    n_inputs = (1, 3)

    def run(self, x, lo=None, hi=None, min=None, max=None):
        if self.opset < 11:
            lo, hi = min, max
        for b in (lo, hi):  # one element each (onnxruntime takes [1] too), never broadcast
            if b is not None and np.size(b) != 1:
                raise self.fail(f"bound {list(np.shape(b))} is not a scalar")
        if lo is not None:
            x = np.maximum(x, np.asarray(lo).astype(x.dtype))
        if hi is not None:
            x = np.minimum(x, np.asarray(hi).astype(x.dtype))
        return x
