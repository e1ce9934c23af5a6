"""SplitToSequence: cut along `axis` into a sequence (pieces of 1 without `split`, the axis
kept unless keepdims = 0; pieces of a scalar size, the last smaller; or of listed sizes)."""
import numpy as np

from .base import Kernel, Seq


class SplitToSequence(Kernel):
    attrs = {"axis": 0, "keepdims": 1}
    n_inputs = (1, 2)

    def run(self, x, split=None, axis=0, keepdims=1):
        a = self.axis(axis, x.ndim)
        d = x.shape[a]
        if split is None:
            pieces = np.split(x, d, axis=a) if d else []
            return Seq([np.squeeze(p, axis=a) for p in pieces] if not keepdims else pieces,
                       elem=x.dtype)
        sizes = self.ints(split)
        if np.ndim(split) == 0:
            step = sizes[0]
            if step <= 0:
                raise self.fail(f"split {step} must be positive")
            sizes = [step] * (d // step) + ([d % step] if d % step else [])
        elif sum(sizes) != d or min(sizes, default=0) < 0:
            raise self.fail(f"sizes {sizes} do not cut an axis of {d}")
        if not sizes:  # (an empty axis cut by a size: no piece; np.split would give x whole)
            return Seq([], elem=x.dtype)
        return Seq(np.split(x, np.cumsum(sizes)[:-1], axis=a))
