"""BranchwiseRMSNorm (com.microsoft): RMS normalization of each of C branches of H elements,
X grouped (..., C, H) or flat (..., C * H) with C = num_branches; times the scale, (C * H),
(C, H) or (H). In float32, the result rounded to X's type."""
import numpy as np

from .base import Kernel
from .dtypes import NARROW_FLOATS


class BranchwiseRMSNorm(Kernel):
    domains = ("com.microsoft",)
    attrs = {"num_branches": 0, "epsilon": 1e-5}
    n_inputs = (1, 2)
    widens_small_floats = False

    def run(self, x, scale=None, *, num_branches, epsilon):
        for t in (x, scale):
            if t is not None and t.dtype.name not in NARROW_FLOATS:
                raise self.fail(f"takes float16, bfloat16 or float32 tensors, not {t.dtype}")
        if num_branches < 0:
            raise self.fail(f"num_branches must not be negative: {num_branches}")
        if num_branches:
            if x.ndim < 1 or x.shape[-1] == 0 or x.shape[-1] % num_branches:
                raise self.fail(f"X {list(x.shape)} has no last axis that {num_branches} "
                                "branches divide")
            c, h = num_branches, x.shape[-1] // num_branches
        else:
            if x.ndim < 2 or 0 in x.shape[-2:]:
                raise self.fail(f"X {list(x.shape)} needs two last axes C, H > 0")
            c, h = x.shape[-2:]
        xf = x.astype(np.float32).reshape(*x.shape[:-1 if num_branches else -2], c, h)
        y = xf / np.sqrt(np.mean(xf * xf, axis=-1, keepdims=True) + np.float32(epsilon))
        if scale is not None:
            if scale.shape not in ((h,), (c * h,), (c, h)):
                raise self.fail(f"scale {list(scale.shape)} is none of [{h}], [{c * h}], "
                                f"[{c}, {h}]")
            y = y * scale.astype(np.float32).reshape(-1, h)
        return y.reshape(x.shape).astype(x.dtype)
