"""SkipSimplifiedLayerNormalization (com.microsoft): RMS normalization over the last axis of
s = x + skip (+ bias), times gamma. Outputs y, mean (zeros, as onnxruntime writes: RMS
normalization has none), inv_std_var (both float32, x's axes but the last, then 1) and s.
x is [B, S, H] or [T, H]; skip has x's shape, or for a 3-D x [1, S, H] or [S, H]."""
import numpy as np

from .base import Kernel


class SkipSimplifiedLayerNormalization(Kernel):
    domains = ("com.microsoft",)
    attrs = {"epsilon": 1e-12}
    n_inputs = (3, 4)
    widens_small_floats = False  # mean and inv_std_var stay float32 for bfloat16 inputs

    def run(self, x, skip, gamma, bias=None, *, epsilon):
        if x.ndim not in (2, 3) or skip.ndim not in (2, 3):
            raise self.fail(f"input {list(x.shape)} and skip {list(skip.shape)} must be 2-D "
                            "or 3-D")
        fits = skip.shape == x.shape or x.ndim == 3 and skip.shape[-2:] == x.shape[-2:] and (
            skip.ndim == 2 or skip.shape[0] == 1)
        if not fits:
            raise self.fail(f"skip {list(skip.shape)} does not fit input {list(x.shape)}")
        h = x.shape[-1]
        for name, p in (("gamma", gamma), ("bias", bias)):
            if p is not None and p.shape != (h,):
                raise self.fail(f"{name} of shape {list(p.shape)} is not [{h}]")
        s = x.astype(np.float32) + skip.astype(np.float32)
        if bias is not None:
            s = s + bias.astype(np.float32)
        s = s.reshape(x.shape)
        inv = 1 / np.sqrt(np.mean(s * s, axis=-1, keepdims=True) + epsilon)
        y = s * inv * gamma.astype(np.float32)
        return (y.astype(x.dtype), np.zeros_like(inv), inv, s.astype(x.dtype))
