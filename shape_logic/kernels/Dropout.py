"""Dropout: in inference (the default) y = x and the mask is all true. In training mode
(opset 12+: the training_mode input) elements are zeroed with probability `ratio` and
the rest scaled by 1 / (1 - ratio); the mask is NumPy's RandomState(seed).uniform >= ratio,
which is how ONNX's own test data was made (so a seeded run reproduces it)."""
import numpy as np

from .base import Kernel


class Dropout(Kernel):
    attrs = {"ratio": 0.5, "seed": None}
    legacy = ("is_test", "consumed_inputs")
    n_inputs = (1, 3)

    def run(self, x, ratio_in=None, training=None, ratio=0.5, seed=None):
        if ratio_in is not None:
            ratio = self.scalar(ratio_in)
        mask_dtype = np.bool_ if self.opset >= 10 else x.dtype  # opset 7-9: the mask is T
        if training is None or not self.scalar(training) or ratio == 0:
            return x, np.ones(x.shape, dtype=mask_dtype)
        if not 0 <= ratio < 1:
            raise self.fail(f"ratio {ratio} must be in [0, 1)")
        keep = np.random.RandomState(seed).uniform(0, 1.0, x.shape) >= ratio
        return (x * keep / x.dtype.type(1 - ratio)).astype(x.dtype), keep.astype(mask_dtype)
