"""ReduceLogSumExp: log(sum(e^x)) over `axes` (an input from opset 18), with the maximum
taken out first so large x does not overflow."""
import numpy as np

from .families import Reduce


class ReduceLogSumExp(Reduce):
    def reduce(self, x, axes, keepdims):
        if x.size == 0:
            return np.log(np.sum(np.exp(x), axis=axes, keepdims=keepdims))
        work = x.astype(np.float64)
        top = np.max(work, axis=axes, keepdims=True)
        top = np.where(np.isfinite(top), top, 0)
        out = np.log(np.sum(np.exp(work - top), axis=axes, keepdims=True)) + top
        return out if keepdims else np.squeeze(out, axis=axes)
