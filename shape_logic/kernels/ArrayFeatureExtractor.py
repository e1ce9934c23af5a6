"""ArrayFeatureExtractor (ai.onnx.ml): the elements of X's last axis at the indices Y
(all of Y's elements, in order); a 1-D X gives one row (rules/ArrayFeatureExtractor.lp).
Negative indices count from the end, as in onnx's reference."""
import numpy as np

from .base import Kernel


class ArrayFeatureExtractor(Kernel):
    domains = ("ai.onnx.ml",)
    n_inputs = (2, 2)

    def run(self, x, y):
        if x.ndim == 0:
            raise self.fail("X must have at least one axis")
        if y.dtype != np.int64:
            raise self.fail(f"the indices must be int64, not {y.dtype}")
        idx = self.indices(y.reshape(-1), x.shape[-1], x.ndim - 1)
        z = np.take(x, idx, axis=-1)
        return z.reshape(1, -1) if x.ndim == 1 else z
