"""QLinearLeakyRelu (com.microsoft, QOperator quantization's): quantize(leaky_relu(
dequantize(x))) (8-bit integers, per-tensor parameters)."""
from .LeakyRelu import LeakyRelu
from .QLinearAdd import dequantized, requantized
from .base import Kernel


class QLinearLeakyRelu(Kernel):
    domains = ("com.microsoft",)
    attrs = {"alpha": 0.01}
    n_inputs = (4, 5)
    optional_inputs = frozenset({2})  # X's zero point (0), before Y's scale

    def setup(self, alpha):
        self.leaky = LeakyRelu({"alpha": alpha})

    def run(self, x, x_scale, x_zero, y_scale, y_zero=None, **attrs):
        (v,) = self.leaky(dequantized(self, x, x_scale, x_zero))
        return requantized(self, v, y_scale, y_zero, x.dtype)
