"""QLinearSigmoid (com.microsoft): y = quantize(sigmoid(dequantize(x))) (8-bit integers,
per-tensor parameters)."""
from .QLinearAdd import dequantized, requantized
from .Sigmoid import sigmoid
from .base import Kernel


class QLinearSigmoid(Kernel):
    domains = ("com.microsoft",)
    n_inputs = (4, 5)
    optional_inputs = frozenset({2})  # X's zero point (0), before Y's scale

    def run(self, x, x_scale, x_zero, y_scale, y_zero=None):
        v = sigmoid(dequantized(self, x, x_scale, x_zero))
        return requantized(self, v, y_scale, y_zero, x.dtype)
