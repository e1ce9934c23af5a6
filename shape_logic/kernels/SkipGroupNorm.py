"""SkipGroupNorm (com.microsoft): s = x + skip (+ bias), then GroupNorm of s; outputs y and
s. x is [N, H, W, C]; skip [N, H, W, C], [N, 1, 1, C] or [N, C]; gamma, beta, bias [C].
NCHW (channels_last = 0) is refused: onnxruntime documents the skip for NHWC only (and runs
the operator on CUDA only)."""
import numpy as np

from .GroupNorm import group_norm
from .base import REQUIRED, Kernel


class SkipGroupNorm(Kernel):
    domains = ("com.microsoft",)
    attrs = {"epsilon": 1e-5, "groups": REQUIRED, "activation": REQUIRED, "channels_last": 1}
    n_inputs = (4, 5)

    def run(self, x, gamma, beta, skip, bias=None, *, epsilon, groups, activation,
            channels_last):
        if not channels_last:
            raise self.fail("channels_last = 0 (NCHW) is not supported")
        if x.ndim != 4:
            raise self.fail(f"x of shape {list(x.shape)} is not 4-D")
        n, h, w, c = x.shape
        if skip.shape not in ((n, h, w, c), (n, 1, 1, c), (n, c)):
            raise self.fail(f"skip of shape {list(skip.shape)} is not [{n}, {h}, {w}, {c}], "
                            f"[{n}, 1, 1, {c}] or [{n}, {c}]")
        if bias is not None and bias.shape != (c,):
            raise self.fail(f"bias of shape {list(bias.shape)} is not [{c}]")
        s = x.astype(np.float32) + skip.astype(np.float32).reshape(
            (n, 1, 1, c) if skip.ndim == 2 else skip.shape)
        if bias is not None:
            s = s + bias.astype(np.float32)
        y = group_norm(self, s, gamma, beta, groups, epsilon, activation, 1)
        return y.astype(x.dtype), s.astype(x.dtype)
