"""ScaledSiLU (com.microsoft): z = s * x, y = z * sigmoid(z), elementwise, s the scalar
scale input when given, else alpha (1.0 by default). As onnxruntime documents and computes
it, each step is rounded to X's type: z, then sigmoid(z), then their product (the
arithmetic in float32)."""
import numpy as np

from .Sigmoid import sigmoid
from .base import Kernel
from .dtypes import NARROW_FLOATS


class ScaledSiLU(Kernel):
    domains = ("com.microsoft",)
    attrs = {"alpha": 1.0}
    n_inputs = (1, 2)
    widens_small_floats = False  # bfloat16 is rounded at each step, as X's type

    def run(self, x, scale=None, *, alpha):
        for t in (x, scale):
            if t is not None and t.dtype.name not in NARROW_FLOATS:
                raise self.fail(f"takes float16, bfloat16 or float32 tensors, not {t.dtype}")
        if scale is not None and scale.ndim != 0:
            raise self.fail(f"scale of shape {list(scale.shape)} is not a scalar")
        s = np.float32(alpha if scale is None else scale.astype(np.float32))
        t = x.dtype
        z = (s * x.astype(np.float32)).astype(t)
        g = sigmoid(z.astype(np.float32)).astype(t)
        return (z.astype(np.float32) * g.astype(np.float32)).astype(t)
