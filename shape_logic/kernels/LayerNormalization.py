"""LayerNormalization: normalize over the axes from `axis` to the end, then scale and shift.
Outputs Y, and optionally Mean and InvStdDev (shaped like X with the normalized axes 1),
computed in float32 (stash_type 1) or float64."""
import numpy as np

from .base import Kernel


class LayerNormalization(Kernel):
    attrs = {"axis": -1, "epsilon": 1e-5, "stash_type": 1}
    n_inputs = (2, 3)

    def run(self, x, scale, b=None, axis=-1, epsilon=1e-5, stash_type=1):
        ax = self.axis(axis, x.ndim)
        axes = tuple(range(ax, x.ndim))
        work = x.astype(np.float32 if stash_type == 1 else np.float64)
        mean = work.mean(axis=axes, keepdims=True)
        centered = work - mean
        inv_std = 1 / np.sqrt(np.mean(np.square(centered), axis=axes, keepdims=True) + epsilon)
        y = centered * inv_std * scale
        if b is not None:
            y = y + b
        return y.astype(x.dtype), mean.astype(x.dtype), inv_std.astype(x.dtype)
