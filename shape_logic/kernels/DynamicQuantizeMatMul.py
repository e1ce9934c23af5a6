"""DynamicQuantizeMatMul (com.microsoft): a (float32) quantized to uint8 per tensor as
DynamicQuantizeLinear does (its range stretched to hold 0; scale (max - min) / 255, zero
point round(-min / scale)), then MatMulIntegerToFloat's product with b less its zero point,
rescaled by both scales (+ bias): float32."""
import numpy as np

from .MatMulIntegerToFloat import integer_product, rescaled
from .base import Kernel


class DynamicQuantizeMatMul(Kernel):
    domains = ("com.microsoft",)
    n_inputs = (3, 5)

    def run(self, a, b, b_scale, b_zero=None, bias=None):
        if a.dtype != np.float32:
            raise self.fail(f"a must be float32, got {a.dtype}")
        # in float32, as onnxruntime computes them
        low = min(np.float32(0), a.min()) if a.size else np.float32(0)
        high = max(np.float32(0), a.max()) if a.size else np.float32(0)
        scale = (high - low) / np.float32(255) if high > low else np.float32(1)
        zero = np.rint(np.clip(np.float32(0) - low / scale, 0, 255))
        q = np.clip(np.rint(a / scale) + zero, 0, 255).astype(np.uint8)
        acc = integer_product(self, q, b, np.array(zero, np.uint8), b_zero)
        return rescaled(self, acc, b, np.float64(scale) * np.asarray(b_scale, np.float64), bias,
                        np.float32)
