"""QLinearSoftmax (com.microsoft, QOperator quantization's): quantize(softmax(dequantize(x)))
(8-bit integers, per-tensor parameters). `opset` says which Softmax: from 13 along `axis`
alone, before over x seen as 2-D at `axis`; `axis` is -1 by default either way
(onnxruntime's kernel, where ONNX's Softmax before 13 defaults to 1)."""
from .QLinearAdd import dequantized, requantized
from .Softmax import Softmax
from .base import REQUIRED, Kernel


class QLinearSoftmax(Kernel):
    domains = ("com.microsoft",)
    attrs = {"axis": -1, "opset": REQUIRED}
    n_inputs = (5, 5)
    optional_inputs = frozenset({2})  # X's zero point (0), before Y's scale

    def setup(self, axis, opset):
        self.softmax = Softmax({"axis": axis}, opset=opset)

    def run(self, x, x_scale, x_zero, y_scale, y_zero, **attrs):
        (v,) = self.softmax(dequantized(self, x, x_scale, x_zero))
        return requantized(self, v, y_scale, y_zero, x.dtype)
