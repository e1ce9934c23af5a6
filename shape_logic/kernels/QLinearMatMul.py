"""QLinearMatMul: MatMul on quantized tensors. The integer product of a and b less their
zero points (MatMulInteger's) is rescaled by a_scale * b_scale / y_scale (a's per tensor
or per row, b's per tensor or per column), rounded half to even, shifted by y_zero_point
and saturated into its type (8-bit integers: the float8 forms of opset 21 do not run)."""
import numpy as np

from .MatMulInteger import MatMulInteger, rows
from .base import Kernel
from .quant import quantize


class QLinearMatMul(Kernel):
    n_inputs = (8, 8)

    def setup(self):
        self.mm = MatMulInteger({}, opset=self.opset)

    def run(self, a, a_scale, a_zero, b, b_scale, b_zero, y_scale, y_zero):
        if y_zero.dtype not in (np.int8, np.uint8):
            raise self.fail(f"needs 8-bit integer outputs, got {y_zero.dtype}")
        (acc,) = self.mm(a, b, a_zero, b_zero)
        factor = (rows(self, a_scale, a).astype(np.float32) * np.asarray(b_scale, np.float32)
                  / np.asarray(y_scale, np.float32).reshape(()))
        return quantize(self, acc * factor.astype(np.float64), np.asarray(y_zero).reshape(()),
                        y_zero.dtype)
