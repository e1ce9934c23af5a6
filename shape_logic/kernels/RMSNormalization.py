"""RMSNormalization: x divided by sqrt(mean(x^2) + epsilon) over the axes from `axis` on,
computed in the stash type (float32 by default) and cast back to x's type, then times the
scale (which broadcasts to x)."""
import numpy as np

from .base import Kernel
from .dtypes import numpy_dtype


class RMSNormalization(Kernel):
    attrs = {"axis": -1, "epsilon": 1e-5, "stash_type": 1}
    n_inputs = (2, 2)

    def run(self, x, scale, axis, epsilon, stash_type):
        if x.dtype.kind != "f":
            raise self.fail(f"needs a floating-point input, got {x.dtype}")
        ax = self.axis(axis, x.ndim)
        try:
            stash = numpy_dtype(stash_type, self.op)
            np.broadcast_shapes(scale.shape, x.shape)
        except ValueError as e:
            raise self.fail(str(e)) from None
        if len(scale.shape) > x.ndim or np.broadcast_shapes(scale.shape, x.shape) != x.shape:
            raise self.fail(f"scale {list(scale.shape)} does not broadcast to {list(x.shape)}")
        xs = x.astype(stash)
        ms = np.mean(xs * xs, axis=tuple(range(ax, x.ndim)), keepdims=True)
        normalized = (xs / np.sqrt(ms + stash.type(epsilon))).astype(x.dtype)
        return (normalized * scale).astype(x.dtype, copy=False)
