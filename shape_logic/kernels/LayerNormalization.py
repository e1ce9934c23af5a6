"""LayerNormalization: normalize over the axes from `axis` to the end, then scale and shift.
Outputs Y (X's type), and optionally Mean and InvStdDev (shaped like X with the normalized
axes 1), computed in and of the stash type (float32 by default), as the spec and
onnxruntime say (onnx's reference gives them X's type)."""
import numpy as np

from .base import Kernel
from .dtypes import numpy_dtype


class LayerNormalization(Kernel):
    attrs = {"axis": -1, "epsilon": 1e-5, "stash_type": 1}
    n_inputs = (2, 3)
    small_float_outputs = (0,)  # (the statistics are the stash type's, not X's)

    def run(self, x, scale, b=None, axis=-1, epsilon=1e-5, stash_type=1):
        ax = self.axis(axis, x.ndim)
        axes = tuple(range(ax, x.ndim))
        try:
            stash = np.dtype(numpy_dtype(stash_type, self.op))
        except ValueError as e:
            raise self.fail(str(e)) from None
        # scale and bias broadcast to X unidirectionally (onnxruntime: an axis before
        # `axis` too, where it is 1 or X's), never widening it
        for t in (scale, b):
            if t is not None and (t.ndim > x.ndim or any(
                    d not in (1, n) for d, n in zip(t.shape[::-1], x.shape[::-1]))):
                raise self.fail(f"scale / bias {list(t.shape)} does not broadcast to X "
                                f"{list(x.shape)}")
        work = x.astype(np.float32 if stash.itemsize <= 4 else np.float64)
        # means as np.mean makes them (a pairwise sum, divided by the count), without its
        # Python-level wrapper (~5 us each: a third of a small transformer's LayerNorm)
        count = int(np.prod([x.shape[a] for a in axes]))
        mean = np.add.reduce(work, axis=axes, keepdims=True) / count
        centered = work - mean
        var = np.add.reduce(np.square(centered), axis=axes, keepdims=True) / count
        inv_std = 1 / np.sqrt(var + epsilon)
        y = centered * inv_std * scale
        if b is not None:
            y = y + b
        return y.astype(x.dtype), mean.astype(stash), inv_std.astype(stash)
