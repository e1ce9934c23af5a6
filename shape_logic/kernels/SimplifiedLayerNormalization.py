"""SimplifiedLayerNormalization (onnxruntime's RMSNorm, in ONNX's domain): y = x / sqrt(mean(
x^2 over the axes from `axis` on) + epsilon) * scale, of the scale's type; the scale
broadcasts unidirectionally to x. inv_std_var (1 / that root) keeps x's axes before `axis`
and has 1 from there, of stash_type's type (1 float32, 11 float64). Computed in float32
(float64 for float64 x)."""
import numpy as np

from .base import Kernel

STASH = {1: np.float32, 11: np.float64}


class SimplifiedLayerNormalization(Kernel):
    attrs = {"axis": -1, "epsilon": 1e-5, "stash_type": 1}
    n_inputs = (2, 2)
    widens_small_floats = False  # y takes the scale's type, inv_std_var the stash type

    def run(self, x, scale, *, axis, epsilon, stash_type):
        if stash_type not in STASH:
            raise self.fail(f"stash_type = {stash_type} is not 1 (float32) or 11 (float64)")
        a = self.axis(axis, x.ndim)
        if scale.ndim > x.ndim or any(s not in (1, d) for s, d in
                                      zip(scale.shape[::-1], x.shape[::-1])):
            raise self.fail(f"scale of shape {list(scale.shape)} does not broadcast to x "
                            f"{list(x.shape)}")
        xf = x.astype(np.float64 if x.dtype == np.float64 else np.float32)
        inv = 1 / np.sqrt(np.mean(xf * xf, axis=tuple(range(a, x.ndim)), keepdims=True)
                          + epsilon)
        y = xf * inv * scale.astype(xf.dtype)
        return y.astype(scale.dtype), inv.astype(STASH[stash_type])
