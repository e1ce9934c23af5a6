"""LinearAttentionGate (com.microsoft): decay = decay_scale * Softplus(a + dt_bias) and
beta = Sigmoid(b), the per-head vectors (float32, H = a's last axis elements, read flat)
broadcast along a's last axis; all in float32, the results rounded to a's type."""
import numpy as np

from .Sigmoid import sigmoid
from .base import Kernel
from .dtypes import NARROW_FLOATS


class LinearAttentionGate(Kernel):
    domains = ("com.microsoft",)
    n_inputs = (3, 4)
    widens_small_floats = False

    def run(self, a, dt_bias, decay_scale, b=None):
        if a.dtype.name not in NARROW_FLOATS or (b is not None and b.dtype != a.dtype):
            raise self.fail(f"takes one float type for a and b, not {a.dtype}, "
                            f"{None if b is None else b.dtype}")
        if dt_bias.dtype != np.float32 or decay_scale.dtype != np.float32:
            raise self.fail("dt_bias and decay_scale are float32")
        if a.ndim == 0 or a.shape[-1] == 0:
            raise self.fail(f"a {list(a.shape)} needs a non-empty last axis")
        h = a.shape[-1]
        if dt_bias.size != h or decay_scale.size != h:
            raise self.fail(f"dt_bias and decay_scale need {h} elements")
        x = a.astype(np.float32) + dt_bias.reshape(-1)
        decay = (decay_scale.reshape(-1) * np.logaddexp(np.float32(0), x)).astype(a.dtype)
        if self.n_outputs < 2:
            return decay  # b unread
        if b is None or b.shape != a.shape:
            raise self.fail(f"the beta output needs a b of a's shape {list(a.shape)}")
        return decay, sigmoid(b.astype(np.float32)).astype(a.dtype)
