"""Hardmax: 1 at the first maximum along an axis, 0 elsewhere (before opset 13 the input
is seen as 2-D, as for Softmax)."""
import numpy as np

from .families import Softmaxish


class Hardmax(Softmaxish):
    def along(self, x, ax):
        first = np.expand_dims(np.argmax(x, axis=ax), ax)
        idx = np.arange(x.shape[ax]).reshape((-1,) + (1,) * (x.ndim - ax - 1))
        return (idx == first).astype(x.dtype)
