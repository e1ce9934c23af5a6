"""QLinearWhere (com.microsoft): z = condition ? x : y, the three broadcast together, where
x and y are each requantized into Z's scale and zero point: quantize(dequantize(v)), in
float32 as onnxruntime's lookup tables are built ((v - zero_point) * scale, divided by Z's
scale, rounded half to even, plus Z's zero point, saturated). Every scale and zero point
holds one element; X, Y and the zero points are of one 8-bit type."""
import numpy as np

from .base import Kernel
from .families import check_broadcast
from .quant import quantize


class QLinearWhere(Kernel):
    domains = ("com.microsoft",)
    n_inputs = (9, 9)

    def run(self, cond, x, x_scale, x_zero, y, y_scale, y_zero, z_scale, z_zero):
        if cond.dtype != np.bool_:
            raise self.fail(f"condition must be bool, got {cond.dtype}")
        if x.dtype not in (np.int8, np.uint8):
            raise self.fail(f"needs int8 or uint8 tensors, got {x.dtype}")
        for v in (y, x_zero, y_zero, z_zero):
            if v.dtype != x.dtype:
                raise self.fail(f"x, y and the zero points must be of one type: {x.dtype}, "
                                f"{v.dtype}")
        for v in (x_scale, x_zero, y_scale, y_zero, z_scale, z_zero):
            if v.size != 1 or v.ndim > 1:
                raise self.fail(f"a scale or zero point of shape {list(v.shape)} is not per "
                                "tensor (one element)")
        for v in (x_scale, y_scale, z_scale):
            if v.dtype != np.float32:
                raise self.fail(f"scales must be float32, got {v.dtype}")
        check_broadcast(self, cond, x, y)
        zs, zz = np.float32(z_scale.reshape(())), z_zero.reshape(())

        def requantized(v, scale, zero):
            real = (v.astype(np.float32) - np.float32(zero.reshape(()))) * scale.reshape(())
            return quantize(self, real / zs, zz, x.dtype)

        return np.where(cond, requantized(x, x_scale, x_zero),
                        requantized(y, y_scale, y_zero)).astype(x.dtype)
