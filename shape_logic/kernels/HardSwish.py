"""HardSwish: y = x * max(0, min(1, x/6 + 1/2)), elementwise (MobileNetV3)."""
import numpy as np

from .families import UnaryFloat


class HardSwish(UnaryFloat):
    def run(self, x):
        if x.dtype.kind != "f":
            raise self.fail(f"needs a floating-point input, got {x.dtype}")
        gate = np.clip(x / x.dtype.type(6) + x.dtype.type(0.5), 0, 1)
        return (x * gate).astype(x.dtype, copy=False)
