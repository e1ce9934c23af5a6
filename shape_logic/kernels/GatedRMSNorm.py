"""GatedRMSNorm (com.microsoft): y = x / sqrt(mean(x^2) + epsilon) * scale * act(gate), the
mean over each group of C consecutive elements of X's last axis (C the scale's element
count), act silu (swish) or sigmoid; all in float32, the result rounded to X's type."""
import numpy as np

from .Sigmoid import sigmoid
from .base import Kernel
from .dtypes import NARROW_FLOATS


class GatedRMSNorm(Kernel):
    domains = ("com.microsoft",)
    attrs = {"activation": "silu", "epsilon": 1e-5}
    n_inputs = (3, 3)
    widens_small_floats = False

    def setup(self, activation, **_):
        if isinstance(activation, bytes):
            activation = activation.decode()
        if activation not in ("silu", "swish", "sigmoid"):
            raise self.fail(f"activation {activation!r} is none of silu, swish, sigmoid")
        self.activation = activation

    def run(self, x, scale, gate, *, epsilon, **_):
        if x.dtype.name not in NARROW_FLOATS or not x.dtype == scale.dtype == gate.dtype:
            raise self.fail(f"takes one float type, not {x.dtype}, {scale.dtype}, {gate.dtype}")
        if x.ndim == 0 or gate.shape != x.shape:
            raise self.fail(f"X {list(x.shape)} must have an axis, gate {list(gate.shape)} "
                            "its shape")
        c = scale.size
        if c == 0 or x.shape[-1] % c:
            raise self.fail(f"X's last axis {x.shape[-1]} is no multiple of {c} (> 0)")
        xf = x.astype(np.float32).reshape(*x.shape[:-1], x.shape[-1] // c, c)
        g = gate.astype(np.float32).reshape(xf.shape)
        inv = 1 / np.sqrt(np.mean(xf * xf, axis=-1, keepdims=True) + np.float32(epsilon))
        act = sigmoid(g) if self.activation == "sigmoid" else g * sigmoid(g)
        y = xf * inv * scale.astype(np.float32).reshape(-1) * act
        return y.reshape(x.shape).astype(x.dtype)
